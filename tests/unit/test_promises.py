"""The log's promises (service.evidence.promises): a C2SP signed note read strictly, and held against the stored lines
and the published checkpoints: kept when a checkpoint published by its time covers it, pending before that time,
broken after it (late, or never covered)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.errors import BadInput
from service.evidence import promises
from service.evidence.published_heads import Published
from service.evidence.signed_notes import Signer
from service.evidence.tree_heads import TreeHead

GAME = "0f8e6a52-1111-4222-8333-444455556666"
AT = datetime(2026, 1, 2, 12, 0, 0, tzinfo=timezone.utc)
SIGNER = Signer("arbiter.invalid/test", Ed25519PrivateKey.generate())


def line(game: str = GAME, version: int = 12, attempts: int = 0) -> bytes:
    return json.dumps({"game": game, "version": version, "attempts": attempts}).encode()


def head(size: int, seconds: float) -> Published:
    return Published(size, "note", (AT + timedelta(seconds=seconds)).isoformat())


def promise(version: int = 12, attempts: int = 0):
    return promises.read(promises.issue(SIGNER, GAME, version, attempts, 10, AT), SIGNER.verifier)


def test_a_promise_reads_back_what_it_promised_and_is_no_checkpoint():
    p = promise(12, 3)
    assert (p.game, p.version, p.attempts, p.acknowledged, p.by) == (GAME, 12, 3, AT, AT + timedelta(seconds=10))
    text = p.note.split("\n\n")[0] + "\n"
    with pytest.raises(ValueError):
        TreeHead.parse(text)  # its second line is no tree size: never taken for a checkpoint


def test_a_promise_is_kept_by_a_later_line_of_the_game_published_in_time():
    lines = [line(GAME, 5), line("another", 40), line(GAME, 14, 1)]
    done = promises.held(promise(12, 1), lines, [head(2, 1), head(3, 4)], now=AT + timedelta(seconds=60))
    assert done["status"] == "kept" and done["line"] == 3, done


def test_a_promise_is_pending_before_its_time_and_broken_after_it_when_nothing_covers_it():
    lines = [line(GAME, 10)]
    assert promises.held(promise(12), lines, [head(1, 1)], now=AT + timedelta(seconds=5))["status"] == "pending"
    done = promises.held(promise(12), lines, [head(1, 1)], now=AT + timedelta(seconds=11))
    assert done["status"] == "broken" and "no line of the log covers it" in done["detail"], done
    assert f"game {GAME} at version 12" in done["detail"] and "2026-01-02T12:00:10" in done["detail"]


def test_a_promise_covered_only_by_a_checkpoint_published_late_is_broken_naming_how_late():
    done = promises.held(promise(12), [line(GAME, 12)], [head(1, 13.5)], now=AT + timedelta(seconds=60))
    assert done["status"] == "broken" and "3.5 s late" in done["detail"], done


def test_refused_attempts_must_be_covered_too():
    done = promises.held(promise(12, 2), [line(GAME, 12, 1)], [head(1, 1)], now=AT + timedelta(seconds=60))
    assert done["status"] == "broken" and "with 2 refused attempt(s)" in done["detail"], done


def test_a_forged_or_foreign_promise_is_refused_naming_why():
    note = promises.issue(SIGNER, GAME, 12, 0, 10, AT)
    with pytest.raises(promises.ForgedPromise, match="does not verify"):
        promises.read(note.replace("version 12", "version 13"), SIGNER.verifier)
    other = Signer("arbiter.invalid/other", Ed25519PrivateKey.generate())
    with pytest.raises(promises.ForgedPromise, match="this log is"):
        promises.read(note, other.verifier)


@pytest.mark.parametrize("note, words", [
    (42, "a signed note"),
    ("no signature\n", "promise:"),
    (SIGNER.sign("arbiter.invalid/test\n12\nroot\n"), "not an arbiter.promise/1 note"),
    (SIGNER.sign("o\narbiter.promise/1\ngame x\nversion 1\nattempts 0\nacknowledged a\nin-log-by b\n"), "game id"),
    (SIGNER.sign("o\narbiter.promise/1\nversion 1\ngame x\nattempts 0\nacknowledged a\nin-log-by b\n"), "'game ...'"),
])
def test_a_malformed_promise_is_bad_input_naming_the_promise(note, words):
    with pytest.raises(BadInput) as e:
        promises.read(note)
    assert e.value.field == "promise" and words in e.value.detail


def test_the_mmd_is_read_from_the_environment_and_bounded(monkeypatch):
    assert promises.mmd_seconds() == 10
    monkeypatch.setenv("ARBITER_LOG_MMD", "0")
    with pytest.raises(BadInput, match="ARBITER_LOG_MMD '0'"):
        promises.mmd_seconds()
