"""The checkpoint log's lines checked one by one (service.evidence.checkpoints.CheckpointLog.report), reading on past
lines that are gone.

Each line must be a checkpoint of a known format, in canonical form, signed by the server's key, with the next `seq`
and the `prev` of the line before it. What is wrong is named at the first line it shows, and then:

- a line whose `seq` jumps ahead: the lines in between are **deleted**;
- a line that fails its own check (not JSON, not a checkpoint, not canonical, a bad signature): it is **altered**, and
  counted as the line of the next `seq`;
- either way the next good line cannot be held against the line before it, which is gone; a line of format 3 names
  it instead (`prev_game`, `prev_version`, and `prev`, its leaf hash), so the report says which game and version the
  gone line signed, and the transparency log's audit can still hold every later line against the published tree
  (service.evidence.log_audit); the lines after it are checked as before, and every game's latest line is read on;
- a line whose `seq` goes back, or whose `prev` or `prev_game`/`prev_version` differ from the good line before it:
  lines were inserted, moved or rewritten, the order of what follows cannot be trusted, and the check **stops**
  there (`stopped`: each game's latest line is the one before it, as before).
"""

from __future__ import annotations

import json

from domain import json_limits

from .checkpoint_lines import FIELDS_OF, FORMAT, LogReport, line_hash, prev_of
from .keys import PublicKey, canonical


def check_lines(data: bytes, start: int, so_far: LogReport, key: PublicKey | None) -> LogReport:
    """The report of the log `data` whose first `start` bytes `so_far` reports (0 and an empty report: all of it)."""
    out = LogReport(so_far.ok, so_far.lines, so_far.head, so_far.broken_at, so_far.problem, dict(so_far.latest),
                    [dict(g) for g in so_far.gone], so_far.stopped, so_far.last_line)
    if out.stopped:
        return out
    body = data[start:]
    if body and not body.endswith(b"\n"):
        complete, _, _ = body.rpartition(b"\n")  # a line being written right now is not judged yet
        body = complete + b"\n" if complete else b""
    lost: list[dict] = []  # the run of gone lines the next good line follows
    before = dict(out.latest)  # each game's latest line before the first problem (all that holds if the check stops)
    previous = json.loads(out.last_line) if out.last_line is not None else None  # the last good line, read

    def first(number: int, problem: str) -> None:
        nonlocal before
        if out.broken_at is None:
            before = dict(out.latest)
            out.broken_at, out.problem = number, f"line {number}: {problem}"

    for raw in body.split(b"\n")[:-1] if body else []:
        number = out.lines + 1
        if key is None:
            first(number, "cannot be checked: no signing key (the key file is missing)")
            out.stopped = True
            break
        doc, problem = _own_problem(raw, key)
        if problem:
            first(number, problem)
            _add(lost, number, number, "altered")
            out.lines, out.last_line = number, None
            continue
        seq = doc["seq"]
        if seq < number:  # lines moved, or inserted: what was taken for gone at or after `seq` was not
            first(number, f"has seq {seq}, expected {number} (a line was removed, inserted or moved)")
            out.gone = [g for g in out.gone + lost if g["first"] < seq]
            for g in out.gone:
                if g["last"] >= seq:
                    g.update(last=seq - 1, game=None, version=None, leaf=None, named_by=None)
            lost, out.stopped, out.latest = [], True, dict(before)
            break
        if seq > number:
            first(number, f"has seq {seq}, expected {number} (a line was removed, inserted or moved)")
            _add(lost, number, seq - 1, "deleted")
        if lost:
            if doc["format"] == FORMAT:  # it names the line before it, gone
                lost[-1].update(game=doc["prev_game"], version=doc["prev_version"], leaf=doc["prev"], named_by=seq)
            out.gone.extend(lost)
            lost = []
        elif out.last_line is not None or seq == 1:
            problem = _follows(doc, out.last_line, previous, seq)
            if problem:
                first(seq, problem)
                out.stopped, out.latest = True, dict(before)
                break
        out.latest[doc["game"]] = doc
        out.lines, out.head, out.last_line, previous = seq, line_hash(raw), raw, doc
    out.gone.extend(lost)  # the last lines altered: nothing after them names them
    out.ok = not out.gone and not out.stopped and out.broken_at is None
    return out


def _add(lost: list[dict], first: int, last: int, why: str) -> None:
    if lost and lost[-1]["why"] == why and lost[-1]["last"] == first - 1:
        lost[-1]["last"] = last
    else:
        lost.append({"first": first, "last": last, "why": why, "game": None, "version": None, "leaf": None,
                     "named_by": None})


def _follows(doc: dict, previous: bytes | None, before: dict | None, seq: int) -> str | None:
    """What is wrong with a good line `seq` as the follower of the good line `previous` (read: `before`; None before
    line 1), or None."""
    if previous is None:
        first = doc["prev"] == "" and (doc["format"] != FORMAT or (doc["prev_game"], doc["prev_version"]) == ("", 0))
        return None if first else "is the first line but names a line before it (lines were removed before it)"
    if doc["prev"] != prev_of(doc["format"], previous):
        return (f"does not follow line {seq - 1}: its prev differs from the hash of line {seq - 1} "
                "(that line was edited, or lines were removed or reordered)")
    if doc["format"] == FORMAT:
        if (doc["prev_game"], doc["prev_version"]) != (before["game"], before["version"]):
            return (f"names line {seq - 1} as game {doc['prev_game']} at version {doc['prev_version']}, but line "
                    f"{seq - 1} signs game {before['game']} at version {before['version']}")
    return None


def _own_problem(raw: bytes, key: PublicKey) -> tuple[dict | None, str | None]:
    """(the line's document, None), or (None, what is wrong with the line on its own)."""
    try:
        doc = json_limits.read_document(raw)
    except ValueError as e:  # not JSON, or outside the JSON bounds
        return None, f"is not JSON within the bounds (the line was edited or cut): {e}"
    fields = FIELDS_OF.get(doc.get("format")) if isinstance(doc, dict) else None
    if fields is None:
        return None, f"is not a checkpoint (its format must be one of {', '.join(sorted(FIELDS_OF))})"
    if set(doc) != set(fields):
        return None, f"is not a checkpoint (expected exactly the fields {', '.join(sorted(fields))})"
    for name, kind in fields.items():
        if not isinstance(doc[name], kind) or isinstance(doc[name], bool):
            return None, f"{name} must be {'an integer' if kind is int else 'a string'}"
    if raw != canonical(doc):
        return None, "is not in canonical form (the line was edited)"
    problem = key.signature_problem(doc)
    if problem:
        return None, f"bad signature: {problem}"
    return doc, None

