"""The uniform random bot: any listed legal move, each equally likely; open choices uniform too."""

from __future__ import annotations

import random

from .base import SeatView
from .summaries import random_move


class RandomBot:
    """Plays every game: picks one entry of the view's legal moves uniformly, then fills its choices at random."""

    kind = "random"

    def __init__(self, game: str, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng

    def choose(self, view: SeatView) -> dict:
        """A uniformly random legal move of the seat."""
        return random_move(view, self.rng.choice(view.legal_moves), self.rng)
