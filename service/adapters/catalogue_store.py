"""The game catalogue's rows in the store: where they live, how the notification log is pulled into them, and the
desk's queries (the rows themselves and their fold are projections/catalogue.py).

Over 300 lines on purpose: the three stores' forms of one table (memory, SQLite, PostgreSQL) sit side by side, so
that a column or a filter added to one is seen to be missing from the others.

The catalogue PULLS the application's notification log
(``app.recorder.select_notifications(start=position, limit=..., inclusive_of_start=False)``),
decodes each notification with ``app.mapper.to_domain_event`` and folds it into the
row of its game (``evolve``, a pure function). Every applied notification writes a
tracking record (the library's ``Tracking``) in the SAME transaction as the row
changes, through the library's tracking recorders, which we subclass (through
service.adapters.store_tables, whose ``create_table`` is safe with any number of processes
and threads opening a new store at once):

- ``memory://`` -> ``POPOCatalogueView(MemoryRows)``: a dict in the process,
  one per application object (two ``Catalogue`` objects of one app share it);
- ``sqlite:///`` -> ``SQLiteCatalogueView(SQLiteViewRecorder)`` on the application's
  own ``SQLiteDatastore``: table ``game_catalogue2`` in the events' database file, tracking
  in the library's ``tracking`` table (its name is fixed by the library);
- ``postgresql://`` -> ``PostgresCatalogueView(PostgresViewRecorder)`` on the
  application's own ``PostgresDatastore``: tables ``game_catalogue2`` and
  ``game_catalogue2_tracking`` in the application's schema.

The tracking key is ``f"{app.name}:catalogue"`` (not just the app's name), so other
projections may share the library's tracking table without meeting this one.

With the library's (default) single-row tracking, inserting a position not above the
stored one raises ``IntegrityError``: the transaction rolls back, so a notification is
never applied twice. Each notification in a batch gets its own tracking insert: the
first one takes the tracking row's lock (PostgreSQL) / the write lock (SQLite) before
any row is read, so two processes catching up at once serialise, and the later one
fails on its first insert, rolls back, re-reads the position and goes on from there.

Why some SQL is ours: the library has tracking recorders but no generic table for a
read model, so the ``game_catalogue2`` table, its upsert and its queries are written
here (portable SQL: text timestamps, JSON as text on SQLite / jsonb on PostgreSQL).

The table is ``game_catalogue3`` (tracking key ``<app>:catalogue3``): the first layout had an
``edition`` column for one game's option, the second no dispute counts; a new name makes every store rebuild
the catalogue from its events on first use, and leaves the old tables alone.

The referee's desk filters here, in SQL, never by loading games (``Query``): by game, status,
a player's name (``names``, a stored search key: each name case-folded between newlines), open
disputes and the latest verification's verdict (``tampered``); ``order="desk"`` lists games with
open disputes first, then the newest. A verification run records its verdict on the row
(``mark``): the catalogue never verifies anything itself, so the filter costs nothing.
"""

from __future__ import annotations

import copy
import json
import logging
import weakref
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore
from psycopg.sql import SQL, Identifier
from psycopg.types.json import Jsonb

from projections.catalogue import COLUMNS, Row, fold_batch

from .memory_rows import MemoryRows
from .store_tables import PostgresViewRecorder, SQLiteViewRecorder

log = logging.getLogger("arbiter.catalogue")
TABLE = "game_catalogue3"
BATCH = 200
STATUSES = ("in_progress", "finished")
# Stored columns: the public ones plus `seq`, the notification id of the game's Created event (list order), and
# `names`, the players' names as a search key. `tampered` and `integrity` are written by `mark` only.
_STORED = ("id", "seq") + COLUMNS[1:] + ("names",)
ORDERS = ("created", "desk")
MAX_PLAYER_QUERY = 64

_JSON = ("options", "players", "winner", "scores", "integrity")  # columns holding JSON
_SELECTED = _STORED + ("tampered", "integrity")  # what a read returns: the fold's columns and the latest verification's


@dataclass(frozen=True)
class Query:
    """Which rows, in which order: every filter left None matches every row."""

    status: str | None = None
    game: str | None = None
    player: str | None = None  # part of a player's name, in any case
    open_disputes: bool | None = None  # True: a dispute awaits a ruling; False: none does
    tampered: bool | None = None  # True: the latest verification failed; False: it passed, or there was none
    order: str = "created"  # "created": creation order; "desk": open disputes first, then the newest

    def pattern(self) -> str | None:
        """The player filter as a LIKE pattern on `names` (backslash escapes)."""
        if self.player is None:
            return None
        text = self.player.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return f"%{text}%"

    def matches(self, row: Row) -> bool:
        """Whether a stored row passes the filters (the in-memory view's test; the SQL views say the same in SQL)."""
        return ((self.status is None or row["status"] == self.status) and (self.game is None or row["game"] == self.game)
                and (self.player is None or self.player.casefold() in names_key(row["players"]))
                and (self.open_disputes is None or (row["open_disputes"] > 0) == self.open_disputes)
                and (self.tampered is None or bool(row.get("tampered")) == self.tampered))

    def sort(self, rows: list[Row]) -> list[Row]:
        """Rows in this query's order."""
        if self.order == "desk":
            return sorted(rows, key=lambda r: (r["open_disputes"] == 0, -r["seq"]))
        return sorted(rows, key=lambda r: r["seq"])

    def sql(self, mark: str) -> tuple[str, list]:
        """The WHERE and ORDER BY of this query (`mark`: the driver's placeholder) and its parameters."""
        where, params = [], []
        for column, value in (("status", self.status), ("game", self.game)):
            if value is not None:
                where.append(f"{column} = {mark}")
                params.append(value)
        if self.player is not None:
            where.append(f"names LIKE {mark} ESCAPE '\\'")
            params.append(self.pattern())
        if self.open_disputes is not None:
            where.append("open_disputes > 0" if self.open_disputes else "open_disputes = 0")
        if self.tampered is not None:
            where.append(f"tampered = {mark}")
            params.append(self.tampered)
        order = "(open_disputes > 0) DESC, seq DESC" if self.order == "desk" else "seq"
        return (" WHERE " + " AND ".join(where) if where else "") + f" ORDER BY {order}", params


def names_key(players: list) -> str:
    """The players' names as the player filter searches them: each case-folded, between newlines."""
    return "\n" + "\n".join(str(p.get("name", "")).casefold() for p in players) + "\n"


def _public(row: Row) -> dict:
    out = {k: copy.deepcopy(row[k]) for k in COLUMNS}
    out["integrity"] = copy.deepcopy(row.get("integrity"))
    return out



# -- the views: the library's tracking recorders plus our table -----------------------------------


class CatalogueView(TrackingRecorder, ABC):
    """Where the rows live, with the tracking record of how far the notification log was applied."""

    @abstractmethod
    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        """Fold a batch into the rows and record each notification id, all in one transaction.

        Raises IntegrityError (and changes nothing) if any of the ids was already tracked.
        """

    @abstractmethod
    def select_row(self, game_id: str) -> dict | None:
        """The row of one game."""

    @abstractmethod
    def select_rows(self, query: Query, limit: int, offset: int) -> list[dict]:
        """Rows filtered and ordered as the query says."""

    @abstractmethod
    def mark(self, game_id: str, integrity: dict) -> bool:
        """Keep a verification's verdict on a game's row (False when there is no row)."""

    def mark_many(self, marks: Sequence[tuple[str, dict]]) -> None:
        """`mark` for many games (game id, integrity), all in one transaction where the store has them."""
        for game_id, integrity in marks:
            self.mark(game_id, integrity)

    def select_many(self, game_ids: Sequence[str]) -> dict[str, dict]:
        """The rows of several games by id (a game with no row is left out), in one query where the store has them."""
        rows = {game_id: self.select_row(game_id) for game_id in game_ids}
        return {game_id: row for game_id, row in rows.items() if row is not None}


class POPOCatalogueView(MemoryRows, CatalogueView):
    """In-process rows (memory://): the state of one application object's catalogue."""

    fold = staticmethod(fold_batch)

    def select_row(self, game_id: str) -> dict | None:
        with self._database_lock:
            row = self._rows.get(game_id)
            return None if row is None else _public(row)

    def select_rows(self, query: Query, limit: int, offset: int) -> list[dict]:
        with self._database_lock:
            rows = query.sort([r for r in self._rows.values() if query.matches(r)])
            return [_public(r) for r in rows[offset:offset + limit]]

    def mark(self, game_id: str, integrity: dict) -> bool:
        with self._database_lock:
            row = self._rows.get(game_id)
            if row is None:
                return False
            self._rows[game_id] = {**row, "tampered": not integrity["ok"], "integrity": copy.deepcopy(integrity)}
            return True


_POPO_VIEWS: "weakref.WeakKeyDictionary[Any, POPOCatalogueView]" = weakref.WeakKeyDictionary()


def _sql_params(row: Row) -> dict:
    out = {k: row[k] for k in _STORED if k != "names"}
    for key in _JSON:
        if key in out:
            out[key] = None if row[key] is None else json.dumps(row[key])
    out["names"] = names_key(row["players"])
    return out


def _row_from_sql(r: Any) -> Row:
    row = {k: r[k] for k in _SELECTED}
    for key in _JSON:
        if isinstance(row[key], str):
            row[key] = json.loads(row[key])
    row["stacked"] = bool(row["stacked"])
    row["tampered"] = bool(row["tampered"])
    return row


class SQLiteCatalogueView(SQLiteViewRecorder, CatalogueView):
    """Table `game_catalogue2` in the events' SQLite file; tracking in the library's `tracking` table."""

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            f"CREATE TABLE IF NOT EXISTS {TABLE} ("
            "id TEXT PRIMARY KEY, seq INTEGER NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL, players TEXT NOT NULL, "
            "status TEXT NOT NULL, result TEXT, winner TEXT, scores TEXT, created_at TEXT NOT NULL, finished_at TEXT, "
            "version INTEGER NOT NULL, chain_head TEXT NOT NULL, stacked INTEGER NOT NULL, "
            "disputes INTEGER NOT NULL, open_disputes INTEGER NOT NULL, names TEXT NOT NULL, "
            "tampered INTEGER NOT NULL DEFAULT 0, integrity TEXT)",
            f"CREATE UNIQUE INDEX IF NOT EXISTS {TABLE}_seq_idx ON {TABLE} (seq)",
            f"CREATE INDEX IF NOT EXISTS {TABLE}_status_idx ON {TABLE} (status, seq)",
            f"CREATE INDEX IF NOT EXISTS {TABLE}_game_idx ON {TABLE} (game, seq)",
        ]

    _UPSERT = (f"INSERT INTO {TABLE} ({', '.join(_STORED)}) VALUES ({', '.join(':' + c for c in _STORED)}) "
               f"ON CONFLICT (id) DO UPDATE SET {', '.join(f'{c}=excluded.{c}' for c in _STORED if c != 'id')}")
    _SELECT = f"SELECT {', '.join(_SELECTED)} FROM {TABLE}"

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        # The first statement is a write (the tracking insert): SQLite takes the write lock
        # (waiting for other writers) before this transaction reads anything.
        with self.datastore.transaction(commit=True) as c:
            def load(gid: str) -> Row | None:
                c.execute(self._SELECT + " WHERE id = ?", (gid,))
                r = c.fetchone()
                return None if r is None else _row_from_sql(r)

            rows = fold_batch(batch, load, lambda nid: self._insert_tracking(c, Tracking(tracking_name, nid)))
            for row in rows.values():
                c.execute(self._UPSERT, _sql_params(row))

    def select_row(self, game_id: str) -> dict | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._SELECT + " WHERE id = ?", (game_id,))
            r = c.fetchone()
            return None if r is None else _public(_row_from_sql(r))

    def select_many(self, game_ids: Sequence[str]) -> dict[str, dict]:
        if not game_ids:
            return {}
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._SELECT + f" WHERE id IN ({','.join('?' * len(game_ids))})", list(game_ids))
            return {r["id"]: _public(_row_from_sql(r)) for r in c.fetchall()}

    def select_rows(self, query: Query, limit: int, offset: int) -> list[dict]:
        clauses, params = query.sql("?")
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._SELECT + clauses + " LIMIT ? OFFSET ?", (*params, limit, offset))
            return [_public(_row_from_sql(r)) for r in c.fetchall()]

    def mark(self, game_id: str, integrity: dict) -> bool:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"UPDATE {TABLE} SET tampered = ?, integrity = ? WHERE id = ?",
                      (not integrity["ok"], json.dumps(integrity), game_id))
            return c.sqlite_cursor.rowcount > 0  # the library's cursor wrapper does not pass rowcount on

    def mark_many(self, marks: Sequence[tuple[str, dict]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany(f"UPDATE {TABLE} SET tampered = ?, integrity = ? WHERE id = ?",
                          [(not integrity["ok"], json.dumps(integrity), game_id) for game_id, integrity in marks])


class PostgresCatalogueView(PostgresViewRecorder, CatalogueView):
    """Tables `game_catalogue2` and `game_catalogue2_tracking` in the application's schema."""

    def __init__(self, datastore: PostgresDatastore, *, table_name: str = TABLE):
        super().__init__(datastore, tracking_table_name=f"{table_name}_tracking")
        self.check_identifier_length(f"{table_name}_status_idx")
        schema, table = Identifier(datastore.schema), Identifier(table_name)
        self.sql_create_statements.append(SQL(
            "CREATE TABLE IF NOT EXISTS {0}.{1} ("
            "id text PRIMARY KEY, seq bigint NOT NULL UNIQUE, game text NOT NULL, options jsonb NOT NULL, "
            "players jsonb NOT NULL, status text NOT NULL, result text, winner jsonb, scores jsonb, created_at text NOT NULL, "
            "finished_at text, version bigint NOT NULL, chain_head text NOT NULL, stacked boolean NOT NULL, "
            "disputes bigint NOT NULL, open_disputes bigint NOT NULL, names text NOT NULL, "
            "tampered boolean NOT NULL DEFAULT false, integrity jsonb)"
        ).format(schema, table))
        for suffix, cols in (("status_idx", "status, seq"), ("game_idx", "game, seq")):
            self.sql_create_statements.append(SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} (" + cols + ")").format(
                Identifier(f"{table_name}_{suffix}"), schema, table))
        self._select = SQL("SELECT {0} FROM {1}.{2}").format(
            SQL(", ").join(Identifier(c) for c in _SELECTED), schema, table)
        self._mark = SQL("UPDATE {0}.{1} SET tampered = %s, integrity = %s WHERE id = %s").format(schema, table)
        self._upsert = SQL("INSERT INTO {0}.{1} ({2}) VALUES ({3}) ON CONFLICT (id) DO UPDATE SET {4}").format(
            schema, table, SQL(", ").join(Identifier(c) for c in _STORED),
            SQL(", ").join(SQL("%({})s".format(c)) for c in _STORED),
            SQL(", ").join(SQL("{0} = EXCLUDED.{0}").format(Identifier(c)) for c in _STORED if c != "id"))

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        # The first statement is the tracking upsert: it locks the tracking row (a concurrent
        # catch-up waits for this transaction, then fails its own insert) before any row is read.
        with self.datastore.transaction(commit=True) as curs:
            def load(gid: str) -> Row | None:
                curs.execute(self._select + SQL(" WHERE id = %s"), (gid,))
                r = curs.fetchone()
                return None if r is None else _row_from_sql(r)

            rows = fold_batch(batch, load, lambda nid: self._insert_tracking(curs, Tracking(tracking_name, nid)))
            for row in rows.values():
                params = {k: row[k] for k in _STORED if k != "names"}
                for key in _JSON:
                    if key in params:
                        params[key] = None if row[key] is None else Jsonb(row[key])
                params["names"] = names_key(row["players"])
                curs.execute(self._upsert, params, prepare=True)

    def select_row(self, game_id: str) -> dict | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._select + SQL(" WHERE id = %s"), (game_id,))
            r = curs.fetchone()
            return None if r is None else _public(_row_from_sql(r))

    def select_many(self, game_ids: Sequence[str]) -> dict[str, dict]:
        if not game_ids:
            return {}
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._select + SQL(" WHERE id = ANY(%s)"), (list(game_ids),))
            return {r["id"]: _public(_row_from_sql(r)) for r in curs.fetchall()}

    def select_rows(self, query: Query, limit: int, offset: int) -> list[dict]:
        clauses, params = query.sql("%s")  # fixed column names and placeholders only: the values are parameters
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._select + SQL(clauses + " LIMIT %s OFFSET %s"), (*params, limit, offset))
            return [_public(_row_from_sql(r)) for r in curs.fetchall()]

    def mark(self, game_id: str, integrity: dict) -> bool:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._mark, (not integrity["ok"], Jsonb(integrity), game_id))
            return curs.rowcount > 0

    def mark_many(self, marks: Sequence[tuple[str, dict]]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.executemany(self._mark, [(not integrity["ok"], Jsonb(integrity), game_id) for game_id, integrity in marks])


# -- the catalogue ---------------------------------------------------------------------------------


class Catalogue:
    """The game catalogue of one application: `catch_up()` pulls new notifications; `list`/`get` read rows."""

    def __init__(self, app: Any, view: CatalogueView):
        self.app = app  # keep a reference: a collected application closes its connection pool
        self.view = view
        self.tracking_name = f"{app.name}:catalogue2"

    @classmethod
    def for_app(cls, app: Any) -> "Catalogue":
        """The catalogue in the application's own store (memory://, sqlite:///..., postgresql://...).

        The backend follows the recorder the application's environment (from its database
        URL) gave it; the view's tables are created if missing (safe when other processes or threads open the
        store at the same moment: service.adapters.store_tables).
        """
        recorder = app.recorder
        if isinstance(recorder, POPOApplicationRecorder):
            view = _POPO_VIEWS.get(recorder)
            if view is None:
                view = _POPO_VIEWS[recorder] = POPOCatalogueView()
        elif isinstance(recorder, SQLiteApplicationRecorder):
            assert isinstance(recorder.datastore, SQLiteDatastore)
            view = SQLiteCatalogueView(recorder.datastore)
            view.create_table()
        elif isinstance(recorder, PostgresApplicationRecorder):
            view = PostgresCatalogueView(recorder.datastore)
            view.create_table()
        else:
            raise TypeError(f"no catalogue for a {type(recorder).__name__}: use memory://, sqlite:/// or postgresql://")
        return cls(app, view)

    def position(self) -> int:
        """The id of the last notification applied (0 before any)."""
        return self.view.max_tracking_id(self.tracking_name) or 0

    def catch_up(self, limit: int | None = None) -> int:
        """Apply notifications after the position (at most `limit`); returns how many this call applied.

        Safe to run from several objects or processes at once: a batch that another catch-up
        applied first is rolled back and skipped (its rows are already up to date).
        """
        if limit is not None and limit < 0:
            raise ValueError("limit: must be at least 0")
        applied = 0
        while limit is None or applied < limit:
            start = self.position()
            size = BATCH if limit is None else min(BATCH, limit - applied)
            notifications = self.app.recorder.select_notifications(start=start, limit=size, inclusive_of_start=False)
            if not notifications:
                break
            batch = [(n.id, _decoded(self.app.mapper, n)) for n in notifications]
            try:
                self.view.apply(self.tracking_name, batch)
            except IntegrityError:
                if self.position() < notifications[0].id:
                    raise  # nobody else applied them: a real integrity problem, not a race
                continue  # another catch-up got there first: go on from its position
            applied += len(batch)
            if len(notifications) < size:
                break
        return applied

    def get(self, game_id: UUID | str) -> dict | None:
        """The row of one game, or None (unknown id, or not caught up yet)."""
        try:
            key = str(UUID(str(game_id)))
        except ValueError:
            return None
        return self.view.select_row(key)

    def list(self, status: str | None = None, game: str | None = None, limit: int = 100, offset: int = 0,
             player: str | None = None, open_disputes: bool | None = None, tampered: bool | None = None,
             order: str = "created") -> list[dict]:
        """Rows in the order the games were created (`order="desk"`: open disputes first, then the newest),
        optionally only one status, game, player (part of a name, any case), with or without open disputes,
        tampered or not (as the latest verification found)."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"status: expected one of {', '.join(STATUSES)}")
        for name, value in (("limit", limit), ("offset", offset)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name}: must be an integer of at least 0")
        if order not in ORDERS:
            raise ValueError(f"order: expected one of {', '.join(ORDERS)}")
        if player is not None and (not isinstance(player, str) or not 1 <= len(player) <= MAX_PLAYER_QUERY
                                   or "\n" in player or "\x00" in player):
            raise ValueError(f"player: must be 1 to {MAX_PLAYER_QUERY} characters on one line")
        for name, value in (("open_disputes", open_disputes), ("tampered", tampered)):
            if value is not None and not isinstance(value, bool):
                raise ValueError(f"{name}: must be true or false")
        query = Query(status=status, game=game, player=player, open_disputes=open_disputes, tampered=tampered, order=order)
        return self.view.select_rows(query, limit, offset)

    def mark(self, game_id: UUID | str, integrity: dict) -> bool:
        """Keep what a verification run found (`integrity_of`) on the game's row; False when it has no row yet."""
        try:
            key = str(UUID(str(game_id)))
        except ValueError:
            return False
        return self.view.mark(key, integrity)

    def get_many(self, game_ids: Sequence[UUID | str]) -> dict[str, dict]:
        """`get` for several games at once (one query): their rows by id as text; a game with no row is left out."""
        keys = []
        for game_id in game_ids:
            try:
                keys.append(str(UUID(str(game_id))))
            except ValueError:
                continue
        return self.view.select_many(keys)

    def mark_many(self, marks: Sequence[tuple[UUID | str, dict]]) -> None:
        """`mark` for many games (game id, integrity) at once: one transaction (a game with no row is left alone)."""
        keyed = []
        for game_id, integrity in marks:
            try:
                keyed.append((str(UUID(str(game_id))), integrity))
            except ValueError:
                continue
        if keyed:
            self.view.mark_many(keyed)


def _decoded(mapper: Any, notification: Any) -> Any:
    """A notification's event, or None for a stored row that no longer decodes: the catalogue goes on without it
    (one damaged row must not stop the lobby; `arbiter verify` reports the row and the row it leaves behind)."""
    try:
        return mapper.to_domain_event(notification)
    except Exception:
        log.warning("catalogue: notification %s cannot be decoded", notification.id)
        return None

