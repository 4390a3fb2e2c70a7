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


def source(database_url: str) -> Path:
    """The SQLite file a store URL names, when it can be backed up; raises BadInput (PostgreSQL, in memory, or no
    store at all: a backup never creates the store it copies)."""
    env = persistence_env(database_url)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        raise BadInput("a PostgreSQL store is backed up with pg_dump (see docs/evidence.md), not with arbiter backup",
                       field="database_url")
    if env["PERSISTENCE_MODULE"] != "eventsourcing.sqlite" or env["SQLITE_DBNAME"].startswith("file:"):
        raise BadInput("an in-memory store has nothing to back up: use a SQLite file or PostgreSQL", field="database_url")
    path = Path(env["SQLITE_DBNAME"])
    if not path.is_file():
        raise BadInput(f"no event store at {path.resolve()} (from {database_url}): give --database-url (or "
                       "ARBITER_DATABASE_URL) naming the store to copy", field="database_url")
    return path


def backup(database_url: str, path: str | os.PathLike, force: bool = False) -> dict:
    """Copy a SQLite store to `path` while it is in use, creating the missing directories of `path` (removed again
    if the copy fails); returns {path, bytes, games, events, created: [directories made, outermost first]};
    raises BadInput."""
    source_path, target = source(database_url), Path(path)
    if target.resolve() == source_path.resolve():
        raise BadInput(f"{target}: that is the database itself; give another path", field="path")
    if target.is_dir():
        raise BadInput(f"{target}: is a directory; give a file name", field="path")
    if target.exists() and not force:
        raise BadInput(f"{target}: already exists (use --force to replace it)", field="path")
    created = _make_parents(target)
    tmp = None
    try:
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        except OSError as e:
            raise BadInput(f"{target.parent}: cannot write there ({e.strerror or e})", field="path") from None
        os.close(fd)
        src = sqlite3.connect(str(source_path), timeout=30)
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
        try:
            os.replace(tmp, target)
        except OSError as e:
            raise BadInput(f"{target}: cannot be written ({e.strerror or e})", field="path") from None
    except sqlite3.Error as e:
        _remove(created)
        raise BadInput(f"{source_path}: cannot be copied ({e})", field="database_url") from None
    except BaseException:
        _remove(created)
        raise
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return {"path": str(target), "bytes": target.stat().st_size, "games": games, "events": events,
            "created": [str(d) for d in created]}


def _make_parents(target: Path) -> list[Path]:
    """Create the directories missing above `target`; returns those made, outermost first; raises BadInput."""
    missing = []
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    missing.reverse()
    made = []
    for directory in missing:
        try:
            directory.mkdir()
        except FileExistsError:
            if not directory.is_dir():
                _remove(made)
                raise BadInput(f"{directory}: exists and is not a directory", field="path") from None
        except OSError as e:
            _remove(made)
            raise BadInput(f"{directory}: cannot create the directory ({e.strerror or e})", field="path") from None
        else:
            made.append(directory)
    if not target.parent.is_dir():
        raise BadInput(f"{target.parent}: is not a directory", field="path")
    return made


def _remove(directories: list[Path]) -> None:
    """Remove directories this backup created (innermost first), if they are still empty."""
    for directory in reversed(directories):
        try:
            directory.rmdir()
        except OSError:
            pass


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
