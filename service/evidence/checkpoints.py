"""The checkpoint log: signed (game, version, head, attempts, time) lines, hash-chained, kept apart from the event store.

In the spirit of Certificate Transparency's signed tree heads. One canonical JSON object per line
(docs/evidence.md):

    {"at":"2025-05-01T12:00:00.000000+00:00","attempts":3,"attempts_head":"<chain head of the refused attempts>",
     "format":"arbiter.checkpoint/2","game":"<uuid>","head":"<chain head at version>","key":"<key id>",
     "prev":"<sha256 hex of the previous line>","reason":"created|every|end|import|ruling|refused|receipt","seq":7,
     "signature":"<hex>","version":40}

`attempts` counts the game's refused attempts so far and `attempts_head` is their chain's head after the last of them
(empty while there is none): a line signs both the game's head and its refused attempts' head. Lines of
`arbiter.checkpoint/1` (the same without the two attempts fields), written before, still check.

`seq` counts lines from 1, `prev` is the SHA-256 of the previous line's bytes (empty on line 1),
`signature` signs every other field (service.evidence.keys). Editing, removing, inserting or reordering a line
breaks `seq`, `prev` or a signature; a removed *last* line shows only against a log head kept elsewhere.
Several workers on one machine append to a file under an exclusive `flock`; several hosts of one PostgreSQL store
append to a table (service.evidence.pg_tables) through the same interface (read, exists, append).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from domain import json_limits

from .keys import PublicKey, ServerKey, canonical
from .log_storage import FileStorage, LogShrank, MemoryStorage  # noqa: F401  (the log's storages, also imported from here)

FORMAT = "arbiter.checkpoint/2"
FORMAT_V1 = "arbiter.checkpoint/1"
FIELDS_V1 = {"format": str, "seq": int, "prev": str, "game": str, "version": int, "head": str, "at": str, "reason": str,
             "key": str, "signature": str}
FIELDS = {**FIELDS_V1, "attempts": int, "attempts_head": str}
FIELDS_OF = {FORMAT: FIELDS, FORMAT_V1: FIELDS_V1}
REASONS = ("created", "every", "end", "import", "ruling", "refused", "receipt", "mmd")
NO_ATTEMPTS = (0, "")  # (count, head) of a game nobody made a refused attempt at
log = logging.getLogger("arbiter.evidence")


def line_hash(line: bytes) -> str:
    """The SHA-256 (hex) of one line's bytes, without its newline: the next line's `prev`."""
    return hashlib.sha256(line).hexdigest()


def now() -> str:
    """The current time, UTC, ISO 8601 with microseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


@dataclass
class LogReport:
    """The log checked: ok, or the first bad line and why; each game's latest checkpoint in the good lines before it."""

    ok: bool
    lines: int
    head: str
    broken_at: int | None = None
    problem: str | None = None
    latest: dict[str, dict] = field(default_factory=dict)
    covered: dict[str, tuple[int, int]] | None = None  # what the latest published checkpoint signs (Evidence.coverage_report)
    promised_since: str | None = None  # the time of the log's first `mmd` line: promises were handed out from then on

    def as_dict(self) -> dict:
        return {"ok": self.ok, "lines": self.lines, "head": self.head, "broken_at": self.broken_at, "problem": self.problem}


class CheckpointLog:
    """Appends signed checkpoints and checks the log (incrementally: lines already checked are not checked again)."""

    def __init__(self, storage, key: Callable[[], ServerKey], verifying_key: Callable[[], PublicKey | None],
                 attempts: Callable[[str], tuple[int, str]] = lambda game: NO_ATTEMPTS):
        self.storage = storage
        self._key = key
        self._attempts = attempts  # a game's (refused attempts, their head) as stored, for a checkpoint given without
        self._verifying_key = verifying_key
        self._checked: tuple[int, str, LogReport] | None = None  # (bytes checked, their sha256, report)
        self._guard = threading.Lock()

    def append(self, game: str, version: int, head: str, reason: str, attempts: tuple[int, str] | None = None) -> dict:
        """Sign and append a checkpoint of `game` at `version` with chain head `head` and `attempts` (count, head of
        its refused attempts; read from the store when None); returns it."""
        return self.append_many([(game, version, head, reason, *(attempts or self._attempts(game)))])[0]

    def append_many(self, checkpoints: list[tuple]) -> list[dict]:
        """Sign and append several checkpoints (game, version, head, reason[, attempts, attempts head]: read from the
        store when left out) under one lock and one sync (a bulk import); returns them."""
        key = self._key()
        checkpoints = [c if len(c) == 6 else (*c, *self._attempts(c[0])) for c in checkpoints]

        def make(last: bytes | None) -> bytes:
            seq, prev = 1, ""
            if last is not None:
                prev = line_hash(last)
                try:
                    seq = int(json.loads(last)["seq"]) + 1
                except (ValueError, KeyError, TypeError):
                    log.error("arbiter: the checkpoint log %s ends with a line that is not a checkpoint", self.storage)
                    seq = 0
            lines = []
            for game, version, head, reason, attempts, attempts_head in checkpoints:
                doc = {"format": FORMAT, "seq": seq, "prev": prev, "game": game, "version": version, "head": head,
                       "attempts": attempts, "attempts_head": attempts_head, "at": now(), "reason": reason}
                lines.append(canonical(key.sign(doc)))
                seq, prev = seq + 1 if seq else 0, line_hash(lines[-1])
            return b"\n".join(lines)

        return [json.loads(line) for line in self.storage.append(make).split(b"\n")]

    def report(self) -> LogReport:
        """The log checked line by line: seq, prev, fields and signature (only lines added since the last call)."""
        with self._guard:
            data = self.storage.read()
            done = self._checked
            if done and len(data) >= done[0] and hashlib.sha256(data[:done[0]]).hexdigest() == done[1]:
                if len(data) == done[0]:
                    return done[2]
                report = self._check(data, done[0], done[2])
            else:
                report = self._check(data, 0, LogReport(True, 0, ""))
            if report.ok:
                end = len(data) if data.endswith(b"\n") else data.rfind(b"\n") + 1
                self._checked = (end, hashlib.sha256(data[:end]).hexdigest(), report)
            return report

    def _check(self, data: bytes, start: int, so_far: LogReport) -> LogReport:
        key = self._verifying_key()
        latest = dict(so_far.latest)
        lines, head = so_far.lines, so_far.head
        body = data[start:]
        if body and not body.endswith(b"\n"):
            complete, _, _ = body.rpartition(b"\n")  # a line being written right now is not judged yet
            body = complete + b"\n" if complete else b""
        for raw in body.split(b"\n")[:-1] if body else []:
            number = lines + 1
            problem = _line_problem(raw, number, head, key)
            if problem:
                return LogReport(False, lines, head, number, f"line {number}: {problem}", latest)
            doc = json.loads(raw)
            latest[doc["game"]] = doc
            lines, head = number, line_hash(raw)
        return LogReport(True, lines, head, None, None, latest)


def _line_problem(raw: bytes, number: int, prev: str, key: PublicKey | None) -> str | None:
    """What is wrong with line `number` of the log, or None."""
    try:
        doc = json_limits.read_document(raw)
    except ValueError as e:  # not JSON, or outside the JSON bounds
        return f"is not JSON within the bounds (the line was edited or cut): {e}"
    fields = FIELDS_OF.get(doc.get("format")) if isinstance(doc, dict) else None
    if fields is None:
        return f"is not a checkpoint (its format must be {FORMAT} or {FORMAT_V1})"
    if set(doc) != set(fields):
        return f"is not a checkpoint (expected exactly the fields {', '.join(sorted(fields))})"
    for name, kind in fields.items():
        if not isinstance(doc[name], kind) or isinstance(doc[name], bool):
            return f"{name} must be {'an integer' if kind is int else 'a string'}"
    if doc["seq"] != number:
        return f"has seq {doc['seq']}, expected {number} (a line was removed, inserted or moved)"
    if doc["prev"] != prev:
        return (f"does not follow line {number - 1}: its prev differs from the hash of line {number - 1} "
                "(that line was edited, or lines were removed or reordered)")
    if raw != canonical(doc):
        return "is not in canonical form (the line was edited)"
    if key is None:
        return "cannot be checked: no signing key (the key file is missing)"
    problem = key.signature_problem(doc)
    if problem:
        return f"bad signature: {problem}"
    return None
