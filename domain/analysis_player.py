"""The analysis as a player (bench.strength, docs/analysis.md "Strength"). Pure, no I/O.

`best_move` plays the candidate with the best mean value, as the analysis names it best. With a handful of samples
a candidate that is partly the luckiest candidate: among moves the samples cannot tell apart, the highest mean is
noise, and the cheap rollout players behind the values are weaker than the game's heuristic bot.

`guarded_move` is the analysis used as a check on another player's move (the prior: in bench.strength the heuristic
bot's): it keeps the prior unless the samples show, 95% sure, that the best candidate does better than it (the
one-sided bound on the paired differences, the same pairing and bound as the stopping rule's indifference zone and
the marks). How sure is the game's own choice (its spec's `analysis.guard`): where plain sampling already plays
better than the bot, a better mean is enough. The analysis then changes a strong player's move only where it has
evidence, and costs nothing where it has none. Both read only the seat's knowledge, as `evaluate` does, so neither
can depend on a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .analysis import analysis_of, best_index, evaluate, paired_upper_bound, same_move
from .spec import GameSpec


def best_move(spec: GameSpec, setup: Any, seat: int, seen: list[dict], seed: str, ordinal: int, samples: int,
              infer: bool = True, stop: Callable[[], bool] | None = None, min_samples: int = 2,
              batch_size: int = 1) -> dict | None:
    """The candidate with the best mean value (the first listed among equals), or None when the decision is not
    analysed (the caller plays it some other way). Arguments as `domain.analysis.evaluate`."""
    out = evaluate(spec, setup, seat, seen, seed, ordinal, samples, None, infer, stop, min_samples, batch_size)
    if out is None:
        return None
    moves, stats, _ = out
    return moves[best_index(stats)]


def guarded_move(spec: GameSpec, setup: Any, seat: int, seen: list[dict], seed: str, ordinal: int, samples: int,
                 prior: dict, infer: bool = True, stop: Callable[[], bool] | None = None, min_samples: int = 2,
                 batch_size: int = 1, z: float | None = None) -> dict | None:
    """`prior` (a legal move of the seat, in the decider's form) unless the best-mean candidate is better than it
    on the paired samples by a one-sided bound of `z` standard errors (1.645: 95% sure; 0: a better mean is enough,
    the prior winning only ties; None: the game's own, its spec's `analysis.guard`); None when the decision is not
    analysed. The prior is always among the candidates compared (`evaluate`'s `chosen`), so it is sampled like any
    of them."""
    z = analysis_of(spec).guard if z is None else z
    out = evaluate(spec, setup, seat, seen, seed, ordinal, samples, prior, infer, stop, min_samples, batch_size)
    if out is None:
        return None
    moves, stats, _ = out
    best = best_index(stats)
    mine = next(i for i, m in enumerate(moves) if same_move(m, prior))
    if best != mine and paired_upper_bound(stats[mine].values, stats[best].values, z) < 0:
        return moves[best]
    return moves[mine]
