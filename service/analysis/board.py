"""The background jobs of one server process (docs/analysis.md "Over HTTP", docs/fairplay.md): computer analysis
(service.analysis.jobs) and the fair-play report (service.fairplay.jobs) share one board, so they share its bounds and
its one pool of worker processes (service.analysis.pool): the cores are the same whichever work asks for them.

One job per key (what makes two requests the same work): asked again, running or done, the same job comes back and
counts against no bound. At most `max_running` jobs run at a time in this process, `per_caller` of them for one
caller; beyond that, `TooBusy` (429 with Retry-After). The last `kept` finished jobs are kept in memory; a failed job
is forgotten (asked again, it runs again). `close` stops every running job at its next step (its progress call).

The board knows nothing of what a job computes: its owner gives `run` the work, the failures it expects (their
message is the job's error) and what to do on each change (analysis tells its stream).
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from service.errors import TooBusy

from .facade import default_workers
from .pool import worker_pool

log = logging.getLogger("arbiter.analysis")

RETRY_AFTER = 10  # seconds: a busy answer's Retry-After


@dataclass
class Job:
    """One background job: its state, its progress and what it made (lines as they come, or one result)."""

    id: str
    key: Hashable
    what: str = "job"  # what it computes, in its messages ("analysis", "fair-play report")
    viewers: set = field(default_factory=set)  # who asked (an analysis tells them its progress on the stream)
    callers: set = field(default_factory=set)  # who asked, as counted by the per-caller bound
    status: str = "running"
    done: int = 0
    total: int | None = None
    lines: list = field(default_factory=list)
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.time)
    finished: float | None = None


class Stopped(Exception):
    """A job stopped by `JobBoard.close`."""


class JobBoard:
    """The jobs of one process (see the module doc)."""

    def __init__(self) -> None:
        self.workers = default_workers()  # the shared pool's processes; 1: each job runs in its own thread alone
        self.max_running = 2
        self.per_caller = 1
        self.kept = 64
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._by_key: dict[Hashable, Job] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()  # finished jobs, oldest first
        self._pool: Executor | None = None
        self._closed = threading.Event()

    def configure(self, workers: int | None = None, max_running: int | None = None, per_caller: int | None = None,
                  kept: int | None = None) -> None:
        """Set the bounds (the app's config): None leaves one as it is."""
        self.workers = self.workers if workers is None else max(1, int(workers))
        self.max_running = self.max_running if max_running is None else max(1, int(max_running))
        self.per_caller = self.per_caller if per_caller is None else max(1, int(per_caller))
        self.kept = self.kept if kept is None else max(1, int(kept))

    def admit(self, key: Hashable, caller: str, what: str, viewer: Any = None,
              job_id: str | None = None) -> tuple[Job, bool]:
        """The job of `key` and whether it is new (the caller then starts it with `run`); raises TooBusy when a new
        job would pass a bound. `what` names the work in the busy answer ("analysis", "fair-play report"); `job_id`: the
        new job's id when its kind names jobs by their key (else a random one)."""
        with self._lock:
            job = self._by_key.get(key)
            if job is not None:
                if viewer is not None:
                    job.viewers.add(viewer)
                return job, False
            running = [j for j in self._jobs.values() if j.status == "running"]
            if len(running) >= self.max_running:
                raise TooBusy(f"{len(running)} background jobs (analyses, fair-play reports) are running on this "
                              f"server, its most at a time: try again in a little while", retry_after=RETRY_AFTER)
            if sum(1 for j in running if caller in j.callers) >= self.per_caller:
                raise TooBusy(f"you have {self.per_caller} {what} running already (at most {self.per_caller} at a "
                              f"time for one caller): try again once it is done", retry_after=RETRY_AFTER)
            job = Job(job_id or secrets.token_hex(8), key, what, {viewer} if viewer is not None else set(), {caller})
            self._jobs[job.id], self._by_key[key] = job, job
        return job, True

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(str(job_id))

    def find(self, key: Hashable) -> Job | None:
        """The running or done job of `key`, if this process has it (a failed one is forgotten)."""
        return self._by_key.get(key)

    def running(self) -> int:
        """How many jobs run now."""
        return sum(1 for j in list(self._jobs.values()) if j.status == "running")

    def run(self, job: Job, work: Callable[[Job, Executor | None], None], expected: tuple = (),
            told: Callable[[Job], None] = lambda job: None) -> None:
        """Start `work(job, executor)` on a thread of its own: it fills the job (total, lines or result) and calls
        `step(job, done)` after each unit. The job then reads done, or failed with a message: an expected failure's
        own, a stopped server's, or a plain one (no traceback in a log line: it may hold cards)."""
        def body() -> None:
            try:
                work(job, self._executor())
                job.status = "done"
            except (Stopped, *expected) as e:
                job.status, job.error = "failed", str(e)
            except BrokenProcessPool:
                log.error("a worker died; the pool is started again for the next job")
                with self._lock:
                    self._pool = None
                job.status, job.error = "failed", f"a worker of this {job.what} stopped: ask again"
            except Exception as e:  # noqa: BLE001 - the job says it failed
                log.error("background job %s failed: %s", job.id, type(e).__name__)
                job.status, job.error = "failed", f"the {job.what} could not be completed"
            finally:
                job.finished = time.time()
                self._finish(job)
                told(job)

        threading.Thread(target=body, name=f"arbiter-job-{job.id}", daemon=True).start()

    def step(self, job: Job, done: int) -> None:
        """A job's progress: `done` units so far; raises Stopped once the board is closed."""
        if self._closed.is_set():
            raise Stopped(f"the server stopped this {job.what}")
        job.done = done

    def _finish(self, job: Job) -> None:
        with self._lock:
            if job.status != "done":
                self._by_key.pop(job.key, None)
            self._finished[job.id] = None
            while len(self._finished) > self.kept:
                old = self._jobs.pop(self._finished.popitem(last=False)[0], None)
                if old is not None and self._by_key.get(old.key) is old:
                    del self._by_key[old.key]

    def _executor(self) -> Executor | None:
        """The process's one pool of workers (None with one worker: the job's thread does the work)."""
        if self.workers <= 1:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = worker_pool(self.workers)
                atexit.register(self.close)  # a server going down takes its workers with it
            return self._pool

    def close(self) -> None:
        """Stop the workers; each running job fails at its next step (a server shutting down, a test's end)."""
        self._closed.set()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def caller_of(token: str | None, address: str | None) -> str:
    """Who asks, for the per-caller bound: a token (its hash: a token is never kept), else the caller's address."""
    if token is not None:
        return "token " + hashlib.sha256(token.encode()).hexdigest()
    return f"address {address or 'unknown'}"


def iso(at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))
