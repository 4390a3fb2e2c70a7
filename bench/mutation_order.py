"""A pytest plugin for the runs of bench/mutation.py: only the game's tests, each mutant's tests fastest first.

bench/mutation.py hands mutmut one fixed test selection, `tests/unit`, for every game and every run, and names the
game's test files in ARBITER_MUTATION_TESTS (comma-separated file names): every other test file is left
uncollected here. mutmut keeps its results only while its test selection stays the same, so a test file added to
a game after a measurement is found by `--recheck` without throwing the earlier results away.

mutmut runs, for a mutant, the tests that reached the mutated function, stopping at the first failure (-x), in no
particular order; the durations it measured in its first full run (mutants/mutmut-stats.json) put the quick
clause tests before the long random-game properties, so a killed mutant usually costs a fraction of a second.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


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
