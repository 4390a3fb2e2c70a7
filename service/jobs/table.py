"""The background jobs' table in the store (docs/analysis.md "Jobs"): one row a job, read and written by every server
process of the deployment, so that a job is one job whichever worker or host is asked.

Table ``arbiter_jobs``: in the events' SQLite file, in the application's PostgreSQL schema, or (``memory://`` and an
in-memory SQLite store) in an SQLite database of this process alone. Times are the database's clock (seconds since the
epoch), so that the hosts of one deployment read one clock for leases.

Never twice at once: a worker takes a job by a guarded UPDATE whose WHERE says the job is still free (queued, or
running under a lease that ran out), in a transaction that first takes the table's write lock (SQLite's ``BEGIN
IMMEDIATE``) or, on PostgreSQL, picks the row with ``SELECT ... FOR UPDATE SKIP LOCKED``; its heartbeat, progress
and result are written only WHERE it still holds the lease (its holder id, a fresh one each time it is taken). A
new job is checked against the limits and written in one transaction under the same lock (PostgreSQL: an advisory
transaction lock of the table), so two askers at once cannot both pass a limit.

Over 300 lines on purpose: the two databases' forms of each statement sit side by side.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import uuid
from contextlib import contextmanager
from typing import Any, Iterator

from service.adapters.stores import persistence_env

from .rules import ACTIVE, CANCELLED, DONE, FAILED, QUEUED, RUNNING, JobRow, Limits, refusal, requeued_on_ask

TABLE = "arbiter_jobs"
HOST = socket.gethostname()
COLUMNS = ("id", "kind", "subject", "game", "request", "status", "owner", "address", "created", "started", "finished",
           "holder", "lease_until", "done", "total", "units", "seconds", "cancel", "result", "error", "attempts")
LIGHT = tuple(c for c in COLUMNS if c != "result")  # what the queue's reads need (a result may be large)


class Refused(Exception):
    """A new job past a limit (service.jobs.rules.refusal says which)."""


def _create(real: str) -> str:
    return (f"CREATE TABLE IF NOT EXISTS {{t}} (id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT NOT NULL, "
            f"game TEXT NOT NULL, request TEXT NOT NULL, status TEXT NOT NULL, owner TEXT NOT NULL, "
            f"address TEXT NOT NULL, created {real} NOT NULL, started {real}, finished {real}, holder TEXT, "
            f"lease_until {real}, done INTEGER NOT NULL DEFAULT 0, total INTEGER, units INTEGER NOT NULL, "
            f"seconds {real}, cancel INTEGER NOT NULL DEFAULT 0, result TEXT, error TEXT, "
            f"attempts INTEGER NOT NULL DEFAULT 0)")


def _row(values: Any, columns: tuple[str, ...]) -> JobRow:
    d = dict(zip(columns, values))
    result = d.get("result")
    return JobRow(id=d["id"], kind=d["kind"], game=d["game"], status=d["status"], owner=d["owner"],
                  address=d["address"], created=d["created"], started=d["started"], finished=d["finished"],
                  holder=d["holder"], lease_until=d["lease_until"], done=d["done"], total=d["total"],
                  units=d["units"], seconds=d["seconds"], cancel=bool(d["cancel"]), subject=d["subject"],
                  request=json.loads(d["request"]), result=None if result is None else json.loads(result),
                  error=d["error"])


class JobTable:
    """The jobs of one store. Each method is one transaction; the SQL is written for PostgreSQL's `%s` and turned
    into SQLite's `?` by the SQLite form."""

    now_sql = ""
    claim_locked = True  # SQLite: a claim holds the write lock; PostgreSQL: FOR UPDATE SKIP LOCKED picks the row

    def __init__(self) -> None:
        self._guard = threading.Lock()

    # -- what each database does differently --------------------------------------------------

    @contextmanager
    def transaction(self, locked: bool) -> Iterator[Any]:
        """A cursor in one transaction; `locked`: holding the table's write lock from its start."""
        raise NotImplementedError

    def pick(self, cur: Any, kinds: list[str]) -> str | None:
        """The id of the next free job of these kinds (queued oldest first, or running under a lease run out)."""
        raise NotImplementedError

    def q(self, sql: str) -> str:
        return sql.replace("{t}", self.table).replace("{now}", self.now_sql)

    table = TABLE

    # -- asking --------------------------------------------------------------------------------

    def ask(self, job_id: str, kind: str, subject: str, game: str, request: dict, owner: str, address: str,
            units: int, limits: Limits, what: str) -> tuple[JobRow, bool]:
        """The job of `job_id` and whether this ask queued it (new, or failed or cancelled before); raises Refused
        with the reason when queuing it would pass a limit."""
        cols = ", ".join(LIGHT)
        with self.transaction(locked=True) as cur:
            cur.execute(self.q(f"SELECT {cols} FROM {{t}} WHERE id = %s"), (job_id,))
            found = cur.fetchone()
            if found is not None and not requeued_on_ask(found[LIGHT.index("status")]):
                return _row(found, LIGHT), False
            cur.execute(self.q(f"SELECT {cols} FROM {{t}} WHERE status IN (%s, %s)"), ACTIVE)
            why = refusal([_row(r, LIGHT) for r in cur.fetchall()], owner, address, limits, what)
            if why is not None:
                raise Refused(why)
            if found is None:
                cur.execute(self.q("INSERT INTO {t} (id, kind, subject, game, request, status, owner, address, created, "
                                   "units) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, {now}, %s)"),
                            (job_id, kind, subject, game, json.dumps(request), QUEUED, owner, address, max(1, units)))
            else:
                cur.execute(self.q("UPDATE {t} SET status = %s, owner = %s, address = %s, created = {now}, "
                                   "started = NULL, finished = NULL, holder = NULL, lease_until = NULL, done = 0, "
                                   "total = NULL, seconds = NULL, cancel = 0, result = NULL, error = NULL "
                                   "WHERE id = %s"), (QUEUED, owner, address, job_id))
            cur.execute(self.q(f"SELECT {cols} FROM {{t}} WHERE id = %s"), (job_id,))
            return _row(cur.fetchone(), LIGHT), True

    def get(self, job_id: str) -> JobRow | None:
        """A job with its result (None: no such job)."""
        with self.transaction(locked=False) as cur:
            cur.execute(self.q(f"SELECT {', '.join(COLUMNS)} FROM {{t}} WHERE id = %s"), (job_id,))
            found = cur.fetchone()
        return None if found is None else _row(found, COLUMNS)

    def active(self) -> list[JobRow]:
        """The queued and running jobs (for the limits, the queue's positions and the estimates)."""
        with self.transaction(locked=False) as cur:
            cur.execute(self.q(f"SELECT {', '.join(LIGHT)} FROM {{t}} WHERE status IN (%s, %s)"), ACTIVE)
            return [_row(r, LIGHT) for r in cur.fetchall()]

    def history(self, kind: str, game: str, n: int, subject: str | None = None, cur: Any = None) -> list[JobRow]:
        """The last `n` jobs of this kind and game (and subject, if given: the same game id) that were done (their
        measured cost)."""
        if cur is None:
            with self.transaction(locked=False) as cur:
                return self.history(kind, game, n, subject, cur)
        where, args = "kind = %s AND game = %s AND status = %s", [kind, game, DONE]
        if subject is not None:
            where, args = where + " AND subject = %s", args + [subject]
        cur.execute(self.q(f"SELECT {', '.join(LIGHT)} FROM {{t}} WHERE {where} ORDER BY finished DESC LIMIT %s"),
                    (*args, n))
        return [_row(r, LIGHT) for r in cur.fetchall()]

    def queue_state(self, n: int) -> tuple[list[JobRow], dict[str, list[JobRow]]]:
        """In one transaction: the active jobs, and for each the last `n` done jobs that price it (of the same
        subject if there are any, else of the same game)."""
        with self.transaction(locked=False) as cur:
            cur.execute(self.q(f"SELECT {', '.join(LIGHT)} FROM {{t}} WHERE status IN (%s, %s)"), ACTIVE)
            active = [_row(r, LIGHT) for r in cur.fetchall()]
            seen: dict[tuple, list[JobRow]] = {}
            priced = {}
            for r in active:
                past = seen.get((r.kind, r.subject))
                if past is None:
                    past = seen[(r.kind, r.subject)] = self.history(r.kind, r.game, n, r.subject, cur)
                if not past:
                    past = seen.get((r.kind, r.game, None))
                    if past is None:
                        past = seen[(r.kind, r.game, None)] = self.history(r.kind, r.game, n, None, cur)
                priced[r.id] = past
        return active, priced

    def cancel(self, job_id: str) -> JobRow | None:
        """Cancel a job: a queued one at once; a running one is asked to stop (its worker answers at its next
        heartbeat, or the job is cancelled once its lease runs out, its worker gone). None: no such job."""
        with self.transaction(locked=True) as cur:
            cur.execute(self.q("UPDATE {t} SET status = %s, finished = {now}, cancel = 1 WHERE id = %s AND status = %s"),
                        (CANCELLED, job_id, QUEUED))
            cur.execute(self.q("UPDATE {t} SET cancel = 1 WHERE id = %s AND status = %s"), (job_id, RUNNING))
        return self.get(job_id)

    # -- working -------------------------------------------------------------------------------

    def claim(self, kinds: list[str], lease: float) -> tuple[JobRow, str] | None:
        """Take the next free job of these kinds for `lease` seconds: (the job, the holder id its heartbeats and
        result must give), or None when there is none. Running jobs asked to stop whose worker is gone are
        cancelled on the way."""
        if not kinds or not self._anything_free():
            return None
        holder = f"{HOST}/{os.getpid()}/{uuid.uuid4().hex[:12]}"  # which host and process: an operator can tell
        with self.transaction(locked=self.claim_locked) as cur:
            cur.execute(self.q("UPDATE {t} SET status = %s, finished = {now} WHERE status = %s AND cancel = 1 "
                               "AND lease_until < {now}"), (CANCELLED, RUNNING))
            job_id = self.pick(cur, kinds)
            if job_id is None:
                return None
            cur.execute(self.q("UPDATE {t} SET status = %s, holder = %s, lease_until = {now} + %s, started = {now}, "
                               "done = 0, attempts = attempts + 1 WHERE id = %s AND ((status = %s AND cancel = 0) OR "
                               "(status = %s AND lease_until < {now}))"),
                        (RUNNING, holder, float(lease), job_id, QUEUED, RUNNING))
            if cur.rowcount != 1:
                return None
            cur.execute(self.q(f"SELECT {', '.join(LIGHT)} FROM {{t}} WHERE id = %s"), (job_id,))
            return _row(cur.fetchone(), LIGHT), holder

    def _anything_free(self) -> bool:
        """Whether any job may be taken (or a dead worker's cancelled job closed): one read, so that an idle process
        asks twice a second without taking the write lock (SQLite's is the events' too)."""
        with self.transaction(locked=False) as cur:
            cur.execute(self.q("SELECT 1 FROM {t} WHERE (status = %s AND cancel = 0) OR (status = %s AND "
                               "lease_until < {now}) LIMIT 1"), (QUEUED, RUNNING))
            return cur.fetchone() is not None

    def beat(self, job_id: str, holder: str, done: int, total: int | None, lease: float) -> str:
        """A worker's heartbeat: its progress, and its lease renewed. "go" on; "cancel": asked to stop; "lost":
        the lease is no longer this worker's (another took the job, or it ended)."""
        with self.transaction(locked=False) as cur:
            cur.execute(self.q("UPDATE {t} SET lease_until = {now} + %s, done = %s, total = %s WHERE id = %s AND "
                               "holder = %s AND status = %s"), (float(lease), done, total, job_id, holder, RUNNING))
            if cur.rowcount != 1:
                return "lost"
            cur.execute(self.q("SELECT cancel FROM {t} WHERE id = %s"), (job_id,))
            return "cancel" if cur.fetchone()[0] else "go"

    def finish(self, job_id: str, holder: str, status: str, result: Any = None, error: str | None = None,
               done: int | None = None, total: int | None = None) -> bool:
        """End a job the worker still holds: done with its result, failed with its error, or cancelled; its run
        time is kept (the estimates' measure). False when it no longer held it (nothing written)."""
        assert status in (DONE, FAILED, CANCELLED)
        with self.transaction(locked=False) as cur:
            cur.execute(self.q("UPDATE {t} SET status = %s, result = %s, error = %s, finished = {now}, "
                               "seconds = {now} - started, holder = NULL, lease_until = NULL, "
                               "done = COALESCE(%s, done), total = COALESCE(%s, total) "
                               "WHERE id = %s AND holder = %s AND status = %s"),
                        (status, None if result is None else json.dumps(result), error, done, total, job_id, holder,
                         RUNNING))
            return cur.rowcount == 1

    def release(self, job_id: str, holder: str) -> None:
        """Give a running job back to the queue at once (a server shutting down cleanly): another worker starts it."""
        with self.transaction(locked=False) as cur:
            cur.execute(self.q("UPDATE {t} SET status = %s, holder = NULL, lease_until = NULL, done = 0 WHERE id = %s "
                               "AND holder = %s AND status = %s AND cancel = 0"), (QUEUED, job_id, holder, RUNNING))
            cur.execute(self.q("UPDATE {t} SET status = %s, holder = NULL, finished = {now} WHERE id = %s "
                               "AND holder = %s AND status = %s"), (CANCELLED, job_id, holder, RUNNING))

    def close(self) -> None:
        pass


class SQLiteJobs(JobTable):
    """The table in an SQLite database: the events' file (shared by the processes of one machine), or an in-memory
    database of this process (`memory://`)."""

    now_sql = "((julianday('now') - 2440587.5) * 86400.0)"

    def __init__(self, path: str | None):
        super().__init__()
        if path is None:
            self.conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        else:
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30,
                                        uri=path.startswith("file:"))
        self.conn.execute("PRAGMA busy_timeout = 30000")
        with self._guard:
            self.conn.execute(self.q(_create("REAL")))
            self.conn.execute(self.q("CREATE INDEX IF NOT EXISTS {t}_status ON {t} (status, created)"))

    def q(self, sql: str) -> str:
        return super().q(sql).replace("%s", "?")

    @contextmanager
    def transaction(self, locked: bool) -> Iterator[Any]:
        with self._guard:
            cur = self.conn.cursor()
            cur.execute("BEGIN IMMEDIATE" if locked else "BEGIN")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def pick(self, cur: Any, kinds: list[str]) -> str | None:
        marks = ", ".join("?" for _ in kinds)
        cur.execute(self.q(f"SELECT id FROM {{t}} WHERE kind IN ({marks}) AND ((status = ? AND cancel = 0) OR "
                           "(status = ? AND lease_until < {now})) ORDER BY created, id LIMIT 1"),
                    (*kinds, QUEUED, RUNNING))
        found = cur.fetchone()
        return None if found is None else found[0]

    def close(self) -> None:
        with self._guard:
            self.conn.close()


class PostgresJobs(JobTable):
    """The table in the application's PostgreSQL schema, on one connection of this process."""

    now_sql = "EXTRACT(EPOCH FROM clock_timestamp())::float8"
    claim_locked = False

    def __init__(self, env: dict[str, str]):
        super().__init__()
        from psycopg import sql

        from service.adapters.store_tables import schema_lock_name

        self.env = env
        schema = env.get("POSTGRES_SCHEMA", "").strip()
        self.table = sql.Identifier(schema, TABLE).as_string(None) if schema else TABLE
        self._lock_name = f"arbiter-jobs:{schema or 'public'}"
        self.conn = None
        with self._guard, self._connection().transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (schema_lock_name(schema),))
            self.conn.execute(self.q(_create("DOUBLE PRECISION")))
            self.conn.execute(self.q("CREATE INDEX IF NOT EXISTS " + TABLE + "_status ON {t} (status, created)"))

    def _connection(self):
        if self.conn is None or self.conn.closed:
            from service.adapters.stores import connect

            self.conn = connect(self.env)
        return self.conn

    @contextmanager
    def transaction(self, locked: bool) -> Iterator[Any]:
        with self._guard:
            conn = self._connection()
            try:
                with conn.transaction(), conn.cursor() as cur:
                    if locked:
                        cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._lock_name,))
                    yield cur
            except Exception:
                if conn.closed or conn.broken:
                    self.conn = None  # a lost connection: the next call opens another
                raise

    def pick(self, cur: Any, kinds: list[str]) -> str | None:
        cur.execute(self.q("SELECT id FROM {t} WHERE kind = ANY(%s) AND ((status = %s AND cancel = 0) OR "
                           "(status = %s AND lease_until < {now})) ORDER BY created, id LIMIT 1 "
                           "FOR UPDATE SKIP LOCKED"), (kinds, QUEUED, RUNNING))
        found = cur.fetchone()
        return None if found is None else found[0]

    def close(self) -> None:
        with self._guard:
            if self.conn is not None:
                self.conn.close()
                self.conn = None


def jobs_for(database_url: str) -> JobTable:
    """The jobs' table of a store's URL."""
    env = persistence_env(database_url)
    module = env.get("PERSISTENCE_MODULE")
    if module == "eventsourcing.postgres":
        return PostgresJobs(env)
    if module == "eventsourcing.sqlite":
        return SQLiteJobs(env["SQLITE_DBNAME"])
    return SQLiteJobs(None)


__all__ = ["JobTable", "SQLiteJobs", "PostgresJobs", "Refused", "jobs_for"]
