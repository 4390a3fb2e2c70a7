"""Which event store a URL names (contract §3): `sqlite:///file.db`, `postgresql://...`, `memory://`."""

from __future__ import annotations

import contextlib
import os
import uuid
from urllib.parse import parse_qs, unquote, urlparse

DEFAULT_URL = "sqlite:///arbiter.db"
TABLE = "arbiter_events"  # the stored events of the application named "arbiter" (eventsourcing: <name>_events)


class StoreURLError(ValueError):
    """A database URL arbiter cannot use."""


def persistence_env(url: str) -> dict[str, str]:
    """The eventsourcing environment for a database URL; raises StoreURLError naming what is wrong."""
    if not isinstance(url, str) or "://" not in url:
        raise StoreURLError(f"database URL {url!r}: expected sqlite:///path, postgresql://user@host:port/db or memory://")
    scheme = url.split("://", 1)[0].lower()
    if scheme == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if scheme == "sqlite":
        path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else ""
        if not path:
            raise StoreURLError(f"database URL {url!r}: expected sqlite:///path/to/file.db")
        if path == ":memory:":
            path = f"file:arbiter-{uuid.uuid4().hex}?mode=memory&cache=shared"
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path, "SQLITE_LOCK_TIMEOUT": "30"}
    if scheme in ("postgres", "postgresql"):
        u = urlparse(url)
        dbname = u.path.lstrip("/")
        if not dbname:
            raise StoreURLError(f"database URL {url!r}: name the database, e.g. postgresql://postgres@127.0.0.1:5432/test")
        query = parse_qs(u.query)
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
               "POSTGRES_HOST": u.hostname or "127.0.0.1", "POSTGRES_PORT": str(u.port or 5432),
               "POSTGRES_USER": unquote(u.username or "postgres"), "POSTGRES_PASSWORD": unquote(u.password or ""),
               "POSTGRES_POOL_SIZE": query.get("pool_size", ["5"])[0],
               "POSTGRES_LOCK_TIMEOUT": "5",
               # the library's recorder with a one-round-trip insert that keeps its table lock (service.adapters.pg_recorder)
               "APPLICATION_RECORDER_TOPIC": "service.adapters.pg_recorder:LockedInsertRecorder"}
        if "schema" in query:
            env["POSTGRES_SCHEMA"] = query["schema"][0]
        return env
    raise StoreURLError(f"database URL {url!r}: unknown scheme {scheme!r}; use sqlite, postgresql or memory")


def store_missing(url: str) -> str | None:
    """Why the event store a URL names does not exist yet (None when it does, or for an in-memory store);
    raises StoreURLError for a URL arbiter cannot use. Nothing is created."""
    env = persistence_env(url)
    module = env["PERSISTENCE_MODULE"]
    if module == "eventsourcing.sqlite" and not env["SQLITE_DBNAME"].startswith("file:"):
        path = os.path.abspath(env["SQLITE_DBNAME"])
        return None if os.path.isfile(path) else f"no event store at {path} (from {url})"
    if module == "eventsourcing.postgres":
        import psycopg

        table = f"{env['POSTGRES_SCHEMA']}.{TABLE}" if env.get("POSTGRES_SCHEMA") else TABLE
        try:
            with connect(env) as conn:
                found = conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()[0]
        except psycopg.Error as e:
            return f"cannot open the PostgreSQL store {env['POSTGRES_DBNAME']}@{env['POSTGRES_HOST']}: {str(e).strip().splitlines()[0]}"
        return None if found else f"no event store in PostgreSQL database {env['POSTGRES_DBNAME']} (no table {table})"
    return None


def ensure_schema(env: dict[str, str]) -> None:
    """Create the PostgreSQL schema a URL names (`?schema=`), if it does not exist yet."""
    schema = env.get("POSTGRES_SCHEMA")
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres" or not schema:
        return
    from psycopg import sql

    with connect(env) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))


def write_lock_path(env: dict[str, str]) -> str | None:
    """The file beside a SQLite database whose flock its processes take around each write and at start-up
    (service.adapters.group_commit.WriteLock, startup_lock); None for other stores and in-memory SQLite."""
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite" or env["SQLITE_DBNAME"].startswith("file:"):
        return None
    return env["SQLITE_DBNAME"] + ".write-lock"


@contextlib.contextmanager
def startup_lock(env: dict[str, str]):
    """Hold the store's start-up lock while the application creates its tables (and on PostgreSQL its functions).

    PostgreSQL: the schema's advisory lock, which every read model's table creation takes too
    (service.adapters.store_tables.schema_lock_name). A SQLite file: an flock of the store's write-lock file; the first
    connection to a new file switches it to WAL, which needs SQLite's exclusive lock and may fail at once with
    "database is locked" (no busy wait) while another process's connection is doing the same. Where the lock file
    cannot be made (no such directory, read-only), nothing is locked and SQLite reports what is wrong."""
    lock_file = write_lock_path(env)
    if lock_file is not None:
        import fcntl

        try:
            fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            fd = None
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            if fd is not None:
                os.close(fd)  # releases the flock
        return
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        yield
        return
    from .store_tables import schema_lock_name

    name = schema_lock_name(env.get("POSTGRES_SCHEMA", ""))
    with connect(env) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (name,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (name,))


def connect(env: dict[str, str]):
    """An autocommit psycopg connection to the PostgreSQL database of an eventsourcing environment."""
    import psycopg

    return psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                           password=env["POSTGRES_PASSWORD"] or None, dbname=env["POSTGRES_DBNAME"], autocommit=True)
