"""The published tree held against a log that lost lines (service.evidence.log_audit with the lines' own check): a
line deleted or altered that the next line names is replaced by the hash it names, so every later line is still held
against the published root; a line nothing names leaves a hole, and each published tree over it is said to be beyond
recomputing. Pure: an in-memory log, a key and a published checkpoint made here."""

from __future__ import annotations

import json

from service.evidence import merkle
from service.evidence.checkpoints import CheckpointLog, MemoryStorage
from service.evidence.keys import ServerKey, canonical
from service.evidence.log_audit import audit
from service.evidence.lost_lines import lost, with_cut
from service.evidence.published_heads import Published
from service.evidence.tree_heads import TreeHead

HEAD = "ab" * 32
ORIGIN = "arbiter.invalid/test"


def _log(key: ServerKey) -> tuple[list[bytes], list[Published]]:
    log = CheckpointLog(MemoryStorage(), lambda: key, lambda: key)
    for game, version in [("a", 1), ("b", 1), ("a", 10), ("c", 1), ("b", 10), ("a", 20), ("c", 10)]:
        log.append(game, version, HEAD, "every", (0, ""))
    lines = log.storage.read().splitlines()
    hashes = merkle.MemoryHashes()
    for raw in lines:
        hashes.append_leaf(raw)
    note = key.note_signer(ORIGIN).sign(TreeHead(ORIGIN, len(lines), merkle.tree_hash(len(lines), hashes.read)).text)
    return lines, [Published(len(lines), note, "2026-01-01T00:00:00+00:00")]


def _checked(key: ServerKey, lines: list[bytes]):
    storage = MemoryStorage()
    storage._data += b"".join(raw + b"\n" for raw in lines)
    return lines, CheckpointLog(storage, lambda: key, lambda: key).report()


def test_a_deleted_line_named_by_the_next_is_rejoined_with_the_published_root():
    key = ServerKey.generate()
    lines, heads = _log(key)
    lines, report = _checked(key, lines[:2] + lines[3:])

    done = audit(lines, heads, key.raw, ORIGIN, report=report)

    assert done.findings == [] and done.leaves == 7
    assert any("holds the stored lines, with the hash of each line that is gone" in n for n in done.notes), done.notes


def test_an_altered_line_named_by_the_next_is_rejoined_and_no_leaf_is_said_rewritten():
    key = ServerKey.generate()
    lines, heads = _log(key)
    lines[3] = canonical({**json.loads(lines[3]), "version": 2})
    lines, report = _checked(key, lines)

    done = audit(lines, heads, key.raw, ORIGIN, report=report)

    assert done.findings == [], done.findings
    assert report.gone[0]["why"] == "altered" and report.gone[0]["game"] == "c"


def test_two_lines_deleted_leave_a_hole_no_published_tree_over_it_can_be_recomputed():
    key = ServerKey.generate()
    lines, heads = _log(key)
    lines, report = _checked(key, lines[:2] + lines[4:])

    done = audit(lines, heads, key.raw, ORIGIN, report=report)

    assert done.ok is False
    assert done.findings == [("published checkpoint 1 (2026-01-01T00:00:00+00:00) (tree size 7) cannot be recomputed "
                              "from the stored lines: line 3 is gone and no line after it names its hash (the lines "
                              "after it are held by their own signatures only)")]


def test_a_cut_below_the_published_size_names_the_games_past_their_last_line_left():
    key = ServerKey.generate()
    lines, _ = _log(key)
    _, report = _checked(key, lines[:4])  # a 1, b 1, a 10, c 1 left; b 10, a 20, c 10 cut

    cut = with_cut(report, (7, "2026-01-01T00:00:00+00:00"))

    assert not cut.ok and cut.gone[-1]["first"] == 5 and cut.gone[-1]["last"] == 7 and cut.gone[-1]["why"] == "cut"
    assert lost(cut, "a", cut.latest["a"], 20) == [
        ("no line left signs its versions 11 to 20, and the checkpoint log lost lines 5 to 7 (cut), which nothing left "
         "names: its line(s) may have been among them")]
    assert lost(cut, "a", cut.latest["a"], 10) == [], "a game whose store its last line left signs lost nothing"
    assert with_cut(report, (4, "2026-01-01T00:00:00+00:00")) is report
