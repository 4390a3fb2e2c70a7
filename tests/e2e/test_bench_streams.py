"""`python -m bench.streams --quick`: 200 subscribers over 20 games while 4 clients play, through the real server;
the run fails unless every subscriber received exactly its event log (order, redaction, resumes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_stream_benchmark_delivers_every_entry_to_every_subscriber():
    if not (ROOT / ".venv" / "bin" / "arbiter").exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    done = subprocess.run([sys.executable, "-m", "bench.streams", "--quick", "--no-postgres", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    (run,) = json.loads(done.stdout)["runs"]
    assert run["connected"] == run["subscribers"] == 200
    assert run["exact"] == 200 and run["deliberate_drops"] == 20 and run["moves"] > 0
    assert run["health_answered"] == run["health_probes"]
