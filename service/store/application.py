"""The store: arbiter's eventsourcing Application, chosen by URL, and what every concern reads and writes it with.

It holds games, their refused attempts, tournaments, studies, bot seats and seat offers (domain aggregates); it
loads them (a damaged row refused with Damaged, never a traceback), snapshots games, and runs every command through
one unit of work (`command`: service.store.unit_of_work). What a command decides is its concern's: the game's use
cases are service.play.referee's, a tournament's service.tournaments', and so on.
"""

from __future__ import annotations

import os
from typing import Any, Callable, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application

from domain.attempts import Attempts, attempts_id
from domain.game import Game
from domain.games import SPECS

from service.adapters.group_commit import GroupCommit, WriteLock
from service.adapters.store_tables import retried
from service.adapters.stores import DEFAULT_URL, ensure_schema, persistence_env, startup_lock, write_lock_path
from service.errors import NotFound

from .loading import UNREADABLE, damaged, project
from .snapshots import SNAPSHOT_INTERVAL, StateTranscoding, take_snapshots
from .unit_of_work import AggregateLocks, UnitOfWork, run

A = TypeVar("A")
T = TypeVar("T")


class Store(Application):
    """Stores every aggregate of arbiter; loads them, snapshots games and runs commands through one unit of work."""

    name = "arbiter"  # the library reads its settings under this name: a subclass must keep it
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, database_url: str = DEFAULT_URL, env: dict | None = None):
        self.database_url = database_url
        store_env = persistence_env(database_url)
        # fast-forwarded from the store on every get; AGGREGATE_CACHE_MAXSIZE=0 in the environment turns it off
        store_env["AGGREGATE_CACHE_MAXSIZE"] = os.environ.get("AGGREGATE_CACHE_MAXSIZE", "1000")
        store_env.update(env or {})

        def start() -> None:
            with startup_lock(store_env):  # workers starting at once would race on CREATE SCHEMA/TABLE/FUNCTION, WAL
                ensure_schema(store_env)
                super(Store, self).__init__(env=store_env)

        retried(start)  # again if a process outside the lock created the same objects at the same moment
        # moves saved at the same moment by this process's threads share one transaction (service.adapters.group_commit)
        lock_file = write_lock_path(store_env)
        across = None if lock_file is None else WriteLock(lock_file)  # a SQLite file's writers queue, not sleep
        self.recorder.insert_events = self.group_commit = GroupCommit(self.recorder.insert_events, across)
        self.lock = AggregateLocks()

    def _take_snapshots(self, processing_event) -> None:
        take_snapshots(self, processing_event)

    closed = False
    _quieters: tuple[Callable[[], None], ...] = ()

    def before_close(self, quiet: Callable[[], None]) -> None:
        """`quiet()` runs when the store closes, before its connections do: a thread reading this store (the duty
        loop, service.duty) ends what it is doing there first. sqlite3 closing a connection another thread is reading
        through crashes the process (a segmentation fault in CI, 2026-11-28), it does not raise."""
        self._quieters = (*self._quieters, quiet)

    def close(self) -> None:
        """Close the store's connections, once every thread registered with before_close has stopped using them."""
        self.closed = True
        for quiet in self._quieters:
            quiet()
        super().close()

    def register_transcodings(self, transcoder) -> None:
        super().register_transcodings(transcoder)
        for spec in SPECS.values():
            transcoder.register(StateTranscoding(spec))

    # -- the unit of work --------------------------------------------------------------------

    def command(self, aggregate_id: Any, decide: Callable[[UnitOfWork[A]], T], *, load: Callable[[Any], A],
                what: str) -> T:
        """Run one command on a stored aggregate: under its lock, `load(aggregate_id)`, `decide(uow)` (`uow.aggregate`
        is what was loaded; `uow.add(other)` saves another aggregate in the same transaction), save what changed;
        a version conflict decides again on fresh state, and too many raise Conflict naming `what`."""
        return run(self, self.lock(aggregate_id), aggregate_id, load, decide, what)

    # -- loading -----------------------------------------------------------------------------

    def aggregate_of(self, kind: type, aggregate_id: UUID, what: str):
        """The stored aggregate of class `kind` with this id (a tournament, a study); raises NotFound naming `what`
        when there is none, or when the id is another kind's."""
        try:
            aggregate = self.repository.get(aggregate_id)
        except AggregateNotFoundError:
            raise NotFound(f"no {what} with id {aggregate_id}") from None
        if not isinstance(aggregate, kind):
            raise NotFound(f"no {what} with id {aggregate_id}")
        return aggregate

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """A game, at its latest version or as at `version`; raises NotFound."""
        try:
            if version is None:
                return self.repository.get(game_id, projector_func=project)
            if version < 1:
                raise NotFound(f"game {game_id} has no version {version}: versions start at 1", field="version")
            game = self.repository.get(game_id, version=version, projector_func=project)
        except AggregateNotFoundError:
            raise NotFound(f"no game with id {game_id}") from None
        except UNREADABLE as e:
            raise damaged(game_id, e) from None
        if game.version != version:
            raise NotFound(f"game {game_id} has no version {version}: it is at version {game.version}", field="version")
        return game

    def attempts(self, game_id: UUID) -> Attempts | None:
        """A game's refused attempts (None while there are none)."""
        try:
            return self.repository.get(attempts_id(game_id), projector_func=project)
        except AggregateNotFoundError:
            return None
        except UNREADABLE as e:
            raise damaged(game_id, e) from None

    def stored_attempts(self, game_id: UUID) -> list:
        """Every stored event of a game's attempts stream, in order (empty while there are none)."""
        try:
            return list(self.events.get(attempts_id(game_id)))
        except UNREADABLE as e:
            raise damaged(game_id, e) from None

    def read_events(self, game_id: UUID, gt: int | None = None, lte: int | None = None) -> list:
        """A game's stored events in (gt, lte], decoded; raises Damaged for a row that cannot be read."""
        try:
            return list(self.events.get(game_id, gt=gt, lte=lte))
        except UNREADABLE as e:
            raise damaged(game_id, e) from None

    def stored_events(self, game_id: UUID) -> list:
        """Every stored event of a game, in order (for the audit log and its verification)."""
        return self.read_events(game_id)
