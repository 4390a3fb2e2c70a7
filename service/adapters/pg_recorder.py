"""The PostgreSQL application recorder arbiter uses: the library's, with its insert made one statement.

Chosen by service.adapters.stores.persistence_env (APPLICATION_RECORDER_TOPIC) for every postgresql:// URL. Everything but
insert_events (without a tracking record) and select_events is the library's.

eventsourcing 9.5.6's PostgresApplicationRecorder.insert_events sends BEGIN, SET LOCAL lock_timeout, LOCK TABLE
... IN EXCLUSIVE MODE, NOTIFY, the INSERT ... RETURNING notification_id, a pipeline sync, then COMMIT and a final
sync: four round trips to the server for one insert (libpq trace, 2026-11-23), ~330 us of CPU a call here.
Its optional database function (POSTGRES_ENABLE_DB_FUNCTIONS=y) is one round trip but does NOT lock the table,
so two transactions could take notification ids in one order and commit in the other, and a follower of the
notification log (service.views.feed, service.play.clocks, the catalogue) reading between the two commits would skip
the lower id for good.

This recorder's insert is one prepared call, in autocommit, of a function of its own that does what the
library's pipelined transaction does, in the same order, inside one transaction:

    SET LOCAL lock_timeout; LOCK TABLE <events> IN EXCLUSIVE MODE; NOTIFY <channel>;
    INSERT ... SELECT * FROM unnest(ids, versions, topics, states) RETURNING notification_id

The events go as four columns of plain values in binary (a move's few events as ARRAY[%b, ...] of parameters
of their own, a larger insert as four array parameters), not as the library's array of a composite type, whose
text dump cost ~35 us a call more.

The table lock is taken before the INSERT draws its ids from the sequence and held until the statement's
implicit transaction commits, so ids are committed in the order they were drawn (the guarantee the library's
_lock_table comment describes); the NOTIFY goes out on the library's channel at that commit, as before. A
duplicate (originator_id, version) still fails the whole call (IntegrityError), a lock wait past the timeout
still raises OperationalError (retried like the library's). Inserts with a tracking record (processes, not used
by the Referee) keep the library's path. The function is created with the library's other statements
(Referee: under service.adapters.stores.startup_lock), by CREATE OR REPLACE.
"""

from __future__ import annotations

from typing import Any, Sequence
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

TOPIC = "service.adapters.pg_recorder:LockedInsertRecorder"
SCALARS_UP_TO = 8  # inserts of up to this many events send each value as its own (binary) parameter


class LockedInsertRecorder(PostgresApplicationRecorder):
    """PostgresApplicationRecorder whose insert is one round trip that keeps the table lock (see the module)."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self.locked_insert_function = f"{self.events_table_name}_insert_locked"
        self.check_identifier_length(self.locked_insert_function)
        schema = Identifier(self.datastore.schema)
        table = Identifier(self.events_table_name)
        function = Identifier(self.locked_insert_function)
        id_type = Identifier(self.datastore.originator_id_type)
        self.sql_create_statements.append(SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}"
            "(ids {id_type}[], versions bigint[], topics text[], states bytea[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(ids, versions, topics, states) "
            "RETURNING t.notification_id; "
            "END; $BODY$"
        ).format(schema=schema, function=function, table=table, id_type=id_type,
                 lock_timeout=self.datastore.lock_timeout, channel=Identifier(self.channel_name)))
        self._call = SQL("SELECT {schema}.{function}").format(schema=schema, function=function)
        self._id_type = id_type
        self._insert_statements: dict[int, bytes] = {}
        self._select_statements: dict[tuple[bool, bool, bool, bool], bytes] = {}

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None,
                      desc: bool = False, limit: int | None = None) -> Sequence[StoredEvent]:
        """The library's select_events (same statement, same rows), its SQL composed once per shape, not per call,
        and its rows read as tuples (a fast-forward before every move: 78 -> ~40 us a call here)."""
        shape = (gt is not None, lte is not None, desc, limit is not None)
        params: list[Any] = [originator_id]
        if gt is not None:
            params.append(gt)
        if lte is not None:
            params.append(lte)
        if limit is not None:
            params.append(limit)
        with self.datastore.get_connection() as conn:
            statement = self._select_statements.get(shape)
            if statement is None:
                statement = self._select_statements[shape] = self._select_statement(*shape).as_bytes(conn)
            with conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(statement, params, prepare=True)
                return [StoredEvent(originator_id=row[0], originator_version=row[1], topic=row[2], state=bytes(row[3]))
                        for row in curs.fetchall()]

    def _select_statement(self, gt: bool, lte: bool, desc: bool, limit: bool) -> SQL:
        """The statement the library's select_events builds for a shape of arguments (same order of parameters)."""
        statement = SQL("SELECT originator_id, originator_version, topic, state FROM {schema}.{table} "
                        "WHERE originator_id = %s").format(schema=Identifier(self.datastore.schema),
                                                           table=Identifier(self.events_table_name))
        if gt:
            statement += SQL(" AND originator_version > %s")
        if lte:
            statement += SQL(" AND originator_version <= %s")
        statement += SQL(" ORDER BY originator_version") + SQL(" DESC" if desc else " ASC")
        if limit:
            statement += SQL(" LIMIT %s")
        return statement

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if any(v is not None for v in kwargs.values()) or not stored_events:  # tracking records: the library's way
            return super().insert_events(stored_events, **kwargs)
        n = len(stored_events)
        if n <= SCALARS_UP_TO:  # a move's few events: each value a parameter of its own (cheapest to send)
            params: list[Any] = [e.originator_id for e in stored_events]
            params += [e.originator_version for e in stored_events]
            params += [e.topic for e in stored_events]
            params += [e.state for e in stored_events]
        else:  # an imported record: four arrays
            params = [[e.originator_id for e in stored_events], [e.originator_version for e in stored_events],
                      [e.topic for e in stored_events], [e.state for e in stored_events]]
        with self.datastore.get_connection() as conn:
            statement = self._insert_statements.get(min(n, SCALARS_UP_TO + 1))
            if statement is None:
                statement = self._insert_statement(n).as_bytes(conn)
                self._insert_statements[min(n, SCALARS_UP_TO + 1)] = statement
            with conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(statement, params, prepare=n <= SCALARS_UP_TO)
                return [row[0] for row in curs.fetchall()]

    def _insert_statement(self, n: int) -> Any:
        """The call of the locked insert for n events: ARRAY[...] of n binary parameters per column up to
        SCALARS_UP_TO events, else four binary array parameters."""
        if n <= SCALARS_UP_TO:
            arrays = [SQL("ARRAY[{}]::{}[]").format(SQL(", ").join([SQL("%b")] * n), t)
                      for t in (self._id_type, SQL("bigint"), SQL("text"), SQL("bytea"))]
        else:
            arrays = [SQL("%b")] * 4
        return self._call + SQL("(") + SQL(", ").join(arrays) + SQL(")")
