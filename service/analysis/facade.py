"""Computer analysis of a finished game for one seat (issue 27 part 2, docs/analysis.md): the CLI's and the HTTP
job's one road.

`plan(record, seat)` takes the seat's knowledge out of the record (projections.knowledge: the only place that reads
the whole game, and it keeps only what the seat saw); `analyse(plan, ...)` judges each decision with
domain.analysis, spread over worker processes, and yields one line per analysed decision, in game order. Each line is
a pure function of the seat's knowledge up to that decision, the move it made, the seed and the sample cap: nothing
the seat did not see reaches the engine.
"""

from __future__ import annotations

from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from domain.analysis import NotAnalysable, analyse_decision, analysis_of
from domain.games import spec_for
from domain.records import Record
from projections.knowledge import Decision, seat_knowledge

from service.jobs.pool import default_workers, in_order

DEFAULT_SAMPLES = 1000  # the cap on samples a move; the engine stops sooner once the interval is narrow enough
MAX_SAMPLES = 20000

__all__ = ["NotAnalysable", "Plan", "plan", "analyse", "default_workers", "DEFAULT_SAMPLES", "MAX_SAMPLES"]


@dataclass(frozen=True)
class Plan:
    """What to analyse: the game, its public set-up, the seat, what it saw and its decisions."""

    game: str
    setup: Any
    seat: int
    seen: list[dict]
    decisions: list[Decision]
    versions: list[int] | None = None  # the store's version of each move of the game, when it comes from the store


def plan(record: Record, seat: int, versions: list[int] | None = None) -> Plan:
    """The seat's analysis plan; raises NotAnalysable for a game without analysis or a seat the game lacks."""
    spec = spec_for(record.game)
    analysis_of(spec)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < record.setup.n:
        raise NotAnalysable(f"seat {seat!r}: this game has seats 0..{record.setup.n - 1}")
    seen, decisions = seat_knowledge(record, seat)
    return Plan(record.game, record.setup, seat, seen, decisions, versions)


def _one(args: tuple) -> dict | None:
    game, setup, seat, seen, move, seed, ordinal, samples = args
    return analyse_decision(spec_for(game), setup, seat, seen, move, seed, ordinal, samples)


def analyse(p: Plan, seed: str = "0", samples: int = DEFAULT_SAMPLES, workers: int = 1,
            progress: Callable[[int, int], None] | None = None, executor: Executor | None = None) -> Iterator[dict]:
    """One line per analysed decision, in order (decisions with a single candidate are skipped); `progress(done,
    total)` after each decision, skipped ones included. `executor`: a pool the caller owns and keeps (the HTTP jobs'
    shared pool, service.analysis.jobs), used instead of `workers` processes of this call's own."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise NotAnalysable(f"samples: {samples} is not in 1..{MAX_SAMPLES}")
    tasks = [(p.game, p.setup, p.seat, p.seen[:x.index], x.move, seed, k, samples) for k, x in enumerate(p.decisions)]
    total = len(tasks)
    if executor is not None:
        pool, results = None, in_order(executor, _one, tasks)
    elif workers > 1 and total > 1:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(_one, tasks, chunksize=1)
    else:
        pool, results = None, map(_one, tasks)
    try:
        for k, (x, result) in enumerate(zip(p.decisions, results)):
            if progress is not None:
                progress(k + 1, total)
            if result is None:
                continue
            line = {"decision": k, "move_index": x.move_index, "seat": p.seat}
            if p.versions is not None:
                line["version"] = p.versions[x.move_index]
            line.update(result)
            yield line
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
