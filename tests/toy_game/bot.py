"""High Card's heuristic bot: lead the highest card; follow with the lowest card that wins, else the lowest."""

from __future__ import annotations

import random

from bots.base import SeatView

RANKS = "A23456789TJQK"


class HighCardBot:
    """Plays from its seat's view only."""

    kind = "heuristic"

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng

    def choose(self, view: SeatView) -> dict:
        """The move to make now."""
        entries = sorted(view.legal_moves, key=lambda m: RANKS.index(m["cards"][0][0]))
        trick = view.table.get("trick") or []
        if not trick:
            return view.move(entries[-1])
        winning = [m for m in entries if RANKS.index(m["cards"][0][0]) > RANKS.index(trick[0][0])]
        return view.move((winning or entries)[0])
