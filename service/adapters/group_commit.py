"""Group commit: the events that several threads of one process save at the same moment go to the store in one
transaction, so they share one commit (one fsync, and on PostgreSQL one turn of the events table's lock).

A move's answer still waits for its own events to be committed: each caller returns only once the transaction
holding its events has committed, with its own notification ids, or raises its own error. Whoever finds no
transaction under way writes everything queued so far (its own events and any that arrived meanwhile); callers
that arrive while it writes queue for the next one. When a shared transaction fails (one caller's events were
stale: IntegrityError), nothing of it was stored, and each caller's events are written again on their own, so
only the stale caller sees the error. Inserts with a tracking record are never grouped.

The waiting is `Batches`' (also the checkpoint log's, service.evidence.checkpoints): each waiting thread sleeps on a gate
of its own that the writer opens once, when the thread's item is written or when it is the thread's turn to write
the next batch. (Before, the waiters queued on the writer's lock: each woke in turn only to find its events
written and pass the lock on, a chain of thread wake-ups, each needing the GIL, that the next batch's writer
waited behind.)
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any, Callable, ContextManager, Sequence


class Waiter:
    """One caller's item in a batch: its result or error once `done`."""

    __slots__ = ("item", "result", "error", "done", "lead", "gate")

    def __init__(self, item: Any) -> None:
        self.item = item
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False
        self.lead = False
        self.gate = threading.Lock()
        self.gate.acquire()  # released once by a writer: done, or this caller's turn to write


class Batches:
    """Items submitted by threads at the same moment, written together by one of them (leader and followers)."""

    def __init__(self, write: Callable[[list[Waiter]], None], around: Callable[[], ContextManager] | None = None):
        self._write = write  # sets each waiter's result or error
        self._around = around or contextlib.nullcontext  # held around each write (WriteLock: between processes)
        self._lock = threading.Lock()
        self._queue: list[Waiter] = []
        self._writing = False

    def submit(self, item: Any) -> Waiter:
        """Queue `item`; return its waiter once written (raises only if this caller's own write could not start)."""
        me = Waiter(item)
        with self._lock:
            self._queue.append(me)
            lead = not self._writing
            self._writing = True
        if not lead:
            me.gate.acquire()  # a writer opens it: written, or the next batch is this caller's to write
            if me.done:
                return me
        batch: list[Waiter] = []
        try:
            with self._around():
                with self._lock:
                    batch, self._queue = self._queue, []
                try:
                    self._write(batch)
                except BaseException as e:  # noqa: BLE001 - the write broke: no caller of this batch may think it stored
                    for w in batch:
                        if w.result is None and w.error is None:
                            w.error = e
                    raise
        finally:
            with self._lock:
                if not batch and me in self._queue:  # the write never started: this caller's item is not written
                    self._queue.remove(me)
                for w in batch:
                    w.done = True
                    if w is not me:
                        w.gate.release()
                if self._queue:  # arrived during the write: the first of them writes the next batch
                    self._queue[0].lead = True
                    self._queue[0].gate.release()
                else:
                    self._writing = False
        return me


class GroupCommit:
    """A recorder's `insert_events`, shared by the threads that call it at the same time."""

    def __init__(self, insert: Callable[..., Sequence[int] | None], across: Callable[[], ContextManager] | None = None):
        self._insert = insert
        self._batches = Batches(self._write, across)
        self.transactions = 0  # counters, for benchmarks and tests
        self.grouped = 0

    @property
    def _queue(self) -> list[Waiter]:
        return self._batches._queue

    def __call__(self, stored_events: Sequence[Any], **kwargs: Any) -> Sequence[int] | None:
        if any(v is not None for v in kwargs.values()):  # the library passes tracking=None on every save
            return self._insert(stored_events, **kwargs)
        mine = self._batches.submit(list(stored_events))
        if mine.error is not None:
            raise mine.error
        if not mine.done:  # cannot happen unless the writer itself broke: never report unsaved events as saved
            raise RuntimeError("group commit: the events were not written")
        return mine.result

    def _write(self, batch: list[Waiter]) -> None:
        if len(batch) > 1:
            try:
                ids = self._insert([e for w in batch for e in w.item])
            except Exception:  # noqa: BLE001 - nothing was stored: each caller's events go again on their own
                pass
            else:
                self.transactions += 1
                self.grouped += len(batch)
                start = 0
                for w in batch:
                    w.result = None if ids is None else list(ids[start:start + len(w.item)])
                    start += len(w.item)
                return
        for w in batch:
            try:
                w.result = self._insert(w.item)
                self.transactions += 1
                self.grouped += 1
            except BaseException as e:  # noqa: BLE001 - handed to its caller, who raises it
                w.error = e


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
