"""What a witness keeps: per log, the size and root of the last checkpoint it cosigned, in a SQLite file.

Durable and atomic: every decision runs inside one write transaction (BEGIN IMMEDIATE, which SQLite serialises across
threads and processes) that reads the recorded state, decides, writes the new state and commits (WAL,
synchronous=FULL: fsync'd) before the witness answers; requests for one log in one process also queue on a lock.
The store checks again, whatever the decision says, that a log only ever moves forward: it refuses to record a
smaller tree than the recorded one, or another root for the recorded size (StateError).

The file is bound to the witness's key: it records the cosigner's verifier key when it is made, and refuses to
serve another key (WitnessStateError), so that a witness cannot be pointed at another witness's memory. A request
that a trusted key signed and that shows the log misbehaving is kept too (table `evidence`, once per request).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Callable

from .decide import Decision, Recorded

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS logs (origin TEXT PRIMARY KEY, size INTEGER NOT NULL, root BLOB NOT NULL,
                                 checkpoint BLOB NOT NULL, recorded_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS evidence (digest BLOB PRIMARY KEY, origin TEXT NOT NULL, reason TEXT NOT NULL,
                                     request BLOB NOT NULL, seen_at INTEGER NOT NULL);
"""


class StateError(RuntimeError):
    """A state change that would take a log backwards (refused whatever the decision said)."""


class WitnessStateError(ValueError):
    """A state file the witness cannot use (names the file and what is wrong)."""


class StateStore:
    """The recorded state of every log, in the SQLite file `path`."""

    def __init__(self, path: str | Path, key: str, create: bool):
        """Open the state of the witness whose verifier key is `key`; a missing file is made only when `create`."""
        self.path = Path(path)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        if not self.path.exists() and not create:
            raise WitnessStateError(
                f"witness state file {self.path} does not exist, but the witness key does: a witness that forgot "
                "what it cosigned could cosign a fork. Restore the file, or retire this key and start a new witness "
                "with a new key file")
        try:
            with closing(self._connect()) as con:
                con.executescript(SCHEMA)
                con.execute("INSERT OR IGNORE INTO meta VALUES ('key', ?)", (key,))
                (bound,) = con.execute("SELECT value FROM meta WHERE name = 'key'").fetchone()
        except sqlite3.DatabaseError as e:
            raise WitnessStateError(f"witness state file {self.path}: not a usable SQLite database ({e})") from None
        if bound != key:
            raise WitnessStateError(f"witness state file {self.path} belongs to the witness {bound}, not to {key} "
                                    "(another --key or --name than the one it was made with)")

    def _connect(self) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as e:
            raise WitnessStateError(f"witness state file {self.path}: cannot be opened ({e})") from None
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        return con

    def recorded(self, origin: str) -> Recorded | None:
        """What is recorded for `origin` now (None: nothing)."""
        with closing(self._connect()) as con:
            return _row(con, origin)

    def origins(self) -> dict[str, Recorded]:
        with closing(self._connect()) as con:
            rows = con.execute("SELECT origin, size, root, checkpoint FROM logs ORDER BY origin").fetchall()
        return {o: Recorded(size, bytes(root), bytes(text)) for o, size, root, text in rows}

    def evidence(self, origin: str) -> list[tuple[str, bytes]]:
        """The kept requests of `origin` that showed the log misbehaving: (why, request body), oldest first."""
        with closing(self._connect()) as con:
            rows = con.execute("SELECT reason, request FROM evidence WHERE origin = ? ORDER BY seen_at, rowid",
                               (origin,)).fetchall()
        return [(reason, bytes(body)) for reason, body in rows]

    def update(self, origin: str, decide: Callable[[Recorded | None], Decision], request: bytes = b"") -> Decision:
        """Run `decide` on what is recorded for `origin` and record its outcome, as one atomic step."""
        with self._lock(origin), closing(self._connect()) as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                before = _row(con, origin)
                decision = decide(before)
                new = decision.recorded
                if new is not None and new != before:
                    _check_forward(origin, before, new)
                    con.execute("INSERT OR REPLACE INTO logs VALUES (?, ?, ?, ?, ?)",
                                (origin, new.size, new.root, new.text, int(time.time())))
                if decision.evidence:
                    con.execute("INSERT OR IGNORE INTO evidence VALUES (?, ?, ?, ?, ?)",
                                (hashlib.sha256(request).digest(), origin, decision.evidence, request, int(time.time())))
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        return decision

    def _lock(self, origin: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(origin, threading.Lock())


def _row(con: sqlite3.Connection, origin: str) -> Recorded | None:
    row = con.execute("SELECT size, root, checkpoint FROM logs WHERE origin = ?", (origin,)).fetchone()
    return Recorded(row[0], bytes(row[1]), bytes(row[2])) if row else None


def _check_forward(origin: str, before: Recorded | None, new: Recorded) -> None:
    if before is None:
        return
    if new.size < before.size:
        raise StateError(f"{origin}: refusing to record tree size {new.size} after {before.size} (a rollback)")
    if new.size == before.size and new.root != before.root:
        raise StateError(f"{origin}: refusing to record a second root for tree size {new.size} (a fork)")
