"""Small Battle's heuristic bot: remember what each strike taught, strike where the drawn card most likely removes.

What a seat's views show across turns is enough to narrow each enemy position: an Ace shows its
rank (the view keeps it, SB-2.3), and a strike that held means the position's rank is at least the
drawn number (SB-2.2), a bound the view does not keep, so the bot remembers it. Each remaining
position's possible ranks are 2..9 above its bound, less the ranks known elsewhere. With a
number card it strikes the position most likely below it (the highest expected rank breaks ties:
a high draw is best spent on a high card); with an Ace it reveals the least known position. Its
own formation is a uniformly random ordering: any fixed pattern could be learnt.
"""

from __future__ import annotations

import random

from .base import SeatView

FORMATION_RANKS = range(2, 10)


def drawn_value(card: str) -> int | None:
    """The drawn card's number (T = 10), None for an Ace (it reveals, SB-2.3)."""
    return None if card[0] == "A" else (10 if card[0] == "T" else int(card[0]))


class SmallBattleBot:
    """The heuristic Small Battle player of one seat; it keeps a lower bound per enemy position."""

    kind = "heuristic"

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng
        self.lowest = {p: 2 for p in range(8)}  # enemy position -> the lowest rank it can hold
        self.last: tuple[int, int] | None = None  # (position, number) of this bot's last strike with a number

    def choose(self, view: SeatView) -> dict:
        """The move for this seat now (see the module doc)."""
        moves = view.legal_moves
        if moves[0]["type"] == "arrange":
            ranks = moves[0]["ranks"]
            return view.move(moves[0], formation=self.rng.sample(ranks, len(ranks)))
        enemy = {e["position"]: e for e in view.table["battlefields"][1 - self.seat]["positions"]}
        self._learn(enemy)
        d = drawn_value(view.table["drawn"])
        options = [m["position"] for m in moves]
        known = {p: int(e["rank"]) for p, e in enemy.items() if "rank" in e}
        cands = {p: self.candidates(p, known) for p in options}
        if d is None:
            fresh = [p for p in options if p not in known] or options
            target = max(fresh, key=lambda p: (len(cands[p]), mean(cands[p]), -p))
        else:
            target = max(options, key=lambda p: (chance_below(cands[p], d), mean(cands[p]), -p))
            self.last = (target, d)
        return {"seat": self.seat, "type": "strike", "position": target}

    def _learn(self, enemy: dict) -> None:
        """SB-2.2: a strike that held shows the position's rank is at least the number drawn."""
        if self.last is not None:
            position, number = self.last
            if not enemy[position]["removed"]:
                self.lowest[position] = max(self.lowest[position], number)
            self.last = None

    def candidates(self, position: int, known: dict[int, int]) -> list[int]:
        """The ranks a position may still hold, from what this seat has seen."""
        if position in known:
            return [known[position]]
        taken = {r for p, r in known.items() if p != position}
        return [r for r in FORMATION_RANKS if r >= self.lowest[position] and r not in taken] or [9]


def chance_below(ranks: list[int], number: int) -> float:
    """The share of possible ranks a number removes (SB-2.2: strictly higher removes)."""
    return sum(1 for r in ranks if r < number) / len(ranks)


def mean(values: list[int]) -> float:
    """The average of a non-empty list."""
    return sum(values) / len(values)
