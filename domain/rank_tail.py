"""The exact upper tail of the fair-play rank test (docs/fairplay.md "The far tail"). Pure, no I/O.

Under honest play a decision's share is, with the same chance, any one of its W + 1 values
(domain.fairplay.rank_among): the true state is one more draw among the W + 1 states the seat could not tell apart.
In units of 1 / (2 (W + 1)) the values are integers (twice the values below, plus the ties, plus one): a decision's
`support`, listed with the TRUE state's value first, so the support alone says what was observed.

If the decisions are independent, the sum of the shares is distributed as the convolution of their supports, and its
tail at the observed sum is exact: no normal approximation. The far tail needs that. When few decisions vary and
their shares are skewed, the normal tail is too thin: with one world in five better than the rest, a decision's
share is 0.9 with chance 1/5 and else 0.4, and 100 such decisions reach 4.75 sigma (normal tail 1.0e-6) with chance
9.7e-6, ten times the panel's nominal rate (tests/unit/test_rank_tail.py). The rank test reports the larger of this
p-value and the normal one with each game a cluster (which holds when a game's decisions move together), so it is
valid under either reading.

The convolution is numpy's (`numpy.convolve`): 756 decisions of 17 values each (a 7-game event of 108 decisions
a game at 16 worlds) took 0.097 s, and the same loop in pure Python 9.8 s, with the same tail to 13 digits
(2026-11-29, 2 loaded cores). numpy is the one run-time dependency added for it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def support_of(shares: Sequence[float]) -> tuple[int, ...]:
    """The shares of W + 1 values (each a multiple of 1 / (2 (W + 1)), domain.fairplay.rank_among) as integers in those
    units, in the same order."""
    units = 2 * len(shares)
    return tuple(round(s * units) for s in shares)


def exact_tail(supports: Sequence[Sequence[int]]) -> float:
    """P(sum of shares >= the observed sum) when each decision's share is any value of its support with the same
    chance, independently of the others; the observed share of each is its support's first value. 1.0 when no
    decision varies. Raises ValueError on an empty support or a value outside 1 .. 2 (W + 1) - 1."""
    for s in supports:
        if not s or any(not 1 <= k < 2 * len(s) for k in s):
            raise ValueError(f"a decision's support must hold integers from 1 to {2 * len(s) - 1 if s else 1}: {s!r}")
    varying = [s for s in supports if min(s) != max(s)]  # a decision whose states all tie tells nothing
    if not varying:
        return 1.0
    units = 2 * math.lcm(*(len(s) for s in varying))
    dist = np.ones(1)
    observed = 0
    for s in varying:
        scale = units // (2 * len(s))
        low = min(s)
        values = np.fromiter(((k - low) * scale for k in s), dtype=np.int64, count=len(s))
        observed += int(values[0])
        dist = np.convolve(dist, np.bincount(values) / len(s))
    return min(1.0, float(dist[observed:].sum()))
