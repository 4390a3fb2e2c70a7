"""The background jobs of a deployment, run by whichever server process is free (docs/analysis.md "Jobs"): computer
analysis (service.analysis.jobs) and the fair-play report (service.fairplay.jobs) ask for jobs here; every process's
runner takes jobs from the store's queue (service.jobs.table) and runs them on the process's one pool of
worker processes (service.jobs.pool).

A job is one row of the store, keyed by what it computes: asked from any process or host, the same request is the
same job, and its result, stored once done, answers every later asker (who may read it is its kind's rule, checked
before the runner is asked). One loop thread a process: every HEARTBEAT seconds it renews the lease of each job it
runs (writing its progress) and reads whether the job was cancelled, then takes free jobs while it runs fewer than
`max_running`. A host that dies stops renewing: once its lease (LEASE seconds) runs out, another process takes the
job and runs it again from its start. A cancelled job is stopped by its worker at its next heartbeat (within
HEARTBEAT seconds): the job's thread stops at its next unit of work and its unstarted units are dropped from the pool.
A server that shuts down cleanly gives its running jobs back to the queue at once.

What a job computes is its kind's: `register(kind, work, expected)`; `work(row, step, executor)` returns the result
(JSON-safe) and calls `step(done, total)` after each unit, which raises Stopped once the job must stop.

Over 300 lines on purpose: the askers' side (ask, view, cancel) and the workers' side (heartbeats, claims, the job's
thread, the stop) of one job's life read together, each deciding what the other sees in the store.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable

from service.errors import TooBusy

from .pool import default_workers, worker_pool

from .rules import CANCELLED, COST_HISTORY, DONE, FAILED, JobRow, Limits, cost_per_unit, estimate, position
from .table import JobTable, Refused, jobs_for

log = logging.getLogger("arbiter.jobs")

HEARTBEAT = 0.5  # seconds between a worker's heartbeats (its progress written, its cancel read)
LEASE = 15.0  # seconds a heartbeat holds a job for: a dead host's job passes to another process after about this
RETRY_AFTER = 10  # seconds: a busy answer's Retry-After
CANCEL_WAIT = 2.0  # seconds a cancel waits for the running worker's answer

Work = Callable[[JobRow, Callable[[int, int | None], None], Executor | None], Any]


class Stopped(Exception):
    """A job told to stop: cancelled, its lease lost, or its server shutting down."""


@dataclass
class Kind:
    work: Work
    expected: tuple = ()  # the failures it expects: their message is the job's error
    what: str = "job"  # its name in messages ("analysis", "fair-play report")
    told: Callable[[str, str, int, int | None], None] = lambda job_id, status, done, total: None


@dataclass
class Running:
    """A job this process runs: its row as taken, the holder id of its lease, its progress and why it stops."""

    row: JobRow
    holder: str
    done: int = 0
    total: int | None = None
    stop: str | None = None  # "cancel", "lost", "closed"
    thread: threading.Thread | None = field(default=None, repr=False)


@dataclass(frozen=True)
class View:
    """A job as an asker sees it: its row, its place in the queue and the seconds it should take from now."""

    row: JobRow
    position: int | None
    estimate: float | None


class JobRunner:
    """One process's runner over one store's jobs (see the module doc)."""

    def __init__(self, database_url: str):
        self.database_url = database_url
        self.workers = default_workers()
        self.max_running = 2
        self.limits = Limits()
        self.lease = LEASE
        self.kinds: dict[str, Kind] = {}
        self._table: JobTable | None = None
        self._running: dict[str, Running] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: Executor | None = None

    @property
    def table(self) -> JobTable:
        with self._lock:
            if self._table is None:
                self._table = jobs_for(self.database_url)
            return self._table

    def configure(self, workers: int | None = None, max_running: int | None = None, per_asker: int | None = None,
                  per_address: int | None = None, queued: int | None = None, lease: float | None = None) -> None:
        """Set the bounds (the app's config): None leaves one as it is."""
        self.workers = self.workers if workers is None else max(1, int(workers))
        self.max_running = self.max_running if max_running is None else max(1, int(max_running))
        lim = self.limits
        self.limits = Limits(lim.per_asker if per_asker is None else max(1, int(per_asker)),
                             lim.per_address if per_address is None else max(1, int(per_address)),
                             lim.queued if queued is None else max(1, int(queued)))
        self.lease = self.lease if lease is None else max(2 * HEARTBEAT, float(lease))

    def register(self, kind: str, work: Work, expected: tuple = (), what: str = "job",
                 told: Callable[[str, str, int, int | None], None] | None = None) -> None:
        """What jobs of `kind` compute; this process takes such jobs from now on."""
        self.kinds[kind] = Kind(work, expected, what, told or Kind.told)

    # -- the askers' side ----------------------------------------------------------------------

    def ask(self, job_id: str, kind: str, subject: str, game: str, request: dict, owner: str, address: str,
            units: int) -> tuple[JobRow, bool]:
        """The job of `job_id`, queued now if it is new (or failed, or cancelled, before); whether it was. Raises
        TooBusy (429) past a limit (service.jobs.rules.refusal)."""
        try:
            row, new = self.table.ask(job_id, kind, subject, game, request, owner, address, units, self.limits,
                                      self.kinds[kind].what)
        except Refused as e:
            raise TooBusy(str(e), retry_after=RETRY_AFTER) from None
        if new:
            self.start()
        elif row.status == DONE:
            row = self.table.get(job_id) or row  # with its result
        return row, new

    def get(self, job_id: str) -> JobRow | None:
        return self.table.get(job_id)

    def view(self, row: JobRow) -> View:
        """The job as its askers see it: its place in the queue and its estimate (from the store's queue and the
        measured cost of past jobs of the same kind and game); this process's own progress if it runs it."""
        mine = self._running.get(row.id)
        if mine is not None and row.status == "running":
            row.done, row.total = max(row.done, mine.done), mine.total if mine.total is not None else row.total
        if row.status not in ("queued", "running"):
            return View(row, None, None)
        active, priced = self.table.queue_state(COST_HISTORY)
        for r in active:
            if r.id == row.id:
                r.done, r.total = row.done, row.total
        costs = {r.id: cost_per_unit(priced.get(r.id, []), r.kind) for r in active}
        return View(row, position(active, row.id), estimate(active, row.id, costs))

    def cancel(self, job_id: str) -> JobRow | None:
        """Cancel a job (the caller checked the asker may): queued, at once; running, by its worker within about a
        heartbeat, which this call waits for (up to CANCEL_WAIT seconds: a worker whose host died leaves the job
        `running` until its lease runs out, then `cancelled`)."""
        row = self.table.cancel(job_id)
        self._wake.set()
        end = time.monotonic() + CANCEL_WAIT
        while row is not None and row.status == "running" and time.monotonic() < end:
            time.sleep(HEARTBEAT / 5)  # its worker answers at its next heartbeat: the answer says it was done
            row = self.table.get(job_id)
        return row

    def running(self) -> int:
        """How many jobs this process runs now."""
        return len(self._running)

    # -- the workers' side ---------------------------------------------------------------------

    def start(self) -> "JobRunner":
        """Start the loop (once; later calls wake it)."""
        with self._lock:
            if self._thread is None and not self._closed.is_set():
                self._thread = threading.Thread(target=self._loop, name="arbiter-jobs", daemon=True)
                self._thread.start()
                atexit.register(self.close)
        self._wake.set()
        return self

    def _loop(self) -> None:
        while not self._closed.is_set():
            try:
                self.tick()
            except Exception as e:  # noqa: BLE001 - the loop outlives a dropped connection
                log.warning("the jobs loop met an error (%s); going on", type(e).__name__)
            self._wake.wait(HEARTBEAT)
            self._wake.clear()

    def tick(self) -> None:
        """One round: each running job's heartbeat, then free jobs taken while there is room."""
        table = self.table
        for job_id, r in list(self._running.items()):
            if r.stop is not None:
                continue
            said = table.beat(job_id, r.holder, r.done, r.total, self.lease)
            if said == "cancel":
                r.stop = "cancel"
                table.finish(job_id, r.holder, CANCELLED, error="cancelled", done=r.done, total=r.total)
                self._told(r, CANCELLED)
            elif said == "lost":
                r.stop = "lost"
        while len(self._running) < self.max_running and not self._closed.is_set():
            taken = table.claim(sorted(self.kinds), self.lease)
            if taken is None:
                return
            row, holder = taken
            r = Running(row, holder)
            with self._lock:
                self._running[row.id] = r
            thread = threading.Thread(target=self._run, args=(r,), name=f"arbiter-job-{row.id[-24:]}", daemon=True)
            thread.start()
            r.thread = thread  # only a started thread is named: close() joins what it finds, from another thread

    def _run(self, r: Running) -> None:
        kind = self.kinds[r.row.kind]
        status, result, error = DONE, None, None
        try:
            self._told(r, "running")
            result = kind.work(r.row, lambda done, total=None: self._step(r, done, total), self._executor())
        except Stopped:
            status = None
        except kind.expected as e:
            status, error = FAILED, str(e)
        except BrokenProcessPool:
            log.error("a worker died; the pool is started again for the next job")
            with self._lock:
                self._pool = None
            status, error = FAILED, f"a worker of this {kind.what} stopped: ask again"
        except Exception as e:  # noqa: BLE001 - the job says it failed (no traceback in a log: it may hold cards)
            log.error("background job %s failed: %s", r.row.id, type(e).__name__)
            status, error = FAILED, f"the {kind.what} could not be completed"
        try:
            if r.stop is None and status is not None:
                if self.table.finish(r.row.id, r.holder, status, result, error, r.done, r.total):
                    self._told(r, status)
            elif r.stop == "closed":
                self.table.release(r.row.id, r.holder)
        except Exception as e:  # noqa: BLE001 - the store went away (a shutdown): the lease runs out, another takes it
            log.warning("background job %s not recorded (%s)", r.row.id, type(e).__name__)
        finally:
            with self._lock:
                self._running.pop(r.row.id, None)
            self._wake.set()

    def _step(self, r: Running, done: int, total: int | None) -> None:
        if r.stop is not None or self._closed.is_set():
            r.stop = r.stop or "closed"
            raise Stopped(r.stop)
        r.done = done
        if total is not None:
            r.total = total
        self._told(r, "running")

    def _told(self, r: Running, status: str) -> None:
        try:
            self.kinds[r.row.kind].told(r.row.id, status, r.done, r.total)
        except Exception as e:  # noqa: BLE001 - telling is a courtesy: the job goes on
            log.warning("job progress not told: %s", type(e).__name__)

    def _executor(self) -> Executor | None:
        """The process's one pool of workers (None with one worker: the job's thread does the work)."""
        if self.workers <= 1:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = worker_pool(self.workers)
            return self._pool

    def close(self, store: bool = False) -> None:
        """Stop: each running job stops at its next unit and goes back to the queue; the workers end. `store`: close
        the connection to the jobs' table too (the store is closing)."""
        self._closed.set()
        self._wake.set()
        for r in list(self._running.values()):
            r.stop = r.stop or "closed"
        deadline = time.monotonic() + 5
        for r in list(self._running.values()):
            while r.thread is None and time.monotonic() < deadline:  # claimed a moment ago: its thread is starting
                time.sleep(0.01)
            if r.thread is not None and r.thread is not threading.current_thread():
                r.thread.join(timeout=max(0.0, deadline - time.monotonic()))
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if store and self._thread is not None:
            self._thread.join(timeout=5)
        if store and self._table is not None:
            self._table.close()

    def abandon(self) -> None:
        """Stop as a host that dies does (a test's stand-in for a killed host): nothing is written, leases run out."""
        self._closed.set()
        for r in list(self._running.values()):
            r.stop = "lost"
