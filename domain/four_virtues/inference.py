"""The Four Virtues' inference from the opponent's public choices (docs/analysis.md "Inference"; docs/fairplay.md
"The sampler, and what the null needs"): what a sampled deal makes of the opponent's turns the seat watched.

The opponent model is the heuristic bot's rule (bots/four_virtues.py), softened: a player who can score by laying a
meld down or adding to one on the table (FV-2.3, FV-2.4, FV-3.3) does so before it discards or ends the round
(`done`). So an opponent's discard or `done` says that its hand then held no meld and no addition to the table of
that moment; a deal that gives it one goes against the model, and weighs `EPS_MELD` (a player who keeps a meld back,
or errs: the test players replace up to 30% of their moves by random ones).

Each discard or `done` of the opponent is an observation: the table then (a snapshot of the public state) and the
hand then, which is the sampled hand now with the cards it has laid, added or discarded since put back and the cards
it took from the discard pile since taken out. Its draws from the stock (unseen cards) drop its observations: its
hand then is no longer known from its hand now. A new round's deal drops them all (a new shuffle, FV-4.3). A
deal's weight is `EPS_MELD` to the power of the observations it goes against: the likelihood of the opponent's
choices under the model, up to a constant factor. Only the seat's knowledge is read: its events and the folded state.
"""

from __future__ import annotations

from typing import Any

from .clauses import CLUBS, is_face
from .legality import add_refusal
from .moves import add_proposals, lowered_melds, plain_melds, shape_passes

EPS_MELD = 0.1  # the chance a player discards while it could score: a guess (see the doc), not tuned


class Watcher:
    """The observations made while folding one seat's knowledge (`see` each event before the state takes it in)."""

    def __init__(self, seat: int):
        self.opponent = 1 - seat
        self.open: list[list] = []  # [table then (a public state), cards played since, cards taken since]

    def see(self, event: dict, shadow: Any) -> None:
        """One decoded event (cards as ints) with `shadow`, the public state before it."""
        kind = event["type"]
        if kind == "dealt":
            self.open = []
            return
        if event.get("seat") != self.opponent:
            return
        if kind == "drew":
            if event["source"] == "discard":
                for ob in self.open:
                    ob[2].extend(event["cards"])
            else:
                self.open = []
            return
        face = [event["face"]] if event.get("face") is not None else []
        played = list(event.get("cards") or []) + face
        if kind in ("discarded", "done"):
            self.open.append([shadow.clone(), [], []])
        for ob in self.open:
            ob[1].extend(played)

    def finish(self) -> tuple:
        """The observations, frozen: (table then, played since, taken since) each."""
        return tuple((t, tuple(p), tuple(k)) for t, p, k in self.open)


def scores(table: Any, seat: int, hand: tuple[int, ...]) -> bool:
    """Whether `hand` could lay a meld down or add to a meld of `table` for `seat` (the heuristic bot's "something
    scores"): a plain set or run of its number cards, one with a card lowered when it holds a clubs face card (FV-3.3),
    or an addition the judge lets pass (FV-2.4)."""
    numbers = [c for c in hand if not is_face(c)]
    if any(shape_passes(cards, None) for cards in plain_melds(numbers)):
        return True
    if any(is_face(c) and c // 13 == CLUBS for c in hand) and \
            any(shape_passes(cards, low) for cards, low in lowered_melds(numbers)):
        return True
    if not table.melds:
        return False
    s = table.clone()
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)
    return any(add_refusal(s, seat, m["meld"], m["cards"]) is None for m in add_proposals(s, seat))


def weight(observations: tuple, seat: int, hand: tuple[int, ...]) -> float:
    """The likelihood (up to a constant factor) of the discards and `done`s of `seat` (the opponent), given its
    sampled `hand` now."""
    out = 1.0
    for table, played, taken in observations:
        then = list(hand) + list(played)  # its hand then: now, with what it played since and without what it took
        for c in taken:
            if c in then:
                then.remove(c)
        if scores(table, seat, tuple(sorted(then))):
            out *= EPS_MELD
    return out
