"""El Royale's inference from the other seats' public choices (docs/analysis.md "Inference"): what a sampled deal
makes of the passes, concessions, attacks and throw-ins the seat watched.

The opponent model is the heuristic bot's rules (bots/el_royale.py), read as three tendencies and softened:

- offered a throw-in of rank R (a join or reinforce window), a seat that holds a card of R throws it in; a pass then
  says it held none (the bot keeps back only its main group: it passes with one anyway with chance `EPS_PASS`);
- a defender facing a pile of more than two cards beats it when it can; a concession then says it held no card that
  beats the top (of the top's rank, or a higher one of its suit; it concedes anyway with chance `EPS_CONCEDE`);
- an attack or a throw-in plays the whole of its rank; afterwards the seat holds none of it (else `EPS_KEEP`).

Each such choice is an observation: the seat, the cards whose presence in its hand would go against the model, and
its hand at the time. The hand at the time is the sampled hand now, with the cards it played since put back and the
cards it took since (a pile, laid-out cards: all seen) taken out; a seat that draws (an unseen card) drops its
observations, since its hand then is no longer known from its hand now. A sampled deal's weight is the product of
the `EPS_*` of the observations it goes against (1 when it goes against none): the likelihood of the choices under
the model, up to a constant factor. Only the seat's knowledge is read: the public events and the folded state.
"""

from __future__ import annotations

from ..cards import RANK_MASKS, rank_of, suit_of
from .state import DEFENCE, JOIN, REINFORCE

EPS_PASS = 0.2
EPS_CONCEDE = 0.1
EPS_KEEP = 0.2
CHEAP_PILE = 2  # the bot concedes a pile of at most this many cards even when it can beat it


def _beaters(top: int) -> int:
    """The cards that beat `top` alone (ER-3.4, both editions): its rank, or a higher card of its suit."""
    suit, rank = suit_of(top), rank_of(top)
    mask = RANK_MASKS[rank]
    for r in range(rank + 1, 13):
        mask |= 1 << (suit * 13 + r)
    return mask


class Watcher:
    """The observations made while folding one seat's knowledge (`see` each event before the state takes it in)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.open: list[list] = []  # [who, against mask, eps, played since, taken since]

    def _observe(self, who: int, against: int, eps: float) -> None:
        if who != self.seat and against:
            self.open.append([who, against, eps, 0, 0])

    def see(self, kind: str, who, cards: list[int], shadow) -> None:
        """One event (its kind, its seat, its cards as ints) with `shadow`, the public state before it."""
        if who is None or who == self.seat:
            return
        if kind in ("attacked", "threw_in", "beat"):
            played = 0
            for c in cards:
                played |= 1 << c
            for ob in self.open:
                if ob[0] == who:
                    ob[3] |= played
            if kind != "beat" and cards:
                self._observe(who, RANK_MASKS[rank_of(cards[0])] & ~played, EPS_KEEP)
        elif kind == "passed" and shadow.phase in (JOIN, REINFORCE) and shadow.pile:
            self._observe(who, RANK_MASKS[rank_of(shadow.pile[-1])], EPS_PASS)
        elif kind == "conceded":
            if shadow.phase == DEFENCE and len(shadow.pile) > CHEAP_PILE:
                self._observe(who, _beaters(shadow.pile[-1]), EPS_CONCEDE)
            self._taken(who, shadow.pile_mask)
        elif kind == "claimed":
            self._taken(who, shadow.pile_mask)
        elif kind == "took":
            mask = 0
            for c in cards:
                mask |= 1 << c
            self._taken(who, mask)
        elif kind in ("drew", "eliminated"):
            self.open = [ob for ob in self.open if ob[0] != who]

    def _taken(self, who: int, mask: int) -> None:
        for ob in self.open:
            if ob[0] == who:
                ob[4] |= mask

    def finish(self) -> tuple:
        """The observations, frozen: (who, against, eps, played since, taken since) each."""
        return tuple(tuple(ob) for ob in self.open)


def weight(observations: tuple, hands: tuple) -> float:
    """The likelihood, up to a constant factor, of the observed choices if the seats held `hands` now."""
    w = 1.0
    for who, against, eps, played, taken in observations:
        if ((hands[who] | played) & ~taken) & against:
            w *= eps
    return w
