"""Computer analysis of one seat's decision, honest about hidden cards (issue 27, docs/analysis.md). Pure, no I/O.

The only input about the game is what the seat may see: the public set-up, the seat's knowledge up to the decision
(`seen`, the form domain/spec.py `Analysis` describes) and the move the seat made. From a seeded stream the game's
sampler builds full states consistent with that knowledge ("determinization"); every candidate move is played from
the same sampled states, and on with the same rollout streams (common random numbers), by the game's cheap rollout
players on the bare decider. Samples come in batches; a move other than the best stops once its 95% interval is
within the game's tolerance, or once it is, 95% sure, not better than the best by the tolerance (a one-sided test on
the paired differences: the indifference zone), or at the sample cap; the best samples on (resuming if it had
stopped) to the tolerance, or to `SETTLED` times it once it alone still samples (`still_moving`). The candidates
of one sample may share a memo (`Analysis.memo`: a rollout reaching a position another reached returns that one's
value; an exact shortcut), and a game may read the knowledge once per decision
(`Analysis.fold`, `Analysis.deal`). Where a game states an opponent model (`Analysis.evidence`), each sample is kept
from several drawn deals with chance proportional to how likely each makes the other seats' public choices
(importance resampling, issue 36), and the line reports the proposals' effective sample size. A move's mark is earned
by what it surely lost, the paired loss's 95% lower bound (domain/marks.py). Nothing here reads a
card the seat did not see, so the answer cannot depend on one: the same knowledge and seed give the same bytes
(tests/unit/test_analysis_hidden.py and test_analysis_stopping.py alter hidden cards and compare). The analysis as a
player (bench.strength) is domain/analysis_player.py.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from typing import Any

from .marks import mark_of, surely_lost
from .randomness import Chance
from .spec import GameSpec

Z95 = 1.959963984540054
Z95_ONE_SIDED = 1.6448536269514722  # "not better than the best by the tolerance": a one-sided test at 5%
BATCH = 16  # samples added to every moving candidate between two checks
MIN_SAMPLES = 32  # no move stops before this many samples
SETTLED = 1.5  # once only the best samples, its interval need be within this many times the tolerance


class NotAnalysable(ValueError):
    """A game (or a request) analysis cannot serve: the message says why."""


def analysis_of(spec: GameSpec):
    """The game's Analysis capability; raises NotAnalysable for a game that declares none."""
    if spec.analysis is None:
        raise NotAnalysable(f"{spec.title} offers no computer analysis (its spec declares no sampler)")
    return spec.analysis


def play_on(a: Any, after: Any, seat: int, rng: random.Random, chance: Chance, before: Any,
            memo: dict | None = None) -> float:
    """The seat's value of one rollout by the game's `Analysis` `a` from `after`, the state a candidate move made
    from `before`: the one way generic code (this module, domain.fairplay) calls a game's `playout`, handing it the
    keywords its spec declares (`memo=` when `Analysis.memo`, `before=` when `Analysis.before`) and no other. `memo`
    is shared by the candidates of one sample (None: a fresh one)."""
    extra: dict = {}
    if a.memo:
        extra["memo"] = {} if memo is None else memo
    if a.before:
        extra["before"] = before
    return a.playout(after, seat, rng, chance, **extra)


def same_move(a: dict, b: dict) -> bool:
    """Whether two moves of one seat are the same move (cards compared as multisets: their order is free)."""
    if a.get("type") != b.get("type"):
        return False
    keys = (set(a) | set(b)) - {"seat", "type"}
    for k in keys:
        x, y = a.get(k), b.get(k)
        if k == "cards":
            x, y = sorted(x or []), sorted(y or [])
        if x != y:
            return False
    return True


def with_played(a: Any, state: Any, seat: int, moves: list[dict], chosen: dict) -> list[dict]:
    """The candidates with the move played among them: as it is when listed; else in place of its group's candidate
    (the game's `key`, equivalent moves); else added at the end."""
    if any(same_move(m, chosen) for m in moves):
        return moves
    played = dict(chosen, seat=seat)
    if a.key is not None:
        group = a.key(state, seat, played)
        if group is not None:
            for i, m in enumerate(moves):
                if a.key(state, seat, m) == group:
                    return moves[:i] + [played] + moves[i + 1:]
    return moves + [played]


class _Stats:
    """Running values of one candidate (each sample's value kept, for the paired comparison with the best)."""

    def __init__(self) -> None:
        self.values: list[float] = []

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)

    def half_width(self) -> float:
        return _half_width(self.values)


def _half_width(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return math.inf
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Z95 * math.sqrt(var / n)


class _Inference:
    """The importance weights of every proposal drawn for one decision (their effective sample size is reported)."""

    def __init__(self, proposals: int) -> None:
        self.per_sample, self.total, self.square, self.count = proposals, 0.0, 0.0, 0

    def add(self, weights: list[float]) -> None:
        self.total += sum(weights)
        self.square += sum(w * w for w in weights)
        self.count += len(weights)

    def report(self) -> dict:
        """`proposals` drawn, their effective sample size (sum w)^2 / sum w^2, and `kept` one of every `per_sample`."""
        ess = self.total * self.total / self.square if self.square > 0 else 0.0
        return {"proposals": self.count, "ess": round(ess, 1), "per_sample": self.per_sample}


def _drawer(a, setup: Any, seat: int, seen: list[dict], base: str, infer: bool):
    """draw(k), the k-th sampled state, and the inference's weights (None: plain sampling).

    Plain: one state from the k-th deal stream. With inference (the game's `evidence`): `a.proposals` states from
    the k-th deal's streams, one of them kept with chance proportional to its evidence weight (a seeded pick), so
    the kept states follow the sampler's distribution reweighted by how likely each makes the others' public
    choices (sampling importance resampling). All of it reads only the folded knowledge."""
    if a.fold is None:
        return (lambda k: a.sample(setup, seat, seen, random.Random(f"{base}|deal|{k}"))), None
    folded = a.fold(setup, seat, seen)
    if not infer or a.evidence is None or not a.analysis_infers:
        return (lambda k: a.deal(folded, random.Random(f"{base}|deal|{k}"))), None
    inference = _Inference(a.proposals)

    def draw(k: int):
        states = [a.deal(folded, random.Random(f"{base}|deal|{k}|{p}")) for p in range(a.proposals)]
        weights = [a.evidence(folded, st) for st in states]
        inference.add(weights)
        return weighed_pick(states, weights, random.Random(f"{base}|pick|{k}").random())
    return draw, inference


def weighed_pick(states: list, weights: list[float], u: float) -> Any:
    """The state that `u` (uniform in [0, 1)) picks with chance proportional to its weight (the first when every
    weight is 0): importance resampling's one pick."""
    total = sum(weights)
    if total <= 0:
        return states[0]
    x = u * total
    for st, w in zip(states, weights):
        x -= w
        if x < 0:
            return st
    return states[-1]


def evaluate(spec: GameSpec, setup: Any, seat: int, seen: list[dict], seed: str, ordinal: int, samples: int = 2000,
             chosen: dict | None = None, infer: bool = True, stop: Callable[[], bool] | None = None,
             min_samples: int = MIN_SAMPLES, batch_size: int = BATCH):
    """The candidates of the seat's decision and their sampled values: (moves, stats, inference report or None), or
    None when the decision is not analysed. `chosen` (the move made, when judging one) is added to the candidates;
    `infer`: weigh the samples by the others' public choices where the game can; `stop()` (optional, e.g. a time
    budget) is asked after each batch of `batch_size` samples once `min_samples` are in, and ends the sampling when it
    says so."""
    a = analysis_of(spec)
    d = spec.decider
    base = f"arbiter-analysis|{seed}|{ordinal}"
    draw, inference = _drawer(a, setup, seat, seen, base, infer)
    first = draw(0)
    moves = a.candidates(first, seat) if a.candidates is not None else None
    if moves is None:
        moves = [m for m in d.legal_moves(first) if m["seat"] == seat]
    if len(moves) < 2:
        return None
    if chosen is not None:
        if not any(m["type"] == chosen["type"] for m in moves):
            return None  # a move beside the turn's choice (a show): nothing to compare it with
        moves = with_played(a, first, seat, moves, chosen)
    stats = [_Stats() for _ in moves]
    active = set(range(len(moves)))
    worlds = [first]  # kept: a candidate that becomes the best resumes, and catches up on the samples it missed
    tol = a.tolerance / a.scale
    j = 0
    while active and j < samples:
        end = min(j + batch_size, samples)
        for k in range(min(stats[i].n for i in active), end):
            while k >= len(worlds):
                worlds.append(draw(len(worlds)))
            chance = Chance(hashlib.sha256(f"{base}|chance|{k}".encode()).hexdigest())
            memo: dict = {}  # the candidates of one sample share the rollouts they reach in the same position
            for i in sorted(active):
                if stats[i].n == k:
                    state = d.step(worlds[k], moves[i], chance)[1]
                    stats[i].values.append(play_on(a, state, seat, random.Random(f"{base}|play|{k}"), chance,
                                                   worlds[k], memo))
        j = end
        if j >= min_samples:
            active = still_moving(stats, active, tol)
            if stop is not None and stop():
                break
    return moves, stats, (inference.report() if inference is not None else None)


def analyse_decision(spec: GameSpec, setup: Any, seat: int, seen: list[dict], chosen: dict, seed: str, ordinal: int,
                     samples: int = 2000, infer: bool = True) -> dict | None:
    """The analysis of the seat's `ordinal`-th decision (its knowledge `seen`, its move `chosen`), or None when the
    decision is not analysed (one candidate, or a game's `candidates` says so). At most `samples` samples a move.
    `infer`: samples weighted by the others' public choices (the game's `evidence`), reported as `inference`."""
    out = evaluate(spec, setup, seat, seen, seed, ordinal, samples, chosen, infer)
    if out is None:
        return None
    moves, stats, inference = out
    report = _report(spec.analysis, spec.codec.format_move, moves, stats, chosen)
    if inference is not None:
        report["inference"] = inference
    return report


def best_index(stats: list[_Stats]) -> int:
    """The candidate with the highest mean value, the first listed among equals: the best, for the stopping rule and
    for the analysis as a player alike."""
    return max(range(len(stats)), key=lambda i: (stats[i].mean, -i))


def still_moving(stats: list[_Stats], active: set[int], tol: float) -> set[int]:
    """The candidates that need more samples (docs/analysis.md "The method"). The best (highest mean) samples on, a
    stopped one resuming when it has become the best, until its interval is within the tolerance `tol`. Another
    candidate stops once its interval is, or once it is, 95% sure, not better than the best by `tol` or more: the
    paired difference's one-sided 95% upper bound is below `tol` (the indifference zone; below 0 is "clearly worse").
    The decision is settled once only the best still samples; the best then stops as soon as its interval is within
    `SETTLED` times the tolerance."""
    best = best_index(stats)
    out = set()
    for i in active | {best}:
        if stats[i].half_width() <= tol:
            continue
        if i != best and paired_upper_bound(stats[i].values, stats[best].values) < tol:
            continue
        out.add(i)
    if out == {best} and stats[best].half_width() <= SETTLED * tol:
        return set()
    return out


def paired_upper_bound(values: list[float], best: list[float], z: float = Z95_ONE_SIDED) -> float:
    """The one-sided upper bound (`z` standard errors; by default 95%) of the mean paired difference values - best,
    over the samples both have."""
    n = min(len(values), len(best))
    diffs = [x - y for x, y in zip(values[:n], best[:n])]
    return sum(diffs) / n + (_half_width(diffs) * (z / Z95) if z else 0.0)


def _points(a, value: float) -> float:
    return round(value * a.scale, 2)


def _report(a, format_move, moves: list[dict], stats: list[_Stats], chosen: dict) -> dict:
    rows = []
    for m, st in zip(moves, stats):
        hw = st.half_width()
        rows.append({"move": {k: v for k, v in format_move(m).items() if k != "seat"}, "value": _points(a, st.mean),
                     "low": _points(a, st.mean - hw), "high": _points(a, st.mean + hw), "samples": st.n})
    order = sorted(range(len(rows)), key=lambda i: (-rows[i]["value"], i))
    played = next(i for i in order if same_move(moves[i], chosen))
    best, mine = rows[order[0]], rows[played]
    loss = round(max(0.0, best["value"] - mine["value"]), 2)
    low = surely_lost(loss, stats[order[0]].values, stats[played].values, a.scale)  # domain/marks.py: the mark's rule
    return {"unit": a.unit, "moves": [rows[i] for i in order], "best": best["move"], "played": mine["move"],
            "eval": best["value"], "played_value": mine["value"], "loss": loss, "loss_low": low,
            "mark": mark_of(a.marks, low)}
