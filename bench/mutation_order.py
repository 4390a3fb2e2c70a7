"""A pytest plugin for the runs of bench/mutation.py: only the game's tests, each mutant's tests fastest first.

bench/mutation.py hands mutmut one fixed test selection, `tests/unit`, for every game and every run, and names the
game's test files in ARBITER_MUTATION_TESTS (comma-separated file names): every other test file is left
uncollected here. mutmut keeps its results only while its test selection stays the same, so a test file added to
a game after a measurement is found by `--recheck` without throwing the earlier results away.

mutmut runs, for a mutant, the tests that reached the mutated function, stopping at the first failure (-x), in no
particular order; the durations it measured in its first full run (mutants/mutmut-stats.json) put the quick
clause tests before the long random-game properties, so a killed mutant usually costs a fraction of a second.

Each test also gets a CPU-time limit of its own: TIMEOUT_FACTOR times the CPU it took in that first run, plus
TIMEOUT_SECONDS. A test past it fails (TestTimedOut), which kills the mutant as mutmut's timeout would. mutmut's own
limit is the sum of every test's duration that reaches a function, times 30. For El Royale's `replay_fast._battle_end`,
reached by the slow properties, that came to 7,080 CPU seconds. Mutant 51 looped forever in a clause test that takes
0.1 s, and held the run's only worker for 26 minutes before it was seen (2026-11-29).
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

TIMEOUT_FACTOR = 10
TIMEOUT_SECONDS = 5.0


class TestTimedOut(BaseException):
    """A test ran past its CPU-time limit (a BaseException: a test's own `except Exception` cannot swallow it)."""


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    wanted = os.environ.get("ARBITER_MUTATION_TESTS")
    if not wanted or collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    return True if collection_path.name not in wanted.split(",") else None


def pytest_collection_modifyitems(session, config, items) -> None:
    try:
        durations = json.loads(Path("mutmut-stats.json").read_text())["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return  # mutmut's first run, which measures the durations
    items.sort(key=lambda item: durations.get(item.nodeid, float("inf")))
    for item in items:
        if item.nodeid in durations:
            item.stash[LIMIT] = TIMEOUT_FACTOR * durations[item.nodeid] + TIMEOUT_SECONDS


LIMIT = pytest.StashKey[float]()


def _out_of_time(signum, frame) -> None:
    raise TestTimedOut("past this test's CPU-time limit under this mutant (bench/mutation_order.py)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    limit = item.stash.get(LIMIT, None)
    if limit is None:
        yield
        return
    before = signal.signal(signal.SIGPROF, _out_of_time)
    signal.setitimer(signal.ITIMER_PROF, limit)  # the process's CPU time, whatever the machine's load
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)
