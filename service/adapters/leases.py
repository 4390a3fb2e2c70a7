"""Leases: which server process (host) plays a game's bot seats or advances a tournament now. A lease is held by one
process at a time and passes to another when its holder dies, without anybody releasing it.

- PostgreSQL (several machines): session-level advisory locks, `pg_try_advisory_lock(schema key, id key)`, on one
  dedicated connection per process. The database drops a session's locks when its connection ends: at once when the
  holder's process dies (its kernel closes the socket), after the server's TCP keepalives give up when its machine
  vanishes without closing it (`tcp_keepalives_idle` 5 s + 3 probes 2 s apart: about 11 s), and never while it lives.
  The same keepalives on the client's side, with `tcp_user_timeout`, let a cut-off holder see that it lost its
  leases. An advisory lock is a lock the database keeps for the session, not a row: nothing to expire, nothing to
  clean, nothing written per renewal.
- A SQLite file (one machine, several worker processes): an `flock` of one of `BUCKETS` files in
  `<database>.leases/`; the kernel drops it when the process dies. Two ids may share a bucket: one process then holds
  both, which is still one holder each.
- `memory://` (one process): a set in the process.

`acquire(ids)` tries the leases not held yet and returns those held now; `alive()` says whether the held ones are
still held (False once the connection is lost: every lease is then given up, and is acquired again later if free);
`release(id)` gives one back; `close()` gives up every lease at once, as a dying process does.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import threading
from typing import Iterable
from uuid import UUID

from .stores import persistence_env

BUCKETS = 256
log = logging.getLogger("arbiter.leases")
# the lease connection's TCP settings: the database's side drops a vanished host's session (and so its locks) after
# about KEEPALIVE_IDLE + KEEPALIVE_COUNT * KEEPALIVE_INTERVAL seconds; the host's side notices it was cut off as fast
KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 5, 2, 3


def key_half(text: str) -> int:
    """A signed 32-bit key from a text (one half of a two-key advisory lock)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big", signed=True)


def lease_key(schema: str, lease_id: UUID) -> tuple[int, int]:
    """The advisory lock of a lease: (the store's schema, the id). Advisory locks are database-wide, so the schema is
    part of the key; the two-key space is apart from the one-key locks the schema's start-up takes."""
    return key_half(f"arbiter-lease:{schema or 'public'}"), key_half(str(lease_id))


class Leases:
    """What every lease store does: the held set, kept in the process; the backends say how to take and drop one."""

    def __init__(self) -> None:
        self.held: set[UUID] = set()
        self.guard = threading.RLock()

    def acquire(self, ids: Iterable[UUID]) -> set[UUID]:
        """Try every lease among `ids` not held yet; the ids among them this process holds now."""
        ids = set(ids)
        with self.guard:
            wanted = ids - self.held
            if wanted:
                self.held |= self.take(wanted)
            return ids & self.held

    def holds(self, lease_id: UUID) -> bool:
        """Whether this process holds the lease, taking it if it is free."""
        return lease_id in self.acquire([lease_id])

    def release(self, lease_id: UUID) -> None:
        with self.guard:
            if lease_id in self.held:
                self.held.discard(lease_id)
                self.drop(lease_id)

    def alive(self) -> bool:
        return True

    def close(self) -> None:
        with self.guard:
            self.held.clear()

    def take(self, ids: set[UUID]) -> set[UUID]:
        return set(ids)

    def drop(self, lease_id: UUID) -> None:
        pass


class MemoryLeases(Leases):
    """One process's store (`memory://`): the process holds every lease."""


class FileLeases(Leases):
    """A SQLite file's leases: flock of a bucket file per id, held by an open file of this process."""

    def __init__(self, folder: str):
        super().__init__()
        self.folder = folder
        self.files: dict[int, int] = {}  # bucket -> open file holding its flock
        self.users: dict[int, set[UUID]] = {}  # bucket -> the held ids in it

    def bucket(self, lease_id: UUID) -> int:
        return int.from_bytes(hashlib.sha256(str(lease_id).encode()).digest()[:4], "big") % BUCKETS

    def take(self, ids: set[UUID]) -> set[UUID]:
        os.makedirs(self.folder, exist_ok=True)
        got = set()
        for lease_id in ids:
            b = self.bucket(lease_id)
            if b not in self.files:
                fd = os.open(os.path.join(self.folder, f"{b:03d}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                self.files[b] = fd
            self.users.setdefault(b, set()).add(lease_id)
            got.add(lease_id)
        return got

    def drop(self, lease_id: UUID) -> None:
        b = self.bucket(lease_id)
        self.users.get(b, set()).discard(lease_id)
        if not self.users.get(b) and b in self.files:
            os.close(self.files.pop(b))  # closing the file drops its flock
            self.users.pop(b, None)

    def close(self) -> None:
        with self.guard:
            for fd in self.files.values():
                os.close(fd)
            self.files.clear()
            self.users.clear()
            super().close()


class PostgresLeases(Leases):
    """A PostgreSQL store's leases: session advisory locks on this process's own connection."""

    def __init__(self, env: dict[str, str]):
        super().__init__()
        self.env = env
        self.schema = env.get("POSTGRES_SCHEMA", "")
        self.conn = None

    def connection(self):
        if self.conn is None or self.conn.closed:
            import psycopg

            env, server = self.env, f"-c tcp_keepalives_idle={KEEPALIVE_IDLE} -c tcp_keepalives_interval={KEEPALIVE_INTERVAL} " \
                                     f"-c tcp_keepalives_count={KEEPALIVE_COUNT}"
            self.conn = psycopg.connect(
                host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                password=env["POSTGRES_PASSWORD"] or None, dbname=env["POSTGRES_DBNAME"], autocommit=True,
                application_name="arbiter-leases", options=server, connect_timeout=5, keepalives=1,
                keepalives_idle=KEEPALIVE_IDLE, keepalives_interval=KEEPALIVE_INTERVAL, keepalives_count=KEEPALIVE_COUNT,
                tcp_user_timeout=(KEEPALIVE_IDLE + KEEPALIVE_INTERVAL * KEEPALIVE_COUNT) * 1000)
        return self.conn

    def take(self, ids: set[UUID]) -> set[UUID]:
        ordered = list(ids)
        keys = [lease_key(self.schema, i) for i in ordered]
        try:
            rows = self.connection().execute(
                "SELECT n, pg_try_advisory_lock(a, b) FROM unnest(%s::int[], %s::int[]) WITH ORDINALITY AS k(a, b, n)",
                ([a for a, _ in keys], [b for _, b in keys])).fetchall()
        except Exception as e:  # noqa: BLE001 - a lost connection holds nothing: try again on the next round
            log.warning("leases: cannot reach the database (%s)", str(e).strip().splitlines()[0] if str(e) else e)
            self.lost()
            return set()
        return {ordered[n - 1] for n, got in rows if got}

    def drop(self, lease_id: UUID) -> None:
        try:
            self.connection().execute("SELECT pg_advisory_unlock(%s, %s)", lease_key(self.schema, lease_id))
        except Exception:  # noqa: BLE001 - a lost connection has dropped it anyway
            self.lost()

    def alive(self) -> bool:
        """Whether the connection holding the locks is still there (one round trip); if not, nothing is held."""
        with self.guard:
            if self.conn is None:
                return True  # nothing held yet
            try:
                self.conn.execute("SELECT 1")
                return True
            except Exception:  # noqa: BLE001
                self.lost()
                return False

    def lost(self) -> None:
        with self.guard:
            if self.held:
                log.warning("leases: the connection holding %d leases is lost; they are given up", len(self.held))
            self.held.clear()
            self.close_connection()

    def close_connection(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()  # the database ends the session: its advisory locks are dropped
            except Exception:  # noqa: BLE001
                pass
            self.conn = None

    def close(self) -> None:
        with self.guard:
            self.close_connection()
            super().close()


def leases_for(database_url: str) -> Leases:
    """The lease store of a store's URL."""
    env = persistence_env(database_url)
    module = env.get("PERSISTENCE_MODULE")
    if module == "eventsourcing.postgres":
        return PostgresLeases(env)
    if module == "eventsourcing.sqlite" and not env["SQLITE_DBNAME"].startswith("file:"):
        return FileLeases(os.path.abspath(env["SQLITE_DBNAME"]) + ".leases")
    return MemoryLeases()
