"""A pytest plugin for the runs of bench/mutation.py: each mutant's tests run fastest first.

mutmut runs, for a mutant, the tests that reached the mutated function, stopping at the first failure (-x), in no
particular order; the durations it measured in its first full run (mutants/mutmut-stats.json) put the quick
clause tests before the long random-game properties, so a killed mutant usually costs a fraction of a second.
"""

from __future__ import annotations

import json
from pathlib import Path


def pytest_collection_modifyitems(session, config, items) -> None:
    try:
        durations = json.loads(Path("mutmut-stats.json").read_text())["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return  # mutmut's first run, which measures the durations
    items.sort(key=lambda item: durations.get(item.nodeid, float("inf")))
