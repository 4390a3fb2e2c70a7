"""The checkpoint log: signed (game, version, head, attempts, time) lines, hash-chained, kept apart from the event store.

In the spirit of Certificate Transparency's signed tree heads. One canonical JSON object per line
(docs/evidence.md):

    {"at":"2025-05-01T12:00:00.000000+00:00","attempts":3,"attempts_head":"<chain head of the refused attempts>",
     "format":"arbiter.checkpoint/3","game":"<uuid>","head":"<chain head at version>","key":"<key id>",
     "prev":"<leaf hash of the previous line>","prev_game":"<its game>","prev_version":39,
     "reason":"created|every|end|import|ruling|refused|receipt","seq":7,"signature":"<hex>","version":40}

`attempts` counts the game's refused attempts so far and `attempts_head` is their chain's head after the last of them
(empty while there is none): a line signs both the game's head and its refused attempts' head.

`seq` counts lines from 1; `prev` is the RFC 6962 leaf hash of the previous line (SHA-256 of a zero byte and the
line's bytes: the hash the transparency log's tree holds for it), and `prev_game`, `prev_version` repeat that line's
game and version (empty and 0 on line 1); `signature` signs every other field (service.evidence.keys). Editing,
removing, inserting or reordering a line breaks `seq`, `prev` or a signature; a line deleted or altered is named by
the line after it (which game and version it signed, and its leaf hash, so that the lines after it are still held
against the published tree: service.evidence.log_check); a removed *last* line shows only against a published
checkpoint or a log head kept elsewhere. Lines of `arbiter.checkpoint/2` (no `prev_game`, `prev_version`; `prev` the
SHA-256 of the previous line's bytes) and `arbiter.checkpoint/1` (without the two attempts fields too), written
before, still check. Several workers on one machine append to a file under an exclusive `flock`; several hosts of
one PostgreSQL store append to a table (service.evidence.pg_tables) through the same interface (read, exists, append).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable

from .checkpoint_lines import (  # noqa: F401  (the line format, also imported from here)
    FIELDS, FIELDS_OF, FIELDS_V1, FIELDS_V2, FORMAT, FORMAT_V1, FORMAT_V2, NO_ATTEMPTS, REASONS, LogReport, leaf_hex,
    line_hash, now, prev_of)
from .keys import PublicKey, ServerKey, canonical
from .log_storage import FileStorage, LogShrank, MemoryStorage  # noqa: F401  (the log's storages, also imported from here)

log = logging.getLogger("arbiter.evidence")


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
            seq, prev, prev_game, prev_version = 1, "", "", 0
            if last is not None:
                prev = leaf_hex(last)
                try:
                    doc = json.loads(last)
                    seq, prev_game, prev_version = int(doc["seq"]) + 1, str(doc["game"]), int(doc["version"])
                except (ValueError, KeyError, TypeError):
                    log.error("arbiter: the checkpoint log %s ends with a line that is not a checkpoint", self.storage)
                    seq = 0
            lines = []
            for game, version, head, reason, attempts, attempts_head in checkpoints:
                doc = {"format": FORMAT, "seq": seq, "prev": prev, "prev_game": prev_game, "prev_version": prev_version,
                       "game": game, "version": version, "head": head, "attempts": attempts,
                       "attempts_head": attempts_head, "at": now(), "reason": reason}
                lines.append(canonical(key.sign(doc)))
                seq, prev, prev_game, prev_version = seq + 1 if seq else 0, leaf_hex(lines[-1]), game, version
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
        from .log_check import check_lines

        return check_lines(data, start, so_far, self._verifying_key())
