"""Shared test helpers: build records from stacked decks and replay them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records"

# A developer's run explores new random games every time (hypothesis prints the blob that reproduces a failure:
# keep it as an @example); CI (.ci/run sets ARBITER_CI=1) explores the same examples on every run, so that a
# landing never depends on luck. HYPOTHESIS_PROFILE chooses explicitly.
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("ARBITER_CI") == "1" else "dev"))


@pytest.fixture
def arbiter_bin() -> str:
    """The installed `arbiter` program of this checkout's venv."""
    exe = ROOT / ".venv" / "bin" / "arbiter"
    if not exe.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    return str(exe)
