"""One unit of work for every command on a stored aggregate (a game, a tournament, a game's bot seats or open seats,
a study): under the aggregate's lock in this process, load it, let the caller decide, and save what the decision
registered — the aggregate and whatever it added (a game's refused attempts) — in one transaction.

One rule for a version conflict (another writer saved first: eventsourcing's IntegrityError, whose failed save has
already drained the pending events): decide again on fresh state, at most MAX_RETRIES times, then Conflict naming
what was busy. A decision that changes nothing writes nothing. A decision that raises saves nothing; one that must
save something and still refuse (a refused move, kept in the attempts stream) registers what to save and returns a
value saying so, and its caller raises after the commit: nothing to save ever travels back inside a result.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any, Callable, Generic, Hashable, TypeVar

from eventsourcing.persistence import IntegrityError

from service.errors import Conflict

A = TypeVar("A")
T = TypeVar("T")
MAX_RETRIES = 50


class UnitOfWork(Generic[A]):
    """One try of a command: the aggregate it loaded, and every aggregate registered to be saved with it."""

    def __init__(self, aggregate: A):
        self.aggregate = aggregate
        self._loaded_at = aggregate.version  # a loader's new aggregate (not stored yet) is saved only if decided on
        self._added: list[Any] = []

    def add(self, *aggregates: Any) -> None:
        """Save these too, in the same transaction as the aggregate."""
        for aggregate in aggregates:
            if aggregate is not self.aggregate and not any(aggregate is kept for kept in self._added):
                self._added.append(aggregate)

    def changed(self) -> list[Any]:
        """What to save: the aggregate if the decision recorded anything on it, and every added one with events."""
        mine = [self.aggregate] if self.aggregate.version != self._loaded_at else []
        return mine + [a for a in self._added if a.pending_events]


class AggregateLocks:
    """One lock per aggregate id in this process: its writers queue here instead of conflicting in the store (across
    processes only the store's version check decides)."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, threading.Lock] = defaultdict(threading.Lock)
        self._guard = threading.Lock()

    def __call__(self, aggregate_id: Hashable) -> threading.Lock:
        with self._guard:
            return self._locks[aggregate_id]


def run(app: Any, lock: threading.Lock, aggregate_id: Any, load: Callable[[Any], A],
        decide: Callable[[UnitOfWork[A]], T], what: str) -> T:
    """Load, decide, save in one transaction; on a version conflict decide again on fresh state (see the module)."""
    with lock:
        for _ in range(MAX_RETRIES):
            uow = UnitOfWork(load(aggregate_id))
            result = decide(uow)
            changed = uow.changed()
            if not changed:
                return result  # nothing changed: nothing written
            try:
                app.save(*changed)
            except IntegrityError:
                continue  # another writer saved first: the whole decision again, on what the store holds now
            if app.repository.cache is not None:  # the next load fast-forwards from here, not re-applying these
                for aggregate in changed:
                    app.repository.cache.put(aggregate.id, aggregate)
            return result
    raise Conflict(f"{what} is too busy: nothing was changed, try again")
