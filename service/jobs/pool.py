"""The background jobs' pool of worker processes (service.jobs.runner: analyses and fair-play reports): one per server process, started on its first
job with forkserver (workers forked from a clean server process, never from the threaded web server), else spawn.

A server's worker process may be stopped by its master without shutting its pool down; each analysis worker
therefore watches the process that started the pool and ends itself once that process is gone.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from itertools import islice
from typing import Any, Iterator

WATCH_SECONDS = 2.0  # how often a worker checks that its server process is still there


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_pool(workers: int) -> Executor:
    """A pool of `workers` analysis processes, each watching this process."""
    return ProcessPoolExecutor(workers, mp_context=_context(), initializer=_watch_server, initargs=(os.getpid(),))


def _watch_server(pid: int) -> None:
    """In each worker: end it once the server process that started the pool is gone (a server worker stopped by its
    master may leave without shutting its pool down)."""
    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            try:
                os.kill(pid, 0)
            except (ProcessLookupError, PermissionError):  # gone (or its pid now another user's process)
                os._exit(0)

    threading.Thread(target=watch, name="arbiter-analysis-watch", daemon=True).start()


def _context() -> Any:
    """The workers' start method: forkserver (not a fork of this threaded server process), else spawn."""
    import multiprocessing

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


def in_order(executor: Executor, fn: Any, tasks: list, window: int | None = None) -> Iterator[Any]:
    """`fn` of each task on the shared pool, yielded in order, with at most `window` tasks handed to the pool ahead
    of the one awaited (so that jobs running together share the workers, and a stopped job leaves little behind).
    Closed early (a job stopped), its tasks not yet started are taken back from the pool."""
    window = window or 2 * max(1, getattr(executor, "_max_workers", 1))
    pending: deque = deque()
    it = iter(tasks)
    try:
        for task in islice(it, window):
            pending.append(executor.submit(fn, task))
        while pending:
            result = pending.popleft().result()
            for task in islice(it, 1):
                pending.append(executor.submit(fn, task))
            yield result
    finally:
        for future in pending:
            future.cancel()
