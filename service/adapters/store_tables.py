"""Creating a read model's tables in a store that other processes and threads may be opening at the same moment.

Every gunicorn worker (and every thread of one that opens a read model first) creates the tables it needs if they
are missing. eventsourcing 9.5.6's tracking recorders do that in two steps: ``create_table`` reads the tracking
table's migration record (``__migration__``) in one transaction, then ``_create_table`` creates the tables in
another and, when the first read found no tracking table, records ``__migration__ 1``. Two openers of a new store
both find no table; the first creates it and records the migration; the second's insert finds the record there and
the library raises ``IntegrityError: Failed to record tracking for __migration__ 1`` (issue 23: the first requests
of a new server answered 500). Besides that:

- SQLite: the library's transaction is a deferred ``BEGIN``. Its first ``CREATE TABLE IF NOT EXISTS`` (the
  tracking table, made by the catalogue a moment ago) reads the schema; the next one must write, and in WAL mode a
  read snapshot that another writer has moved past cannot become a write: ``database is locked`` at once, without
  the lock timeout's wait.
- PostgreSQL: two ``CREATE TABLE IF NOT EXISTS`` of one table at once can both find it missing; the later fails
  on the unique index of ``pg_type`` (``duplicate key value violates unique constraint "pg_type_typname_nsp_index"``).

Here the read and the creation are ONE transaction that first takes a lock every creator in the store takes, so
openers run one after the other and each later one finds everything made (the ``IF NOT EXISTS`` statements do
nothing and no migration record is written again):

- SQLite: ``BEGIN IMMEDIATE`` (the database's write lock, waited for up to the store's lock timeout);
- PostgreSQL: ``pg_advisory_xact_lock`` on the schema's lock (``schema_lock_name``), which the Referee's own
  start-up (service.adapters.stores.startup_lock: the events' tables and functions) takes too, as a session lock.

``SQLiteViewRecorder`` and ``PostgresViewRecorder`` are the library's tracking recorders with that ``create_table``;
the stores of every materialised read model (service.adapters.view_stores) build on them.
``created_concurrently`` tells a creation that met an opener outside these locks (an older arbiter, another tool)
from a real error: such a creation is simply run again, and then finds the objects there.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar

from eventsourcing.persistence import OperationalError, PersistenceError
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder, SQLiteTransaction
from psycopg.sql import SQL

ATTEMPTS = 5
T = TypeVar("T")


def schema_lock_name(schema: str) -> str:
    """The text whose hashtext() is the advisory lock of a PostgreSQL schema's table creation ("" is public)."""
    return f"arbiter-schema:{schema.strip() or 'public'}"


def created_concurrently(error: BaseException) -> bool:
    """Whether a failed creation of tables, types or functions met another session creating the same objects."""
    import psycopg.errors as pg

    for e in (error, error.__cause__):
        if isinstance(e, (pg.UniqueViolation, pg.DuplicateTable, pg.DuplicateObject, pg.DuplicateFunction)):
            return True
        if e is not None and "concurrently" in str(e):  # "tuple concurrently updated" (CREATE OR REPLACE FUNCTION)
            return True
    return False


def retried(create: Callable[[], T], attempts: int = ATTEMPTS) -> T:
    """`create()`, run again (a little later) while it fails because another session created the same objects."""
    for attempt in range(attempts):
        try:
            return create()
        except PersistenceError as e:
            if attempt == attempts - 1 or not created_concurrently(e):
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


class _Immediate(SQLiteTransaction):
    """The library's SQLite transaction (its commit, rollback and error translation), begun IMMEDIATE: the write lock
    is taken (waiting up to the connection's timeout) before anything is read."""

    def __enter__(self) -> Any:
        cursor = self.connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            cursor.sqlite_cursor.close()
            raise OperationalError(e) from e
        return cursor


class SQLiteViewRecorder(SQLiteTrackingRecorder):
    """SQLiteTrackingRecorder whose create_table is one IMMEDIATE transaction: safe from any number of openers."""

    def create_table(self) -> None:
        with self.datastore.get_connection(commit=True) as conn, _Immediate(conn, commit=True) as c, c:
            c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tracking'")
            self.tracking_table_exists = c.fetchone() is not None
            self.tracking_migration_current = self.tracking_migration_previous = (
                self._max_tracking_id(self.table_migration_identifier, c) if self.tracking_table_exists else None)
            self._create_table(c)  # the library's: migrates an old table, creates, records __migration__ if new
        if not self.datastore.single_row_tracking and self.tracking_migration_current is not None:
            raise OperationalError("Can't do multi-row tracking with single-row tracking table")


class PostgresViewRecorder(PostgresTrackingRecorder):
    """PostgresTrackingRecorder whose create_table is one transaction under the schema's advisory lock: safe from any
    number of openers (its statements must not include CREATE TYPE, which the library runs apart)."""

    def create_table(self) -> None:
        retried(self._create_locked)
        self.datastore.register_type_adapters()

    def _create_locked(self) -> None:
        schema = self.datastore.schema
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (schema_lock_name(schema),))
            curs.execute(SQL("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = %s "
                             "AND tablename = %s) AS found"), (schema, self.tracking_table_name))
            self.tracking_table_exists = bool(curs.fetchone()["found"])
            self.tracking_migration_current = self.tracking_migration_previous = (
                self._max_tracking_id(self.table_migration_identifier, curs) if self.tracking_table_exists else None)
            self._create_table(curs)  # the library's: migrates an old table, creates, records __migration__ if new
        if not self.datastore.single_row_tracking and self.tracking_migration_current is not None:
            raise OperationalError("Can't do multi-row tracking with single-row tracking table")
