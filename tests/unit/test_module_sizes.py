"""A module of api/, service/, projections/, bots/ or domain/ over 300 lines says at its top why it is one room (the
house style: one concept per file; docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 300
LONG = sorted(p for d in ("api", "service", "projections", "bots", "domain") for p in (ROOT / d).rglob("*.py")
              if len(p.read_text(encoding="utf-8").splitlines()) > LIMIT)


@pytest.mark.parametrize("path", LONG, ids=[str(p.relative_to(ROOT)) for p in LONG])
def test_a_long_module_says_why_in_its_docstring(path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "over 300 lines" in docstring.lower(), f"{path.relative_to(ROOT)}: over {LIMIT} lines without saying why"
