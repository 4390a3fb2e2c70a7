"""The mark a judged move earns (docs/analysis.md "Marks"): inaccuracy, mistake or blunder, from what the move
surely lost, not from what it seemed to lose. Pure.

A move's loss is the best candidate's mean value less the played move's, both sampled on the same deals and rollout
streams (common random numbers, domain/analysis.py), so the sample-by-sample differences are paired. The loss's 95%
interval is the mean of those differences (over the samples both moves have) give or take 1.96 standard errors. A
move earns a mark when the interval's LOWER bound reaches the mark's threshold: "this move lost at least this much",
95% sure. The point estimate alone (the rule before issue 36 part 4) also marks every move whose sampling noise, or
the luck of being compared with the candidate that came out best by chance, pushed over a threshold. bench/marks.py
re-measures marked moves with ten times the samples; its numbers are in docs/analysis.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MARKS = ("inaccuracy", "mistake", "blunder")
Z95 = 1.959963984540054


def mark_of(thresholds: Sequence[float], loss: float) -> str | None:
    """The mark a loss (points) reaches against a game's thresholds (inaccuracy, mistake, blunder), or None."""
    mark = None
    for name, threshold in zip(MARKS, thresholds):
        if loss >= threshold:
            mark = name
    return mark


def paired_loss(best: Sequence[float], played: Sequence[float]) -> tuple[float, float]:
    """(mean, lower bound of its 95% interval) of the paired differences best - played over the samples both have
    (sample k of each was drawn on the same deal and rollout stream); a lower bound of -inf with fewer than 2."""
    n = min(len(best), len(played))
    if n == 0:
        return 0.0, -math.inf
    diffs = [b - p for b, p in zip(best[:n], played[:n])]
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, mean - Z95 * math.sqrt(var / n)


def surely_lost(loss: float, best: Sequence[float], played: Sequence[float], scale: float) -> float:
    """What the move surely lost, in points: the paired loss's 95% lower bound (`scale` points a unit of value), never
    above the shown `loss` nor below 0. The mark is earned on this (`mark_of`)."""
    _, low = paired_loss(best, played)
    return round(max(0.0, min(loss, low * scale)), 2)
