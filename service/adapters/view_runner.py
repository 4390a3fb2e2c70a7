"""One runner for every materialised read model: it pulls the application's notification log into a view's table.

The catalogue (service.adapters.catalogue_store) and the tournament standings (service.adapters.standings_store)
are each a ``ViewTable`` (service.adapters.view_table: columns, fold, topics) run by this one ``ViewRunner`` on one
of the stores of service.adapters.view_stores. ``catch_up()`` reads the notifications after the view's tracked
position, or after the last id it read up to if that is later (``app.recorder.select_notifications(start=position,
limit=200, stop=<the log's last id>, topics=..., inclusive_of_start=False)``: a view whose topics are rare is not
scanned from its position to the end of the log each time, which made every duplicate-board hold cost a scan of the
whole log, docs/benchmarks.md),
decodes each with the application's mapper (a row that no longer decodes is folded as None: one damaged row must
not stop the lobby; ``arbiter verify`` reports it) and applies the batch with its tracking records in one
transaction. A batch that another catch-up (another thread, another worker) applied first fails on its tracking
insert and rolls back; the runner re-reads the position and goes on from there. The views are read where they are
needed, caught up first (catch-up on read), so a page shows what the request before it wrote.

Why not the library's ``eventsourcing.projection.ProjectionRunner`` (measured with ``python -m bench.projection_runner``
on eventsourcing 9.5.6, 2026-11-25, 300 games = 900 notifications; the table is in docs/benchmarks.md):

- SQLite, arbiter's default store, cannot be followed: ``SQLiteApplicationRecorder.subscribe`` raises
  ``NotImplementedError``, and the runner follows a subscription.
- The runner builds its own application object from the environment (``application_class(env)``); on memory://
  that is a new, empty store: it saw 0 of the serving application's 15 notifications.
- PostgreSQL, where it runs (two runs, a busy machine then a quieter one): a page read right after a write waits
  for the runner's thread, and ``runner.wait`` polls from 100 ms up: reading-your-writes took a median of 104 ms
  both times against 22 / 10 ms for a catch-up in the reading thread. Its one transaction per event rebuilt the
  catalogue in 9.7 / 5.7 s against 1.4 / 0.63 s in batches of 200. Two workers each starting a runner on one view
  (gunicorn starts two): the slower one's tracking insert failed and its thread stopped with ``IntegrityError`` (a
  runner has no "another worker applied it" case). Each runner opened 7 to 12 more PostgreSQL sessions (its own
  application's pool, its view's, a LISTEN session).

What is kept of the library: its tracking recorders (the views are ``SQLiteTrackingRecorder``,
``PostgresTrackingRecorder`` and ``POPOTrackingRecorder``, with the first-start-safe ``create_table`` of
service.adapters.store_tables), its ``Tracking`` records and their uniqueness, its notification log.
"""

from __future__ import annotations

import logging
import threading
import weakref
from dataclasses import replace
from typing import Any

from eventsourcing.persistence import IntegrityError
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from .view_stores import MemoryViewStore, PostgresViewStore, SQLiteViewStore, ViewStore
from .view_table import Row, ViewTable

log = logging.getLogger("arbiter.views")
BATCH = 200

# memory://: one store per application recorder and table (two runners of one app share it)
_MEMORY: "weakref.WeakKeyDictionary[Any, dict[str, MemoryViewStore]]" = weakref.WeakKeyDictionary()


def store_for(app: Any, spec: ViewTable) -> ViewStore:
    """The view's table in the application's own store (memory://, sqlite:///..., postgresql://...), created if
    missing (safe when other processes or threads open the store at the same moment: service.adapters.store_tables)."""
    recorder = app.recorder
    if isinstance(recorder, POPOApplicationRecorder):
        stores = _MEMORY.setdefault(recorder, {})
        if spec.table not in stores:
            stores[spec.table] = MemoryViewStore(spec)
        return stores[spec.table]
    if isinstance(recorder, SQLiteApplicationRecorder):
        assert isinstance(recorder.datastore, SQLiteDatastore)
        store: ViewStore = SQLiteViewStore(recorder.datastore, spec)
    elif isinstance(recorder, PostgresApplicationRecorder):
        store = PostgresViewStore(recorder.datastore, spec)
    else:
        raise TypeError(f"no {spec.table} for a {type(recorder).__name__}: use memory://, sqlite:/// or postgresql://")
    store.create_table()
    return store


class ViewRunner:
    """A read model of one application: `catch_up()` pulls new notifications into `view` (its store)."""

    SPEC: ViewTable  # the read model's table; a subclass names it

    def __init__(self, app: Any, view: ViewStore):
        self.app = app  # keep a reference: a collected application closes its connection pool
        self.view = view
        self.spec = view.spec
        self.tracking_name = f"{app.name}:{view.spec.table}"
        # the last notification id this runner read up to: none of its topics lies between the tracked position and
        # it that is not applied (so a view whose topics are rare, the standings, is not scanned from its position
        # to the end of the log at every catch-up: ids commit in order on every store, as the tracking relies on)
        self._read_to = 0
        # the highest tracked position any catch-up of this object saw (never lowered by a slower thread): after a
        # catch-up returns it is at least the position that catch-up ensured; the rows change only when it moves
        self.at = 0
        self._at_lock = threading.Lock()

    @classmethod
    def for_app(cls, app: Any, table: str | None = None) -> Any:
        """The read model in the application's own store; `table` names another table (a rebuild from scratch)."""
        spec = cls.SPEC if table is None else replace(cls.SPEC, table=table)
        return cls(app, store_for(app, spec))

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
        top = self.app.recorder.max_notification_id() or 0  # read up to here (a later one is the next catch-up's)
        while limit is None or applied < limit:
            position = self.position()
            self._saw(position)
            size = BATCH if limit is None else min(BATCH, limit - applied)
            notifications = self.app.recorder.select_notifications(
                start=max(position, self._read_to), limit=size, stop=top, topics=self.spec.topics,
                inclusive_of_start=False)
            if not notifications:
                self._read_to = max(self._read_to, top)
                break
            batch = [(n.id, self._decoded(n)) for n in notifications]
            try:
                self.view.apply(self.tracking_name, batch)
            except IntegrityError:
                if self.position() < notifications[0].id:
                    raise  # nobody else applied them: a real integrity problem, not a race
                continue  # another catch-up got there first: go on from its position
            applied += len(batch)
            self._saw(notifications[-1].id)
            if len(notifications) < size:
                self._read_to = max(self._read_to, top)
                break
        return applied

    def _saw(self, position: int) -> None:
        with self._at_lock:
            self.at = max(self.at, position)

    def _decoded(self, notification: Any) -> Any:
        """A notification's event, or None for a stored row that no longer decodes."""
        try:
            return self.app.mapper.to_domain_event(notification)
        except Exception:
            log.warning("%s: notification %s cannot be decoded", self.spec.table, notification.id)
            return None


def fold_log(app: Any, spec: ViewTable) -> dict[str, Row]:
    """Every row of a view folded in memory from the whole notification log (the reference its table must equal)."""
    runner = ViewRunner(app, MemoryViewStore(spec))  # a store of its own, whatever the application's
    runner.catch_up()
    return runner.view.get_many(runner.view.keys())
