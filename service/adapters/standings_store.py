"""Tournament standings in the store: the documents of projections/standings.py kept like the catalogue's rows
(service/adapters/catalogue_store.py): the application's notification log pulled, each applied notification tracked
in the same transaction as the rows it changed (the library's tracking recorders, subclassed per store).

Tables: ``tournament_standings`` (SQLite: in the events' file, tracking in the library's ``tracking`` table;
PostgreSQL: plus ``tournament_standings_tracking``); in memory a dict per application object.
"""

from __future__ import annotations

import copy
import json
import logging
import weakref
from abc import ABC, abstractmethod
from typing import Any, Sequence

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import get_topic
from psycopg.sql import SQL, Identifier
from psycopg.types.json import Jsonb

from domain.game import Game
from domain.tournament.aggregate import Tournament
from projections.standings import Doc, fold_batch

from .memory_rows import MemoryRows
from .store_tables import PostgresViewRecorder, SQLiteViewRecorder

log = logging.getLogger("arbiter.standings")
TABLE = "tournament_standings"
BATCH = 200


def fold_all(app: Any) -> dict[str, Doc]:
    """Every row, folded from the whole notification log in memory (the reference a materialised view must equal)."""
    rows: dict[str, Doc] = {}
    start = 0
    while True:
        batch = app.recorder.select_notifications(start=start, limit=BATCH, topics=TOPICS, inclusive_of_start=False)
        if not batch:
            return rows
        rows.update(fold_batch([(n.id, _decoded(app.mapper, n)) for n in batch], rows.get, lambda nid: None))
        start = batch[-1].id


class StandingsView(TrackingRecorder, ABC):
    """Where the documents live, with the tracking record of how far the notification log was applied."""

    @abstractmethod
    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        """Fold a batch and record each notification id, in one transaction (IntegrityError if already tracked)."""

    @abstractmethod
    def select(self, key: str) -> Doc | None: ...

    @abstractmethod
    def select_tournaments(self) -> list[Doc]: ...


class POPOStandingsView(MemoryRows, StandingsView):
    fold = staticmethod(fold_batch)

    def stored(self, rows: dict[str, Doc]) -> dict[str, Doc]:
        return copy.deepcopy(rows)

    def select(self, key: str) -> Doc | None:
        with self._database_lock:
            return copy.deepcopy(self._rows.get(key))

    def select_tournaments(self) -> list[Doc]:
        with self._database_lock:
            docs = [copy.deepcopy(d) for k, d in self._rows.items() if k.startswith("t:")]
        return sorted(docs, key=lambda d: d["seq"])


_POPO_VIEWS: "weakref.WeakKeyDictionary[Any, dict[str, POPOStandingsView]]" = weakref.WeakKeyDictionary()


class SQLiteStandingsView(SQLiteViewRecorder, StandingsView):
    def __init__(self, datastore: Any, table: str = TABLE):
        self.table = table  # before the library's constructor, which asks for the create statements
        super().__init__(datastore)

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            f"CREATE TABLE IF NOT EXISTS {self.table} (key TEXT PRIMARY KEY, seq INTEGER NOT NULL, doc TEXT NOT NULL)"]

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            def load(key: str) -> Doc | None:
                c.execute(f"SELECT doc FROM {self.table} WHERE key = ?", (key,))
                r = c.fetchone()
                return None if r is None else json.loads(r["doc"])

            rows = fold_batch(batch, load, lambda nid: self._insert_tracking(c, Tracking(tracking_name, nid)))
            for key, doc in rows.items():
                c.execute(f"INSERT INTO {self.table} (key, seq, doc) VALUES (?, ?, ?) "
                          "ON CONFLICT (key) DO UPDATE SET doc = excluded.doc", (key, doc.get("seq", 0), json.dumps(doc)))

    def select(self, key: str) -> Doc | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc FROM {self.table} WHERE key = ?", (key,))
            r = c.fetchone()
            return None if r is None else json.loads(r["doc"])

    def select_tournaments(self) -> list[Doc]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc FROM {self.table} WHERE key LIKE 't:%' ORDER BY seq")
            return [json.loads(r["doc"]) for r in c.fetchall()]


class PostgresStandingsView(PostgresViewRecorder, StandingsView):
    def __init__(self, datastore: Any, table: str = TABLE):
        super().__init__(datastore, tracking_table_name=f"{table}_tracking")
        schema, ident = Identifier(datastore.schema), Identifier(table)
        self.sql_create_statements.append(SQL(
            "CREATE TABLE IF NOT EXISTS {0}.{1} (key text PRIMARY KEY, seq bigint NOT NULL, doc jsonb NOT NULL)"
        ).format(schema, ident))
        self._select = SQL("SELECT doc FROM {0}.{1} WHERE key = %s").format(schema, ident)
        self._list = SQL("SELECT doc FROM {0}.{1} WHERE key LIKE 't:%%' ORDER BY seq").format(schema, ident)
        self._upsert = SQL("INSERT INTO {0}.{1} (key, seq, doc) VALUES (%s, %s, %s) "
                           "ON CONFLICT (key) DO UPDATE SET doc = EXCLUDED.doc").format(schema, ident)

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            def load(key: str) -> Doc | None:
                curs.execute(self._select, (key,))
                r = curs.fetchone()
                return None if r is None else r["doc"]

            rows = fold_batch(batch, load, lambda nid: self._insert_tracking(curs, Tracking(tracking_name, nid)))
            for key, doc in rows.items():
                curs.execute(self._upsert, (key, doc.get("seq", 0), Jsonb(doc)))

    def select(self, key: str) -> Doc | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._select, (key,))
            r = curs.fetchone()
            return None if r is None else r["doc"]

    def select_tournaments(self) -> list[Doc]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._list)
            return [r["doc"] for r in curs.fetchall()]


class Standings:
    """The standings of one application: `catch_up()` pulls new notifications; `get`/`tournaments` read documents."""

    def __init__(self, app: Any, view: StandingsView, table: str = TABLE):
        self.app = app
        self.view = view
        self.tracking_name = f"{app.name}:{table}"

    @classmethod
    def for_app(cls, app: Any, table: str = TABLE) -> "Standings":
        """The standings in the application's own store; `table` names another table (a rebuild from scratch)."""
        recorder = app.recorder
        if isinstance(recorder, POPOApplicationRecorder):
            views = _POPO_VIEWS.setdefault(recorder, {})
            view = views.get(table)
            if view is None:
                view = views[table] = POPOStandingsView()
        elif isinstance(recorder, SQLiteApplicationRecorder):
            view = SQLiteStandingsView(recorder.datastore, table)
            view.create_table()
        elif isinstance(recorder, PostgresApplicationRecorder):
            view = PostgresStandingsView(recorder.datastore, table)
            view.create_table()
        else:
            raise TypeError(f"no standings for a {type(recorder).__name__}")
        return cls(app, view, table)

    def position(self) -> int:
        return self.view.max_tracking_id(self.tracking_name) or 0

    def catch_up(self) -> int:
        """Apply the notifications after the position; returns how many (safe from several processes at once)."""
        applied = 0
        while True:
            start = self.position()
            notifications = self.app.recorder.select_notifications(start=start, limit=BATCH, topics=TOPICS, inclusive_of_start=False)
            if not notifications:
                return applied
            batch = [(n.id, _decoded(self.app.mapper, n)) for n in notifications]
            try:
                self.view.apply(self.tracking_name, batch)
            except IntegrityError:
                if self.position() < notifications[0].id:
                    raise
                continue
            applied += len(batch)
            if len(notifications) < BATCH:
                return applied

    def get(self, tournament_id: str) -> Doc | None:
        return self.view.select(f"t:{tournament_id}")

    def tournaments(self) -> list[Doc]:
        return self.view.select_tournaments()


_INTERESTING = (Tournament.Event, Game.SeedRevealed, Game.Rewound)
TOPICS = [get_topic(c) for c in (Tournament.Created, Tournament.PlayerEntered, Tournament.RoundStarted,
                                 Tournament.GameStarted, Tournament.Finished, Game.SeedRevealed, Game.Rewound)]


def _decoded(mapper: Any, notification: Any) -> Any:
    try:
        event = mapper.to_domain_event(notification)
    except Exception:
        log.warning("standings: notification %s cannot be decoded", notification.id)
        return None
    return event if isinstance(event, _INTERESTING) else None
