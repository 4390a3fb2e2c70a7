"""The checkpoint line formats: /3 names the line before it (its game, version and leaf hash), /2 signs the refused
attempts (how many, their head) beside the game's head, /1 and /2 lines of older logs still check, and none passes
with another's fields; lines deleted or altered are named by the line after them, and the lines after them still
read; the public key a verifier is given on the
command line (hex or a PEM file). Pure: an in-memory log, keys made here."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives import serialization

from service.evidence.checkpoints import (
    FORMAT,
    FORMAT_V1,
    FORMAT_V2,
    CheckpointLog,
    MemoryStorage,
    leaf_hex,
    line_hash,
)
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


def test_a_log_of_format_1_lines_still_verifies_and_goes_on_in_format_3():
    key = ServerKey.generate()
    storage = _raw_line(key, {"format": FORMAT_V1, "seq": 1, "prev": "", "game": "g", "version": 3, "head": HEAD,
                              "at": "2025-05-01T12:00:00.000000+00:00", "reason": "created"})
    log = _log(key, storage)
    log.append("g", 10, HEAD, "every", (0, ""))
    report = log.report()
    assert report.ok and report.lines == 2, report
    lines = [json.loads(line) for line in storage.read().splitlines()]
    assert [line["format"] for line in lines] == [FORMAT_V1, FORMAT]
    assert lines[1]["prev"] == leaf_hex(storage.read().splitlines()[0])
    assert (lines[1]["prev_game"], lines[1]["prev_version"]) == ("g", 3)


def test_a_format_2_line_follows_by_the_sha256_of_the_line_before_it():
    key = ServerKey.generate()
    log = _log(key)
    log.append("g", 1, HEAD, "created", (0, ""))
    first = log.storage.read().splitlines()[0]
    doc = {"format": FORMAT_V2, "seq": 2, "prev": line_hash(first), "game": "h", "version": 2, "head": HEAD,
           "attempts": 0, "attempts_head": "", "at": "2025-05-01T12:00:00.000000+00:00", "reason": "every"}
    log.storage.append(lambda last: canonical(key.sign(doc)))
    assert log.report().ok, log.report()
    log.storage.append(lambda last: canonical(key.sign({**doc, "seq": 3, "prev": leaf_hex(last)})))
    assert log.report().broken_at == 3, "a format 2 line's prev is the SHA-256 of the line, not its leaf hash"


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
    assert not report.ok and f"its format must be one of {FORMAT_V1}, {FORMAT_V2}, {FORMAT}" in report.problem


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


# ------------------------------------------------------------------------------------------------ lines gone


def _played(key: ServerKey, games: list[tuple[str, int]]) -> tuple[CheckpointLog, list[bytes]]:
    log = _log(key)
    for game, version in games:
        log.append(game, version, HEAD, "every", (0, ""))
    return log, log.storage.read().splitlines()


def _rewritten(key: ServerKey, lines: list[bytes]) -> CheckpointLog:
    storage = MemoryStorage()
    storage._data += b"".join(line + b"\n" for line in lines)
    return _log(key, storage)


GAMES = [("a", 1), ("b", 1), ("a", 10), ("c", 1), ("b", 10), ("a", 20)]


def test_a_line_deleted_mid_log_is_named_by_the_next_line_and_the_later_lines_are_still_read():
    key = ServerKey.generate()
    _, lines = _played(key, GAMES)
    gone = lines.pop(2)  # line 3: a at version 10

    report = _rewritten(key, lines).report()

    assert not report.ok and report.broken_at == 3 and "a line was removed" in report.problem
    assert report.gone == [{"first": 3, "last": 3, "why": "deleted", "game": "a", "version": 10, "leaf": leaf_hex(gone),
                            "named_by": 4}]
    assert not report.stopped and report.lines == 6
    assert {g: d["version"] for g, d in report.latest.items()} == {"a": 20, "b": 10, "c": 1}, "later lines still read"


def test_a_line_altered_mid_log_is_named_by_the_next_line_with_its_hash_as_signed():
    key = ServerKey.generate()
    _, lines = _played(key, GAMES)
    original = lines[3]
    doc = json.loads(lines[3])
    lines[3] = canonical({**doc, "version": 99})  # the signature no longer holds

    report = _rewritten(key, lines).report()

    assert report.broken_at == 4 and "bad signature" in report.problem
    assert report.gone == [{"first": 4, "last": 4, "why": "altered", "game": "c", "version": 1,
                            "leaf": leaf_hex(original), "named_by": 5}]
    assert report.latest["a"]["version"] == 20 and "c" not in report.latest


def test_several_lines_deleted_name_the_last_of_them_and_the_last_line_of_the_log_altered_names_none():
    key = ServerKey.generate()
    _, lines = _played(key, GAMES)
    del lines[1:3]  # lines 2 and 3
    lines[-1] = lines[-1][:30]  # line 6 cut short

    report = _rewritten(key, lines).report()

    assert [(g["first"], g["last"], g["why"], g["game"], g["version"]) for g in report.gone] == [
        (2, 3, "deleted", "a", 10), (6, 6, "altered", None, None)]


def test_lines_moved_stop_the_check_where_the_order_breaks_and_nothing_after_is_read():
    key = ServerKey.generate()
    _, lines = _played(key, GAMES)
    lines.insert(1, lines.pop(4))  # line 5 moved up to be the second

    report = _rewritten(key, lines).report()

    assert report.stopped and report.broken_at == 2 and "a line was removed, inserted or moved" in report.problem
    assert report.gone == [] and set(report.latest) == {"a"}


def test_a_line_that_names_another_line_before_it_than_the_one_there_stops_the_check():
    key = ServerKey.generate()
    _, lines = _played(key, GAMES[:2])
    doc = json.loads(lines[1])
    lines[1] = canonical(key.sign({k: v for k, v in {**doc, "prev_version": 7}.items() if k not in ("key", "signature")}))

    report = _rewritten(key, lines).report()

    assert report.stopped and report.broken_at == 2 and "names line 1 as game a at version 7" in report.problem


def test_a_first_line_that_names_a_line_before_it_is_refused():
    key = ServerKey.generate()
    _, lines = _played(key, GAMES[:2])
    doc = json.loads(lines[0])
    lines[0] = canonical(key.sign({k: v for k, v in {**doc, "prev_game": "z"}.items() if k not in ("key", "signature")}))

    report = _rewritten(key, lines).report()

    assert report.stopped and report.broken_at == 1 and "is the first line but names a line before it" in report.problem
