"""The PostgreSQL application recorder arbiter uses: the library's, with its insert made one statement.

eventsourcing 9.5.6's PostgresApplicationRecorder.insert_events sends BEGIN, SET LOCAL lock_timeout, LOCK TABLE
... IN EXCLUSIVE MODE, NOTIFY, the INSERT ... RETURNING notification_id, a pipeline sync, then COMMIT and a final
sync: three to four round trips to the server and ~16 waits in psycopg for one move (libpq trace, 2026-11-23).
Its optional database function (POSTGRES_ENABLE_DB_FUNCTIONS=y) is one round trip but does NOT lock the table,
so two transactions could take notification ids in one order and commit in the other, and a follower of the
notification log (service.feed, service.clocks, the catalogue) reading between the two commits would skip
the lower id for good.

This recorder's insert is one prepared call, in autocommit, of a function of its own that does what the
library's pipelined transaction does, in the same order, inside one transaction:

    SET LOCAL lock_timeout; LOCK TABLE <events> IN EXCLUSIVE MODE; NOTIFY <channel>;
    INSERT ... SELECT FROM unnest(events) RETURNING notification_id

The table lock is taken before the INSERT draws its ids from the sequence and held until the statement's
implicit transaction commits, so ids are committed in the order they were drawn (the guarantee the library's
_lock_table comment describes); the NOTIFY goes out on the library's channel at that commit, as before. A
duplicate (originator_id, version) still fails the whole call (IntegrityError), a lock wait past the timeout
still raises OperationalError (retried like the library's). Inserts with a tracking record (processes, not used
by the Referee) keep the library's path. The function is created with the library's other statements
(Referee: under service.stores.startup_lock), by CREATE OR REPLACE.
"""

from __future__ import annotations

from typing import Any, Sequence

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

TOPIC = "service.pg_recorder:LockedInsertRecorder"


class LockedInsertRecorder(PostgresApplicationRecorder):
    """PostgresApplicationRecorder whose insert is one round trip that keeps the table lock (see the module)."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self.locked_insert_function = f"{self.events_table_name}_insert_locked"
        self.check_identifier_length(self.locked_insert_function)
        schema = Identifier(self.datastore.schema)
        table = Identifier(self.events_table_name)
        function = Identifier(self.locked_insert_function)
        self.sql_create_statements.append(SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "RETURNING t.notification_id; "
            "END; $BODY$"
        ).format(schema=schema, function=function, table=table, event=Identifier(self.stored_event_type_name),
                 lock_timeout=self.datastore.lock_timeout, channel=Identifier(self.channel_name)))
        self.locked_insert_statement = SQL("SELECT {schema}.{function}(%s) AS notification_id").format(
            schema=schema, function=function)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if any(v is not None for v in kwargs.values()) or not stored_events:  # tracking records: the library's way
            return super().insert_events(stored_events, **kwargs)
        make = self.construct_pg_stored_event
        rows = [make(e.originator_id, e.originator_version, e.topic, e.state) for e in stored_events]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.locked_insert_statement, (rows,), prepare=True)
            return [row["notification_id"] for row in curs.fetchall()]
