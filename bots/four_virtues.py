"""The Four Virtues' heuristic bot: meld greedily, use the virtues to the full, keep cards that connect.

On its turn the bot draws the discard pile's top card when it completes a meld in hand or fits
a meld on the table (it is then laid down or added at once), else two cards from the stock: a
face card on the pile is left there, or two bots holding only faces would trade them for ever.
Then it lays down or adds the highest-scoring meld it can, one at a time: points are the pips
(FV-4.2), doubled under diamonds (FV-3.2), scored at the lowered rank under clubs (FV-3.3);
hearts are used with the largest force (FV-3.4) and spades with the largest draw (FV-3.5),
each counted as a bonus. When nothing scores it ends the round with `done` if it may, else
discards the card that connects least with the rest of its hand (never the card it has just
taken from the discard pile: two bots would pass one card back and forth for ever). A forced discard gives up
the least connected cards.
"""

from __future__ import annotations

import random

from .base import SeatView
from .cards import RANKS, pips, rank, suit

FORCE_BONUS, DRAW_BONUS = 3, 2  # points a hearts force / a spades draw is worth per card
FACE_KEEP = 6  # how connected a face card counts (a virtue is worth keeping)


class FourVirtuesBot:
    """The heuristic Four Virtues player of one seat."""

    kind = "heuristic"

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng
        self.taken: str | None = None  # the card this bot took from the discard pile this turn: never thrown back

    def choose(self, view: SeatView) -> dict:
        """The move for this seat now (see the module doc)."""
        table, moves, hand = view.table, view.legal_moves, view.hand
        kinds: dict[str, list[dict]] = {}
        for m in moves:
            kinds.setdefault(m["type"], []).append(m)
        if "forced_discard" in kinds:
            entry = kinds["forced_discard"][0]
            return view.move(entry, cards=sorted(hand, key=lambda c: connection(c, hand))[:entry["count"]])
        if "draw" in kinds:
            move = self._draw(kinds["draw"], table, hand)
            self.taken = table["discard"][-1] if move["source"] == "discard" else None
            return view.move(move)
        scored = [(meld_score(m), m) for m in kinds.get("meld", [])]
        scored += [(add_score(m, table["melds"], self.seat), m) for m in kinds.get("add", [])]
        if scored:
            points, best = max(scored, key=lambda pair: pair[0])
            if points > 0:
                return view.move(best, **virtue_choice(best))
        if "done" in kinds:
            return view.move(kinds["done"][0])
        discards = [m for m in kinds["discard"] if m["cards"][0] != self.taken] or kinds["discard"]
        return view.move(min(discards, key=lambda m: (connection(m["cards"][0], hand), pips(m["cards"][0]))))

    def _draw(self, draws: list[dict], table: dict, hand: list[str]) -> dict:
        by = {(m["source"], m.get("count")): m for m in draws}
        discard = table["discard"]
        if discard and ("discard", None) in by:
            top = discard[-1]
            if not is_face(top) and (completes(top, hand) or fits_table(top, table["melds"])):
                return by[("discard", None)]
        return by.get(("stock", 2)) or by.get(("stock", 1)) or draws[0]


def is_face(card: str) -> bool:
    """J, Q or K (FV-1.1)."""
    return card[0] in "JQK"


def meld_score(m: dict) -> float:
    """A new meld's points (FV-4.2, FV-3.2, FV-3.3) plus the worth of its hearts force or spades draw."""
    lowered = m.get("lowered")
    points = 0
    for c in m["cards"]:
        points += RANKS.index(lowered["rank"]) + 1 if lowered and c == lowered["card"] else pips(c)
    face = m.get("face")
    if face and suit(face) == "D":
        points *= 2
    return points + FORCE_BONUS * m.get("force_max", 0) + DRAW_BONUS * m.get("draw_max", 0)


def add_score(m: dict, melds: list[dict], seat: int) -> float:
    """The points an addition scores for this seat (doubled on its own diamonds meld)."""
    meld = melds[m["meld"]]
    points = sum(pips(c) for c in m["cards"])
    return 2 * points if meld.get("virtue") == "diamonds" and meld.get("owner") == seat else points


def virtue_choice(m: dict) -> dict:
    """Use a virtue to the full: force the most cards, draw the most cards."""
    if "force_max" in m:
        return {"force": m["force_max"]}
    if "draw_max" in m:
        return {"draw": m["draw_max"]}
    return {}


def connection(card: str, hand: list[str]) -> int:
    """How much a card works with the rest of the hand: same rank (sets) and near ranks of its suit (runs)."""
    if is_face(card):
        return FACE_KEEP
    r, s = rank(card), suit(card)
    same = sum(1 for c in hand if c != card and not is_face(c) and rank(c) == r)
    near = sum(1 for c in hand if c != card and not is_face(c) and suit(c) == s and 0 < abs(rank(c) - r) <= 2)
    return 2 * same + near


def completes(card: str, hand: list[str]) -> bool:
    """Whether a number card makes a set or run of three with cards in hand (FV-2.3)."""
    r, s = rank(card), suit(card)
    numbers = [c for c in hand if not is_face(c)]
    if sum(1 for c in numbers if rank(c) == r) >= 2:
        return True
    held = {rank(c) for c in numbers if suit(c) == s}
    return any({r + a, r + b} <= held for a, b in ((-2, -1), (-1, 1), (1, 2)) if 0 <= r + a and r + b <= 9)


def fits_table(card: str, melds: list[dict]) -> bool:
    """Whether a number card could be added to a meld on the table (FV-2.4), judged from its cards."""
    r, s = rank(card), suit(card)
    for meld in melds:
        low = meld.get("lowered")
        ranks = sorted(RANKS.index(low["rank"]) if low and c == low["card"] else rank(c) for c in meld["cards"])
        if ranks[0] == ranks[-1]:
            if r == ranks[0]:
                return True
        elif suit(meld["cards"][0]) == s and r in (ranks[0] - 1, ranks[-1] + 1) and r <= 9:
            return True
    return False
