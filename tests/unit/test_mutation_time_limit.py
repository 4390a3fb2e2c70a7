"""bench/mutation_order.py's per-test CPU-time limit: under a mutant, a test that loops past TIMEOUT_FACTOR times its
measured duration fails (and so kills the mutant), while one within it passes. Run with pytest's own `pytester`."""

from __future__ import annotations

import json

pytest_plugins = ["pytester"]

LOOPS = """
import time

def test_quick():
    assert True

def spin(seconds=3.0):  # "forever" for a test measured at 0.01 s; bounded, so that a missing limit fails, not hangs
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_loops_forever():
    spin()

def test_swallows_exceptions():
    try:
        spin()
    except Exception:
        pass
"""


def test_a_test_past_its_cpu_limit_fails_and_one_within_it_passes(pytester, monkeypatch):
    import bench.mutation_order as order

    monkeypatch.setattr(order, "TIMEOUT_SECONDS", 0.3)
    pytester.makepyfile(test_loops=LOOPS)
    durations = {f"test_loops.py::{name}": 0.01 for name in ("test_quick", "test_loops_forever",
                                                             "test_swallows_exceptions")}
    (pytester.path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": durations}))
    result = pytester.runpytest_inprocess("-p", "bench.mutation_order")
    result.assert_outcomes(passed=1, failed=2)
    assert "TestTimedOut" in result.stdout.str()


def test_without_mutmut_s_durations_no_limit_is_set(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    result = pytester.runpytest_inprocess("-p", "bench.mutation_order")
    result.assert_outcomes(passed=1)
