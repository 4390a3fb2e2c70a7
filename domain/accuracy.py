"""A player's accuracy in one game from its analysis lines (issue 36 part 4, docs/analysis.md "Accuracy"). Pure.

A decision's loss (points, domain/analysis.py) is first put on the win-chance scale by the game's blunder
threshold: `loss x 20 / blunder` (a blunder is 20 points of win chance in the win-unit games, and whatever each
game's spec declares in its own unit, chips or points, in the others). The move's accuracy is lichess's curve on that loss, 103.1668 x exp(-0.04354 x loss)
- 3.1669, kept within 0..100: 100 for the best move, about 80 at an inaccuracy's threshold, 64 at a mistake's, 40 at
a blunder's. The player's accuracy is the plain mean over its analysed decisions (a decision with one candidate is
not analysed and does not count); None with no analysed decision.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

WIN_BLUNDER = 20.0  # points of win chance at which a move is a blunder (the win-unit games' threshold)


def move_accuracy(loss: float, blunder: float) -> float:
    """The accuracy (0-100) of a move that lost `loss` points in a game whose blunder threshold is `blunder`."""
    win_loss = max(0.0, loss) * WIN_BLUNDER / blunder
    return round(min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * win_loss) - 3.1669)), 3)


def accuracy(lines: Iterable[dict], marks: tuple[float, float, float]) -> float | None:
    """A seat's accuracy over its analysis lines (each with `loss`), one decimal; `marks` the game's thresholds."""
    values = [move_accuracy(x["loss"], marks[2]) for x in lines]
    return round(sum(values) / len(values), 1) if values else None
