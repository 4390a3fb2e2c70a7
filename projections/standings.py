"""Tournament standings: a materialised read model kept like the catalogue (projections/catalogue.py).

It pulls the application's notification log and folds two kinds of events, each applied notification tracked in
the same transaction as the rows it changed (the library's tracking recorders, subclassed per store):

- the tournament's own events (domain/tournament/aggregate.py): settings, players, rounds, byes, its games and
  the seating of each (which player sat at which seat);
- the end of any of those games (the generic ``Game.SeedRevealed``: result, winner, scores) and a rewind that
  reopens one (``Game.Rewound``); no game's own event kinds are read.

Rows are JSON documents under a key: ``t:<tournament id>`` (the tournament's document) and ``g:<game id>`` (which
tournament a game belongs to). ``doc_standings(doc)`` turns a document into standings with the pure rules of
domain/tournament/standings.py, so the live standings, a rebuild from an empty table (``rebuild``) and the pure
fold over every event (``fold_all``) are the same function of the same events.

Tables: ``tournament_standings`` (SQLite: in the events' file, tracking in the library's ``tracking`` table;
PostgreSQL: plus ``tournament_standings_tracking``); in memory a dict per application object.
"""

from __future__ import annotations

import copy
import json
import logging
import weakref
from abc import ABC, abstractmethod
from typing import Any, Callable, Sequence

from eventsourcing.utils import get_topic
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from psycopg.sql import SQL, Identifier
from psycopg.types.json import Jsonb

from domain.game import Game
from domain.games import decider_for
from domain.tournament.aggregate import Tournament
from domain.tournament.standings import rank_by_of, standings

from .memory_rows import MemoryRows
from .store_tables import PostgresViewRecorder, SQLiteViewRecorder

log = logging.getLogger("arbiter.standings")
TABLE = "tournament_standings"
BATCH = 200
Doc = dict[str, Any]


# -- the fold ---------------------------------------------------------------------------------------


def evolve(load: Callable[[str], Doc | None], event: Any, seq: int) -> dict[str, Doc]:
    """The rows one event changes ({key: new document}); `load` reads a row (already changed ones included)."""
    if isinstance(event, Tournament.Created):
        key = f"t:{event.originator_id}"
        if load(key) is not None:
            return {}
        return {key: {"id": str(event.originator_id), "seq": seq, "settings": copy.deepcopy(event.settings),
                      "players": [], "rounds": 0, "games": [], "byes": [], "outcomes": {}, "finished": None}}
    if isinstance(event, Tournament.Event):
        key = f"t:{event.originator_id}"
        doc = load(key)
        if doc is None:
            return {}
        doc = copy.deepcopy(doc)
        changed = {key: doc}
        if isinstance(event, Tournament.PlayerEntered):
            doc["players"].append({"name": event.name} if event.team is None else {"name": event.name, "team": event.team})
        elif isinstance(event, Tournament.RoundStarted):
            doc["rounds"] = event.number
            doc["byes"] += [[event.number, p] for p in event.byes]
            doc.setdefault("tables", {})[str(event.number)] = [list(t["players"]) for t in event.tables]
        elif isinstance(event, Tournament.GameStarted):
            players = doc["tables"][str(event.round)][event.table]
            doc["games"].append({"round": event.round, "table": event.table, "index": event.index, "board": event.board,
                                 "game_id": event.game_id, "players": list(players)})
            changed[f"g:{event.game_id}"] = {"tournament": doc["id"]}
        elif isinstance(event, Tournament.Finished):
            doc["finished"] = event.reason
        return changed
    if isinstance(event, (Game.SeedRevealed, Game.Rewound)):
        link = load(f"g:{event.originator_id}")
        if link is None:
            return {}
        key = f"t:{link['tournament']}"
        doc = copy.deepcopy(load(key))
        gid = str(event.originator_id)
        if isinstance(event, Game.SeedRevealed):
            doc["outcomes"][gid] = {"status": "finished", "result": event.result, "winner": copy.deepcopy(event.winner),
                                    "scores": None if event.scores is None else list(event.scores)}
        else:
            decider = decider_for(doc["settings"]["game"])
            outcome = decider.outcome(decider.load_state(event.state))
            if outcome.is_over:
                doc["outcomes"][gid] = {"status": "finished", "result": outcome.result, "winner": outcome.winner_json(),
                                        "scores": None if outcome.scores is None else list(outcome.scores)}
            else:
                doc["outcomes"].pop(gid, None)
        return {key: doc}
    return {}


def fold_batch(batch: Sequence[tuple[int, Any]], load: Callable[[str], Doc | None],
               before_each: Callable[[int], None]) -> dict[str, Doc]:
    """Fold (notification id, event) pairs; returns every row to write."""
    rows: dict[str, Doc] = {}

    def current(key: str) -> Doc | None:
        return rows[key] if key in rows else load(key)

    for nid, event in batch:
        before_each(nid)
        if event is None:
            continue
        try:
            rows.update(evolve(current, event, nid))
        except Exception:  # a damaged event (arbiter verify reports it): the rows stay as they were
            log.warning("standings: notification %s cannot be applied", nid)
    return rows


def doc_standings(doc: Doc) -> dict:
    """A tournament document's standings (domain/tournament/standings.py), ranked as its settings say."""
    games = []
    for g in doc["games"]:
        outcome = doc["outcomes"].get(g["game_id"], {"status": "in_progress", "result": None, "winner": None, "scores": None})
        games.append({**g, **outcome})
    return standings(doc["players"], games, [tuple(b) for b in doc["byes"]], rank_by_of(doc["settings"]))


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


# -- the views --------------------------------------------------------------------------------------


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
