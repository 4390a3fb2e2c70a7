"""The fair-play screen, stage one of the report (issue 37, docs/fairplay.md "Two stages"). Pure, no I/O.

REFEREE ONLY, like domain.fairplay (it reads the TRUE state). The screen is the report's rank test made cheap: no
own-information analysis, one rollout a candidate (common random numbers), a few sampled worlds. The rank of the
played move's advantage in the true state among the worlds the seat could not tell apart from it is uniform under
honest play whatever the precision (the true state and the worlds are judged by the same procedure), so the cheap
screen keeps the full test's null and only loses power; the players it refers get the full report (stage two).

Thresholds (per player, over the games screened together):
- REFER: the screen refers a player to stage two when its one-sided p-value is at most 1/1,000 (the target: at most
  one honest player in 1,000 referred, measured in docs/fairplay.md, not assumed);
- PANEL: stage two's p-value at or below 1 in 1,000,000 (about 4.75 sigma, the level chess federations act on)
  asks a fair-play panel to review the games. Never a verdict.
"""

from __future__ import annotations

import math
from typing import Any

from .fairplay import perfect_information_decision, world_rank
from .spec import GameSpec
from .wording import count

REFER = 1e-3
PANEL = 1e-6
WORLDS = 4  # sampled worlds a decision, besides the true state
SAMPLES = 1  # rollouts a candidate in each state


def z_of(p: float) -> float:
    """The one-sided normal quantile of a p-value: z with P(Z >= z) = p (bisection on erfc)."""
    lo, hi = -10.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2)) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def sigmas(p: float) -> float:
    """How many standard deviations a p-value is (z_of, to two decimals), for the reports' text."""
    return round(z_of(p), 2)


def screen_judge(spec: GameSpec, samples: int = SAMPLES) -> str:
    """How the screen judges a candidate in `spec`'s game, in words for the reports: by the game's glance, or by
    `samples` rollouts."""
    a = spec.analysis
    if a is not None and a.glance is not None:
        return f"its glance: {a.glance_words or 'what a move gains at once'}"
    return rollouts_judge(samples)


def rollouts_judge(samples: int) -> str:
    """How a screen of `samples` rollouts a candidate judges, in words: every game's before the glance."""
    return f"{count(samples, 'rollout')} a candidate"


def screen_decision(spec: GameSpec, setup: Any, seat: int, seen: list[dict], move: dict, state: Any, seed: str,
                    ordinal: int, worlds: int = WORLDS,
                    samples: int = SAMPLES, infer: bool = True) -> tuple[float, float, tuple[int, ...]] | None:
    """One decision's (share, variance, support) at the screen's precision, None when the decision is not analysed (one
    candidate, or a move beside the turn's choice). `infer`: as domain.fairplay.world_rank's."""
    true_rows = perfect_information_decision(spec, state, seat, move, seed, ordinal, samples, glance=True)
    if true_rows is None:
        return None
    return world_rank(spec, setup, seat, seen, move, seed, ordinal, worlds, samples, true_rows, glance=True,
                      infer=infer)
