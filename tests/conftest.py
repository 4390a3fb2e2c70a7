"""Shared test helpers: build records from stacked decks and replay them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records"

# CI explores the same examples on every run (a landing never depends on luck); `HYPOTHESIS_PROFILE=dev` explores anew.
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def arbiter_bin() -> str:
    """The installed `arbiter` program of this checkout's venv."""
    exe = ROOT / ".venv" / "bin" / "arbiter"
    if not exe.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    return str(exe)
