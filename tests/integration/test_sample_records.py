"""The sample records (arbiter's own in tests/records, every game; an independent implementation's in ../shared/records when
beside the checkout): `arbiter replay --json` must match their verdicts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import RECORDS as HERE, sample_records, shared

SAMPLES = sample_records()


def normalised(verdict: dict) -> dict:
    """Hands in any order and the free-text reason are not part of the comparison (records/README)."""
    v = json.loads(json.dumps(verdict))
    if v.get("illegal"):
        v["illegal"].pop("reason", None)
    for seat, hand in ((v.get("final") or {}).get("hands") or {}).items():
        v["final"]["hands"][seat] = sorted(hand)
    return v


def test_every_sample_verdict_matches_field_for_field_in_one_process(arbiter_bin):
    """Contract §2: several records in one call print one JSON line each, in order, equal to the expected verdicts."""
    out = subprocess.run([arbiter_bin, "replay", *map(str, SAMPLES), "--json"], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    assert len(lines) == len(SAMPLES), out.stderr
    for path, line in zip(SAMPLES, lines):
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        assert normalised(json.loads(line)) == normalised(expected), path.name
    illegal = any(json.loads(l)["status"] == "illegal" for l in lines)
    assert out.returncode == (1 if illegal else 0)


def test_the_vendored_check_script_passes(arbiter_bin):
    """The `check` script shipped with the samples agrees (the copy kept in tests/records)."""
    out = subprocess.run([sys.executable, str(HERE / "check"), arbiter_bin], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{len(SAMPLES)} passed, 0 failed" in out.stdout


def test_the_shared_check_script_passes(arbiter_bin):
    """../shared/records/check, the current samples of the contract's owners, passes against this build."""
    out = subprocess.run([sys.executable, str(shared("records", "check")), arbiter_bin], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ", 0 failed" in out.stdout
