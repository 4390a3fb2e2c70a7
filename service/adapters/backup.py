"""Backups of the event store: a consistent online copy of a SQLite store (SQLite's backup API).

A PostgreSQL store is backed up with `pg_dump` (docs/evidence.md); either copy, once restored, is
checked the same way: `arbiter verify --all` against the checkpoint log, which reports a copy older
than the log as a rollback, naming the games and versions lost.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from service.errors import BadInput
from .stores import persistence_env


def backup(database_url: str, path: str | os.PathLike, force: bool = False) -> dict:
    """Copy a SQLite store to `path` while it is in use; returns {path, bytes, games, events}; raises BadInput."""
    env = persistence_env(database_url)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        raise BadInput("a PostgreSQL store is backed up with pg_dump (see docs/evidence.md), not with arbiter backup",
                       field="database_url")
    if env["PERSISTENCE_MODULE"] != "eventsourcing.sqlite" or env["SQLITE_DBNAME"].startswith("file:"):
        raise BadInput("an in-memory store has nothing to back up: use a SQLite file or PostgreSQL", field="database_url")
    source, target = Path(env["SQLITE_DBNAME"]), Path(path)
    if target.resolve() == source.resolve():
        raise BadInput(f"{target}: that is the database itself; give another path", field="path")
    if target.is_dir():
        raise BadInput(f"{target}: is a directory; give a file name", field="path")
    if target.exists() and not force:
        raise BadInput(f"{target}: already exists (use --force to replace it)", field="path")
    if not target.parent.is_dir():
        raise BadInput(f"{target.parent}: no such directory", field="path")
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(fd)
    try:
        src = sqlite3.connect(str(source), timeout=30)
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)  # one consistent snapshot, even while other connections write
            (check,) = dst.execute("PRAGMA integrity_check").fetchone()
            if check != "ok":
                raise BadInput(f"{target}: the copy failed SQLite's integrity check ({check})", field="path")
            games, events = _counts(dst)
        finally:
            src.close()
            dst.close()
        os.replace(tmp, target)
    except sqlite3.Error as e:
        raise BadInput(f"{source}: cannot be copied ({e})", field="database_url") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return {"path": str(target), "bytes": target.stat().st_size, "games": games, "events": events}


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """(games, stored events) in a copy, read from the library's events table."""
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    table = next((t for t in tables if t.endswith("events") and "snapshot" not in t), None)
    if table is None:
        return 0, 0
    events = conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
    games = conn.execute(f'SELECT COUNT(*) FROM "{table}" WHERE originator_version = 1 AND topic LIKE ?',
                         ("%Game.Created",)).fetchone()[0]
    return games, events
