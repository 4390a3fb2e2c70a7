"""The checkpoint line formats: /2 signs the refused attempts (how many, their head) beside the game's head, /1 lines
of older logs still check, and neither passes with the other's fields; the public key a verifier is given on the
command line (hex or a PEM file). Pure: an in-memory log, keys made here."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives import serialization

from service.evidence.checkpoints import FORMAT, FORMAT_V1, CheckpointLog, MemoryStorage, line_hash
from service.evidence.keys import KeyFileError, PublicKey, ServerKey, canonical

HEAD = "ab" * 32


def _log(key: ServerKey, storage: MemoryStorage | None = None) -> CheckpointLog:
    return CheckpointLog(storage or MemoryStorage(), lambda: key, lambda: key)


def _raw_line(key: ServerKey, doc: dict) -> MemoryStorage:
    storage = MemoryStorage()
    storage.append(lambda last: canonical(key.sign(doc)))
    return storage


def test_a_checkpoint_signs_the_refused_attempts_count_and_head():
    key = ServerKey.generate()
    log = _log(key)
    line = log.append("g", 12, HEAD, "refused", (4, "cd" * 32))
    assert line["format"] == FORMAT and line["attempts"] == 4 and line["attempts_head"] == "cd" * 32
    assert log.report().ok


def test_a_checkpoint_given_no_attempts_reads_them_from_the_store():
    key = ServerKey.generate()
    log = CheckpointLog(MemoryStorage(), lambda: key, lambda: key, attempts=lambda game: (2, f"head of {game}"))
    assert log.append("g", 3, HEAD, "every")["attempts"] == 2
    assert log.append_many([("h", 1, HEAD, "import", 0, "")])[0]["attempts"] == 0


def test_a_log_of_format_1_lines_still_verifies_and_goes_on_in_format_2():
    key = ServerKey.generate()
    storage = _raw_line(key, {"format": FORMAT_V1, "seq": 1, "prev": "", "game": "g", "version": 3, "head": HEAD,
                              "at": "2025-05-01T12:00:00.000000+00:00", "reason": "created"})
    log = _log(key, storage)
    log.append("g", 10, HEAD, "every", (0, ""))
    report = log.report()
    assert report.ok and report.lines == 2, report
    lines = [json.loads(line) for line in storage.read().splitlines()]
    assert [line["format"] for line in lines] == [FORMAT_V1, FORMAT]
    assert lines[1]["prev"] == line_hash(storage.read().splitlines()[0])


V1_LINE = {"format": FORMAT_V1, "seq": 1, "prev": "", "game": "g", "version": 3, "head": HEAD,
           "at": "2025-05-01T12:00:00.000000+00:00", "reason": "every"}


@pytest.mark.parametrize("doc", [{**V1_LINE, "format": FORMAT, "attempts": 1},  # /2 without attempts_head
                                 {**V1_LINE, "attempts": 1, "attempts_head": HEAD}],  # /1 with the attempts of /2
                         ids=["format 2 without its attempts head", "format 1 with attempts"])
def test_a_line_with_the_other_format_s_fields_is_not_a_checkpoint(doc):
    key = ServerKey.generate()
    report = _log(key, _raw_line(key, doc)).report()
    assert not report.ok and "is not a checkpoint (expected exactly the fields" in report.problem


def test_a_line_of_an_unknown_format_is_not_a_checkpoint():
    key = ServerKey.generate()
    doc = {"format": "arbiter.receipt/1", "game": "g", "version": 3, "head": HEAD, "at": "x"}
    report = _log(key, _raw_line(key, doc)).report()
    assert not report.ok and f"its format must be {FORMAT} or {FORMAT_V1}" in report.problem


def test_a_public_key_is_given_as_hex_or_as_a_pem_file(tmp_path):
    key = ServerKey.generate()
    assert PublicKey.from_text(key.raw.hex()).id == key.id
    assert PublicKey.from_text(key.raw.hex().upper()).id == key.id
    pem = tmp_path / "public.pem"
    pem.write_text(key.describe()["pem"])
    assert PublicKey.from_text(str(pem)).id == key.id


def test_a_public_key_that_is_neither_is_refused_naming_what_was_expected(tmp_path):
    with pytest.raises(KeyFileError, match="64 hex digits"):
        PublicKey.from_text("not-a-key")
    private = tmp_path / "private.pem"
    private.write_bytes(ServerKey.generate()._private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with pytest.raises(KeyFileError, match="not a PEM public key"):
        PublicKey.from_text(str(private))


@pytest.mark.parametrize("line", [b"[" * 1000 + b"]" * 1000, b'{"a": "\xff"}', b'{"seq": ' + b"9" * 5000 + b"}"],
                         ids=["nested 1,000 deep", "invalid UTF-8", "a number of 5,000 digits"])
def test_a_log_line_outside_the_json_bounds_is_reported_not_raised(line):
    """A checkpoint log handed over by someone else (verify --checkpoint-log) is read under the JSON bounds: a line
    nested 1,000 deep used to escape as RecursionError."""
    key = ServerKey.generate()
    storage = MemoryStorage()
    storage.append(lambda last: line)
    report = _log(key, storage).report()
    assert not report.ok and report.problem.startswith("line 1: is not JSON within the bounds")
