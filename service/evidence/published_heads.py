"""Where the transparency log's published checkpoints are kept: each a signed note (tlog-checkpoint text, the log's
signature, any witness cosignatures) under its tree size, append-only, sizes only growing.

- a PostgreSQL store: the table `<schema>_evidence.tree_heads(size bigint primary key, note text not null,
  published_at timestamptz)`, written under the evidence's INSERT/SELECT-only role and an advisory lock of its own;
- a file log: `<log path>.heads` beside it, JSON lines {"size", "note", "published_at"} appended under an exclusive
  flock (one machine);
- an in-memory store: memory.

`publish(size, make)` holds the lock, and stores `make()` (the signed note of that size) only when the latest
published head is smaller: several workers or hosts publishing at once store each size once.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from domain import json_limits

from .checkpoints import now


@dataclass(frozen=True)
class Published:
    size: int
    note: str
    published_at: str


class MemoryHeads:
    def __init__(self):
        self._heads: list[Published] = []
        self._lock = threading.Lock()

    def __str__(self) -> str:
        return "(in memory)"

    def all(self) -> list[Published]:
        with self._lock:
            return list(self._heads)

    def latest(self) -> Published | None:
        with self._lock:
            return self._heads[-1] if self._heads else None

    def publish(self, size: int, make: Callable[[], str]) -> Published:
        with self._lock:
            if self._heads and self._heads[-1].size >= size:
                return self._heads[-1]
            self._heads.append(Published(size, make(), now()))
            return self._heads[-1]


class FileHeads:
    """`<log>.heads`: one JSON object per published checkpoint."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    def __str__(self) -> str:
        return str(self.path)

    def all(self) -> list[Published]:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        return [_read(raw, n) for n, raw in enumerate(data.split(b"\n")[:-1], start=1)]

    def latest(self) -> Published | None:
        heads = self.all()
        return heads[-1] if heads else None

    def publish(self, size: int, make: Callable[[], str]) -> Published:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a+b") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                f.seek(0)
                lines = f.read().split(b"\n")[:-1]
                if lines:
                    last = _read(lines[-1], len(lines))
                    if last.size >= size:
                        return last
                head = Published(size, make(), now())
                f.seek(0, os.SEEK_END)
                f.write(json.dumps({"size": head.size, "note": head.note, "published_at": head.published_at},
                                   sort_keys=True).encode() + b"\n")
                f.flush()
                os.fsync(f.fileno())
                return head
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)


class HeadsDamaged(ValueError):
    """A stored published checkpoint that cannot be read (names which)."""


def _read(raw: bytes, number: int) -> Published:
    try:
        doc = json_limits.read_document(raw)
        return Published(int(doc["size"]), str(doc["note"]), str(doc["published_at"]))
    except (ValueError, KeyError, TypeError):
        raise HeadsDamaged(f"published checkpoint {number} of the heads file cannot be read (the file was edited)") \
            from None


class TableHeads:
    """`<schema>_evidence.tree_heads` of a PostgreSQL store (service.evidence.pg_tables)."""

    def __init__(self, tables):
        self.tables = tables

    def __str__(self) -> str:
        return f"table {self.tables.schema}.tree_heads in PostgreSQL database {self.tables.where}"

    def _rows(self, conn, last: bool = False) -> list:
        if not conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.tables.schema}".tree_heads',)).fetchone()[0]:
            return []
        order = "DESC LIMIT 1" if last else "ASC"
        return conn.execute(self.tables.q("SELECT size, note, published_at FROM {heads} ORDER BY size " + order)).fetchall()

    def all(self) -> list[Published]:
        return [Published(size, note, at.isoformat()) for size, note, at in self.tables.run(self._rows)]

    def latest(self) -> Published | None:
        rows = self.tables.run(lambda conn: self._rows(conn, last=True))
        return Published(rows[0][0], rows[0][1], rows[0][2].isoformat()) if rows else None

    def publish(self, size: int, make: Callable[[], str]) -> Published:
        def insert(conn):
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"arbiter-tree-heads:{self.tables.schema}",))
            rows = self._rows(conn, last=True)
            if rows and rows[0][0] >= size:
                return Published(rows[0][0], rows[0][1], rows[0][2].isoformat())
            note = make()
            at = conn.execute(self.tables.q("INSERT INTO {heads} (size, note) VALUES (%s, %s) RETURNING published_at"),
                              (size, note)).fetchone()[0]
            return Published(size, note, at.isoformat())

        return self.tables.run(insert, write=True)
