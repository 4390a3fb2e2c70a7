"""Shared test helpers: build records from stacked decks and replay them."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import Phase, settings

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records"

# A developer's run explores new random games every time (hypothesis prints the blob that reproduces a failure:
# keep it as an @example); CI (.ci/run sets ARBITER_CI=1) explores the same examples on every run, so that a
# landing never depends on luck. HYPOTHESIS_PROFILE chooses explicitly.
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.register_profile("dev", deadline=None, print_blob=True)
# mutation testing (bench/mutation.py): the same examples as CI, and a failing example is not shrunk (a mutant is
# killed by the first failure; shrinking would only spend its time)
settings.register_profile("mutation", deadline=None, derandomize=True, database=None,
                          phases=(Phase.explicit, Phase.reuse, Phase.generate))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("ARBITER_CI") == "1" else "dev"))

# A PostgreSQL store keeps its signing key and checkpoint log in ARBITER_STATE_DIR (docs/evidence.md): the tests'
# schemas keep theirs in a temporary directory, not in the home directory (servers started by tests inherit it).
if "ARBITER_STATE_DIR" not in os.environ:
    os.environ["ARBITER_STATE_DIR"] = tempfile.mkdtemp(prefix="arbiter-test-state-")
    atexit.register(shutil.rmtree, os.environ["ARBITER_STATE_DIR"], ignore_errors=True)


@pytest.fixture
def arbiter_bin() -> str:
    """The installed `arbiter` program of this checkout's venv."""
    exe = ROOT / ".venv" / "bin" / "arbiter"
    if not exe.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    return str(exe)
