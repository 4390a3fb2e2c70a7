"""Group commit: the events that several threads of one process save at the same moment go to the store in one
transaction, so they share one commit (one fsync, and on PostgreSQL one turn of the events table's lock).

A move's answer still waits for its own events to be committed: each caller returns only once the transaction
holding its events has committed, with its own notification ids, or raises its own error. Whoever finds no
transaction under way writes everything queued so far (its own events and any that arrived meanwhile); callers
that arrive while it writes queue for the next one. When a shared transaction fails (one caller's events were
stale: IntegrityError), nothing of it was stored, and each caller's events are written again on their own, so
only the stale caller sees the error. Inserts with a tracking record are never grouped.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any, Callable, ContextManager, Sequence


class _Pending:
    __slots__ = ("events", "ids", "error", "done")

    def __init__(self, events: list) -> None:
        self.events = events
        self.ids: Sequence[int] | None = None
        self.error: BaseException | None = None
        self.done = False


class GroupCommit:
    """A recorder's `insert_events`, shared by the threads that call it at the same time."""

    def __init__(self, insert: Callable[..., Sequence[int] | None], across: Callable[[], ContextManager] | None = None):
        self._insert = insert
        self._across = across or contextlib.nullcontext  # held around each write (WriteLock: between processes)
        self._queue: list[_Pending] = []
        self._queue_lock = threading.Lock()
        self._writer = threading.Lock()
        self.transactions = 0  # counters, for benchmarks and tests
        self.grouped = 0

    def __call__(self, stored_events: Sequence[Any], **kwargs: Any) -> Sequence[int] | None:
        if any(v is not None for v in kwargs.values()):  # the library passes tracking=None on every save
            return self._insert(stored_events, **kwargs)
        mine = _Pending(list(stored_events))
        with self._queue_lock:
            self._queue.append(mine)
        with self._writer:
            if not mine.done:  # an earlier writer did not take it: write everything queued now
                with self._across():
                    with self._queue_lock:
                        batch, self._queue = self._queue, []
                    self._write(batch)
        if mine.error is not None:
            raise mine.error
        if not mine.done:  # cannot happen unless the writer itself broke: never report unsaved events as saved
            raise RuntimeError("group commit: the events were not written")
        return mine.ids

    def _write(self, batch: list[_Pending]) -> None:
        if len(batch) > 1:
            try:
                ids = self._insert([e for p in batch for e in p.events])
            except Exception:  # noqa: BLE001 - nothing was stored: each caller's events go again on their own
                pass
            else:
                self.transactions += 1
                self.grouped += len(batch)
                start = 0
                for p in batch:
                    p.ids = None if ids is None else list(ids[start:start + len(p.events)])
                    start += len(p.events)
                    p.done = True
                return
        for p in batch:
            try:
                p.ids = self._insert(p.events)
                self.transactions += 1
                self.grouped += 1
            except BaseException as e:  # noqa: BLE001 - handed to its caller, who raises it
                p.error = e
            p.done = True


class WriteLock:
    """An exclusive lock on a file beside a SQLite database, taken around each write by every process of the store.

    SQLite makes a writer that finds the database locked sleep and try again, in steps that grow to 100 ms; two
    busy worker processes then wait on each other's sleeps rather than on each other's writes. A process waiting
    for this lock (flock) is woken as soon as the other releases it. The lock file holds nothing; SQLite's own
    locking still guards the database, this lock only orders the writers that use it.
    """

    def __init__(self, path: str):
        self.path = path
        self._fd: int | None = None
        self._guard = threading.Lock()

    @contextlib.contextmanager
    def __call__(self):
        import fcntl

        with self._guard:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
