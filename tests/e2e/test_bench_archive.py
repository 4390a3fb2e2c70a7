"""`python -m bench.archive --quick`: the archive benchmark runs end to end on a small season (import, verify with one
and with several workers, the service-made store, whole-process replay and python-chess); its own checks (every
imported game verifies clean, the workers' reports equal one process's) fail the run. Nothing here is timed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_archive_benchmark_runs_and_checks_its_results():
    pytest.importorskip("chess", reason="python-chess comes with the bench extra (make bench)")
    if not (ROOT / ".venv" / "bin" / "arbiter").exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    done = subprocess.run([sys.executable, "-m", "bench.archive", "--quick", "--json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["verify"]["games"] == result["archive"]["games"] > 0
    assert result["verify"]["events"] > result["archive"]["moves"]  # every move is at least one stored event
    assert result["verify_service_store"]["detailed"] == 0  # the service's games all take the one-pass check
    assert set(result["targets"]) == {"import", "verify", "replay"}
