"""Where a materialised read model's rows live: one table (service.adapters.view_table.ViewTable) in memory, in the
events' SQLite file or in the application's PostgreSQL schema, with the library's tracking record of how far the
notification log was folded into it.

Over 300 lines on purpose: the three stores' forms of one generic table sit side by side, so that what one store
does (a read, an upsert, a mark) is seen next to the other two.

Each store is the library's tracking recorder for its database, so a batch's rows and its tracking records are
written in ONE transaction: ``apply`` inserts the tracking record of each notification (``before_each``) as the fold
reaches it, then upserts the rows the fold changed. With the library's (default) single-row tracking a position not
above the stored one raises ``IntegrityError`` and the whole batch rolls back, so no notification is applied twice.
The first statement of a batch is a tracking insert, a write: SQLite takes its write lock and PostgreSQL the
tracking row's lock before any row is read, so two catch-ups at once serialise and the later one fails on its first
insert (service.adapters.view_runner then re-reads the position and goes on).

The SQL stores build on service.adapters.store_tables (``SQLiteViewRecorder``, ``PostgresViewRecorder``), whose
``create_table`` is safe when any number of processes and threads open a new store at once. Tables:

- SQLite: ``<table>`` in the events' database file; tracking in the library's ``tracking`` table (its name is fixed
  by the library; the tracking key ``<app>:<table>`` keeps read models apart in it);
- PostgreSQL: ``<table>`` and ``<table>_tracking`` in the application's schema;
- memory: a dict of stored rows per application object (service.adapters.view_runner keeps one per table).
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.popo import POPOTrackingRecorder
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import SQL, Composed, Identifier
from psycopg.types.json import Jsonb

from .store_tables import PostgresViewRecorder, SQLiteViewRecorder
from .view_table import Column, Row, Stored, ViewTable, Where

Marks = dict[str, Any]


class ViewStore(TrackingRecorder, ABC):
    """A read model's table with the tracking record of how far the notification log was applied."""

    spec: ViewTable

    @abstractmethod
    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        """Fold a batch of (notification id, event) and record each id, in one transaction.

        Raises IntegrityError (and changes nothing) if any of the ids was already tracked.
        """

    @abstractmethod
    def get(self, key: str) -> Row | None:
        """The row under a key (None when there is none)."""

    def marks_in(self, table: str, where: str) -> dict[str, Marks]:
        """The marks kept in another table of this read model's layout (an earlier layout, left alone when the
        read model moved to a new table): {key: marks} of its rows that `where` (trusted SQL on the mark columns)
        selects; {} when there is no such table. Memory stores end with their process: nothing to carry."""
        return {}

    @abstractmethod
    def get_many(self, keys: Sequence[str]) -> dict[str, Row]:
        """The rows of several keys in one read (a key with no row is left out)."""

    @abstractmethod
    def select(self, where: Where, limit: int | None = None, offset: int = 0) -> list[Row]:
        """The rows `where` selects, in its order."""

    @abstractmethod
    def update(self, key: str, marks: Marks) -> bool:
        """Set mark columns on one row; False when there is no row."""

    @abstractmethod
    def update_many(self, items: Sequence[tuple[str, Marks]]) -> None:
        """`update` for many rows (key, marks), in one transaction (a key with no row is left alone)."""


def _sql_default(column: Column, sqlite: bool) -> str:
    if column.default is None:
        return ""
    if isinstance(column.default, bool):
        return f" DEFAULT {int(column.default)}" if sqlite else f" DEFAULT {str(column.default).lower()}"
    return f" DEFAULT {int(column.default)}"


# -- memory --------------------------------------------------------------------------------------------------------


class MemoryViewStore(POPOTrackingRecorder, ViewStore):
    """Stored rows in a dict (memory://): the rows of one application object's read model."""

    def __init__(self, spec: ViewTable):
        super().__init__()
        self.spec = spec
        self._rows: dict[str, Stored] = {}
        self._defaults = {c.name: c.default for c in spec.marks}
        self._json = frozenset(c.name for c in spec.all_columns if c.kind == "json")

    def _copy(self, stored: Stored) -> Stored:
        """A stored row that shares nothing mutable with `stored` (only json values can change)."""
        return {k: copy.deepcopy(v) if k in self._json else v for k, v in stored.items()}

    def create_table(self) -> None:
        pass

    def _load(self, key: str) -> Row | None:  # for the fold, which never changes what it loads
        stored = self._rows.get(key)
        return None if stored is None else self.spec.from_stored(stored)

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        with self._database_lock:
            def track(nid: int) -> None:
                self._assert_tracking_uniqueness(Tracking(tracking_name, nid))
                self._insert_tracking(Tracking(tracking_name, nid))

            before = self._max_tracking_ids[tracking_name]
            try:
                rows = self.spec.fold(batch, self._load, track)
            except BaseException:
                self._max_tracking_ids[tracking_name] = before  # roll back
                raise
            for key, row in rows.items():
                old = self._rows.get(key, self._defaults)
                self._rows[key] = {**{m: old[m] for m in self._defaults},
                                   **self._copy(self.spec.to_stored(key, row))}

    def keys(self) -> list[str]:
        with self._database_lock:
            return list(self._rows)

    def get(self, key: str) -> Row | None:
        with self._database_lock:
            stored = self._rows.get(key)
            return None if stored is None else self.spec.from_stored(self._copy(stored))

    def get_many(self, keys: Sequence[str]) -> dict[str, Row]:
        with self._database_lock:
            return {k: self.spec.from_stored(self._copy(self._rows[k])) for k in keys if k in self._rows}

    def select(self, where: Where, limit: int | None = None, offset: int = 0) -> list[Row]:
        with self._database_lock:
            chosen = where.sort([s for s in self._rows.values() if where.matches(s)])
            end = None if limit is None else offset + limit
            return [self.spec.from_stored(self._copy(s)) for s in chosen[offset:end]]

    def update(self, key: str, marks: Marks) -> bool:
        with self._database_lock:
            stored = self._rows.get(key)
            if stored is None:
                return False
            self._rows[key] = {**stored, **self._copy(marks)}
            return True

    def update_many(self, items: Sequence[tuple[str, Marks]]) -> None:
        for key, marks in items:
            self.update(key, marks)


# -- SQL: what SQLite and PostgreSQL do alike ------------------------------------------------------------------------


class SQLRows(ViewStore, ABC):
    """A read model's reads and writes in SQL; the stores give their statements, placeholder and value forms."""

    MARK: str  # the driver's placeholder
    _select: Any  # SELECT <every column> FROM <table>
    _by_key: Any  # ... WHERE <key> = <placeholder>
    _upsert: Any  # INSERT ... ON CONFLICT (<key>) DO UPDATE SET <every fold column but the key>, named parameters
    _json: list[str]  # the json columns

    @abstractmethod
    def _sql(self, text: str) -> Any:
        """Trusted SQL text (column names, placeholders) as the driver takes it."""

    @abstractmethod
    def _json_value(self, value: Any) -> Any:
        """A json column's value as the driver writes it."""

    @abstractmethod
    def _row(self, r: Any) -> Row:
        """The fold's row from a fetched one."""

    @abstractmethod
    def _update_sql(self, names: Sequence[str]) -> Any:
        """UPDATE <table> SET <each name> = <placeholder> WHERE <key> = <placeholder>."""

    @abstractmethod
    def _keys_clause(self, keys: Sequence[str]) -> tuple[str, list]:
        """The WHERE of a read of several keys, and its parameters."""

    def _rowcount(self, cursor: Any) -> int:
        return cursor.rowcount

    def _encoded(self, values: Stored) -> Stored:
        out = dict(values)
        for name in self._json:
            if out.get(name) is not None:
                out[name] = self._json_value(out[name])
        return out

    def _write(self, cursor: Any, values: Stored) -> None:
        cursor.execute(self._upsert, self._encoded(values))

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        # The first statement is a write, the tracking insert: SQLite takes the write lock and PostgreSQL the tracking
        # row's lock (a concurrent catch-up waits for this transaction, then fails its own insert) before any read.
        with self.datastore.transaction(commit=True) as cursor:
            def load(key: str) -> Row | None:
                cursor.execute(self._by_key, (key,))
                r = cursor.fetchone()
                return None if r is None else self._row(r)

            rows = self.spec.fold(batch, load, lambda nid: self._insert_tracking(cursor, Tracking(tracking_name, nid)))
            for key, row in rows.items():
                self._write(cursor, self.spec.to_stored(key, row))

    def get(self, key: str) -> Row | None:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._by_key, (key,))
            r = cursor.fetchone()
            return None if r is None else self._row(r)

    def get_many(self, keys: Sequence[str]) -> dict[str, Row]:
        if not keys:
            return {}
        clause, params = self._keys_clause(keys)
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._select + self._sql(clause), params)
            return {r[self.spec.key]: self._row(r) for r in cursor.fetchall()}

    def select(self, where: Where, limit: int | None = None, offset: int = 0) -> list[Row]:
        clauses, params = where.sql(self.MARK)  # fixed column names and placeholders only: the values are parameters
        if limit is not None:
            clauses, params = clauses + f" LIMIT {self.MARK} OFFSET {self.MARK}", [*params, limit, offset]
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._select + self._sql(clauses), params)
            return [self._row(r) for r in cursor.fetchall()]

    @abstractmethod
    def _has_table(self, cursor: Any, table: str) -> bool:
        """Whether the store holds a table of that name (in its schema)."""

    def _marks_row(self, r: Any) -> Marks:
        return {c.name: r[c.name] for c in self.spec.marks}

    def marks_in(self, table: str, where: str) -> dict[str, Marks]:
        names = ", ".join(c.name for c in (self.spec.columns[0], *self.spec.marks))
        with self.datastore.transaction(commit=False) as cursor:
            if not self._has_table(cursor, table):
                return {}
            cursor.execute(self._sql(f"SELECT {names} FROM {self._qualified(table)} WHERE {where}"))
            return {r[self.spec.key]: self._marks_row(r) for r in cursor.fetchall()}

    def _qualified(self, table: str) -> str:
        return table

    def update(self, key: str, marks: Marks) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._update_sql(list(marks)), [*self._encoded(marks).values(), key])
            return self._rowcount(cursor) > 0

    def update_many(self, items: Sequence[tuple[str, Marks]]) -> None:
        groups: dict[tuple[str, ...], list[tuple[str, Marks]]] = {}  # one statement per set of columns
        for key, marks in items:
            groups.setdefault(tuple(marks), []).append((key, marks))
        with self.datastore.transaction(commit=True) as cursor:
            for names, rows in groups.items():
                cursor.executemany(self._update_sql(names), [[*self._encoded(m).values(), key] for key, m in rows])


# -- SQLite --------------------------------------------------------------------------------------------------------


class SQLiteViewStore(SQLiteViewRecorder, SQLRows):
    """The table in the events' SQLite file; tracking in the library's `tracking` table."""

    MARK = "?"

    def __init__(self, datastore: SQLiteDatastore, spec: ViewTable):
        self.spec = spec  # before the library's constructor, which asks for the create statements
        super().__init__(datastore)
        names = [c.name for c in spec.columns]
        self._json = [c.name for c in spec.all_columns if c.kind == "json"]
        self._bool = [c.name for c in spec.all_columns if c.kind == "bool"]
        self._select = f"SELECT {', '.join(c.name for c in spec.all_columns)} FROM {spec.table}"
        self._by_key = self._select + f" WHERE {spec.key} = ?"
        self._upsert = (f"INSERT INTO {spec.table} ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)}) "
                        f"ON CONFLICT ({spec.key}) DO UPDATE SET {', '.join(f'{n}=excluded.{n}' for n in names[1:])}")

    def construct_create_table_statements(self) -> list[str]:
        spec = self.spec
        types = {"text": "TEXT", "int": "INTEGER", "bool": "INTEGER", "json": "TEXT"}
        columns = [f"{spec.key} {types[spec.columns[0].kind]} PRIMARY KEY"] + [
            f"{c.name} {types[c.kind]}{'' if c.null else ' NOT NULL'}{_sql_default(c, sqlite=True)}"
            for c in spec.all_columns[1:]]
        return super().construct_create_table_statements() + [
            f"CREATE TABLE IF NOT EXISTS {spec.table} ({', '.join(columns)})",
            *(f"CREATE UNIQUE INDEX IF NOT EXISTS {spec.table}_{c.name}_idx ON {spec.table} ({c.name})"
              for c in spec.all_columns if c.unique),
            *(f"CREATE INDEX IF NOT EXISTS {spec.table}_{suffix} ON {spec.table} ({cols})" for suffix, cols in spec.indexes),
        ]

    def _sql(self, text: str) -> str:
        return text

    def _json_value(self, value: Any) -> str:
        return json.dumps(value)

    def _row(self, r: Any) -> Row:
        stored = {c.name: r[c.name] for c in self.spec.all_columns}
        for name in self._json:
            if isinstance(stored[name], str):
                stored[name] = json.loads(stored[name])
        for name in self._bool:
            stored[name] = bool(stored[name])
        return self.spec.from_stored(stored)

    def _update_sql(self, names: Sequence[str]) -> str:
        return f"UPDATE {self.spec.table} SET {', '.join(f'{n} = ?' for n in names)} WHERE {self.spec.key} = ?"

    def _keys_clause(self, keys: Sequence[str]) -> tuple[str, list]:
        return f" WHERE {self.spec.key} IN ({','.join('?' * len(keys))})", list(keys)

    def _rowcount(self, cursor: Any) -> int:
        return cursor.sqlite_cursor.rowcount  # the library's cursor wrapper does not pass rowcount on

    def _has_table(self, cursor: Any, table: str) -> bool:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
        return cursor.fetchone() is not None

    def _marks_row(self, r: Any) -> Marks:
        marks = super()._marks_row(r)
        for c in self.spec.marks:
            if c.kind == "json" and isinstance(marks[c.name], str):
                marks[c.name] = json.loads(marks[c.name])
            elif c.kind == "bool":
                marks[c.name] = bool(marks[c.name])
        return marks


# -- PostgreSQL ----------------------------------------------------------------------------------------------------


class PostgresViewStore(PostgresViewRecorder, SQLRows):
    """Tables `<table>` and `<table>_tracking` in the application's schema."""

    MARK = "%s"

    def __init__(self, datastore: PostgresDatastore, spec: ViewTable):
        super().__init__(datastore, tracking_table_name=f"{spec.table}_tracking")
        self.spec = spec
        for suffix, _ in spec.indexes:
            self.check_identifier_length(f"{spec.table}_{suffix}")
        self._schema, self._table = Identifier(datastore.schema), Identifier(spec.table)
        types = {"text": "text", "int": "bigint", "bool": "boolean", "json": "jsonb"}
        definitions = [SQL("{0} " + types[spec.columns[0].kind] + " PRIMARY KEY").format(Identifier(spec.key))] + [
            SQL("{0} " + types[c.kind] + ("" if c.null else " NOT NULL") + (" UNIQUE" if c.unique else "")
                + _sql_default(c, sqlite=False)).format(Identifier(c.name)) for c in spec.all_columns[1:]]
        self.sql_create_statements.append(SQL("CREATE TABLE IF NOT EXISTS {0}.{1} ({2})").format(
            self._schema, self._table, SQL(", ").join(definitions)))
        for suffix, cols in spec.indexes:
            self.sql_create_statements.append(SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} (" + cols + ")").format(
                Identifier(f"{spec.table}_{suffix}"), self._schema, self._table))
        names = [c.name for c in spec.columns]
        self._json = [c.name for c in spec.all_columns if c.kind == "json"]
        self._select = SQL("SELECT {0} FROM {1}.{2}").format(
            SQL(", ").join(Identifier(c.name) for c in spec.all_columns), self._schema, self._table)
        self._by_key = self._select + SQL(" WHERE {0} = %s").format(Identifier(spec.key))
        self._upsert = SQL("INSERT INTO {0}.{1} ({2}) VALUES ({3}) ON CONFLICT ({4}) DO UPDATE SET {5}").format(
            self._schema, self._table, SQL(", ").join(Identifier(n) for n in names),
            SQL(", ").join(SQL("%({})s".format(n)) for n in names), Identifier(spec.key),
            SQL(", ").join(SQL("{0} = EXCLUDED.{0}").format(Identifier(n)) for n in names[1:]))

    def _sql(self, text: str) -> SQL:
        return SQL(text)

    def _json_value(self, value: Any) -> Jsonb:
        return Jsonb(value)

    def _row(self, r: Any) -> Row:  # psycopg gives jsonb decoded and booleans as bool
        return self.spec.from_stored({c.name: r[c.name] for c in self.spec.all_columns})

    def _write(self, cursor: Any, values: Stored) -> None:
        cursor.execute(self._upsert, self._encoded(values), prepare=True)

    def _update_sql(self, names: Sequence[str]) -> Composed:
        return SQL("UPDATE {0}.{1} SET {2} WHERE {3} = %s").format(
            self._schema, self._table, SQL(", ").join(SQL("{0} = %s").format(Identifier(n)) for n in names),
            Identifier(self.spec.key))

    def _keys_clause(self, keys: Sequence[str]) -> tuple[str, list]:
        return f" WHERE {self.spec.key} = ANY(%s)", [list(keys)]

    def _has_table(self, cursor: Any, table: str) -> bool:
        cursor.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = %s",
                       (self.datastore.schema.strip() or "public", table))
        return cursor.fetchone() is not None

    def _qualified(self, table: str) -> str:
        return f'"{self.datastore.schema.strip() or "public"}"."{table}"'  # names from the code, never from input
