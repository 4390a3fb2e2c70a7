"""Computer analysis as background jobs (issue 27 part 2, docs/analysis.md "Over HTTP"): the HTTP API's one door.

`start` checks who asks (service.access) and what it may analyse, then runs `service.analysis.facade.analyse` on a
thread of its own, its decisions spread over the process's one pool of analysis workers; `job` answers its status,
its progress and, once done, its lines. Each word of progress is also told on the game's live stream, as an
`analysis_progress` message to the viewers that asked for this job alone (service.views.feed.Feed.tell).

Who may analyse what (the same rules for reading a job as for starting it):
- the referee: any seat, of a running game too;
- a seat: its own seat only, once the game is over (and its end is shown to it: a duplicate board still played at
  another table is not over for its seats);
- a spectator: any seat of a finished game (after the end every card is public: a seat's knowledge is a part of
  it), once its spectators have seen the end (a delayed game) and unless a hold keeps the game from them.
Whatever the viewer, the lines of seat N are made from seat N's knowledge only (projections.knowledge).

One job per (game, version, seat, samples, seed): an identical request gets the same job, running or done. Jobs run
at most `max_running` at a time in this process, `per_caller` of them for one caller (a token; without one, the
address it came from); beyond that, `TooBusy` (429 with Retry-After). Results are kept in this process's memory
(the last `kept` finished jobs): another process, or this one after a restart, does not know the job; asked again,
it analyses again and, from the same seed, gives the same lines.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any
from uuid import UUID

from domain.analysis import NotAnalysable, analysis_of
from domain.games import spec_for
from domain.records import parse
from projections.viewers import SPECTATOR, Viewer

from service.access import Access, parse_game_id
from service.errors import BadInput, Forbidden, NotFound, TooBusy
from service.play.application import Referee
from service.views.facade import ViewsFacade

from .facade import DEFAULT_SAMPLES, analyse, default_workers, plan
from .job import Job, JobKey
from .pool import worker_pool

log = logging.getLogger("arbiter.analysis")

MAX_SAMPLES = 1000  # over HTTP, at most the CLI's default cap a move (the engine stops sooner at its tolerance)
DEFAULT_HTTP_SAMPLES = min(DEFAULT_SAMPLES, MAX_SAMPLES)
SEED = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
RETRY_AFTER = 10  # seconds: a busy answer's Retry-After
KIND = "analysis_progress"  # the stream message's kind

NOT_OVER = "a seat may analyse its game once the game is over (the referee may analyse a running game)"
NOT_OVER_SPECTATOR = "spectators may analyse a game once it is over"
OWN_SEAT = "a seat may analyse only its own decisions: seat {me} asked for seat {seat}'s"
HELD_END = ("this game's end is not shown to its seats yet (a duplicate board still being played at another table): "
            "it can be analysed once every table has finished it")
DELAYED = "spectators follow this game behind: it can be analysed once they have seen its end"


class AnalysisJobs:
    """The analysis jobs of one process (see the module doc)."""

    def __init__(self, app: Referee, access: Access, views: ViewsFacade):
        self.app, self.access, self.views = app, access, views
        self.workers = default_workers()  # the shared pool's processes; 1: each job runs in its own thread alone
        self.max_running = 2
        self.per_caller = 1
        self.kept = 64
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._by_key: dict[JobKey, Job] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()  # finished jobs, oldest first
        self._pool: Executor | None = None
        self._closed = threading.Event()  # close(): running jobs stop at their next decision

    def configure(self, workers: int | None = None, max_running: int | None = None, per_caller: int | None = None,
                  kept: int | None = None) -> None:
        """Set the bounds (the app's config): None leaves one as it is."""
        self.workers = self.workers if workers is None else max(1, int(workers))
        self.max_running = self.max_running if max_running is None else max(1, int(max_running))
        self.per_caller = self.per_caller if per_caller is None else max(1, int(per_caller))
        self.kept = self.kept if kept is None else max(1, int(kept))

    # -- the door -----------------------------------------------------------------------------

    def start(self, game_id: Any, token: str | None, seat: Any, samples: Any = DEFAULT_HTTP_SAMPLES, seed: Any = "0",
              address: str | None = None) -> dict:
        """Start (or find) the job analysing `seat`'s decisions; returns it (`as_dict`). Raises 401/403/404 as the
        access does, BadInput (422) for a game without analysis or a bad seat, samples or seed, TooBusy (429)."""
        viewer = self.access.viewer(game_id, token)
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        try:
            analysis_of(spec_for(game.game))
        except NotAnalysable as e:
            raise BadInput(str(e), field="game") from None
        _check(seat, samples, seed, game.setup.n)
        self._may_read(gid, game, viewer, seat)
        key = JobKey(gid, game.version, seat, samples, seed)
        caller = _caller(token, address)
        with self._lock:
            job = self._by_key.get(key)
            if job is not None:
                job.viewers.add(viewer)
                return job.as_dict(with_lines=False)
            running = [j for j in self._jobs.values() if j.status == "running"]
            if len(running) >= self.max_running:
                raise TooBusy(f"{len(running)} analyses are running on this server, its most at a time: try again "
                              f"in a little while", retry_after=RETRY_AFTER)
            if sum(1 for j in running if caller in j.callers) >= self.per_caller:
                raise TooBusy(f"you have {self.per_caller} analysis running already (at most {self.per_caller} at a "
                              f"time for one caller): try again once it is done", retry_after=RETRY_AFTER)
            job = Job(secrets.token_hex(8), key, {viewer}, {caller})
            self._jobs[job.id], self._by_key[key] = job, job
        doc, versions = game.to_record(), list(game.move_versions)
        threading.Thread(target=self._run, args=(job, doc, versions), name=f"arbiter-analysis-{job.id}",
                         daemon=True).start()
        return job.as_dict(with_lines=False)

    def job(self, game_id: Any, token: str | None, job_id: str) -> dict:
        """A job's status, progress and (once done) lines, to a viewer that may read that seat's analysis."""
        viewer = self.access.viewer(game_id, token)
        gid = parse_game_id(game_id)
        job = self._jobs.get(str(job_id))
        if job is None or job.key.game != gid:
            raise NotFound(f"no analysis job {str(job_id)[:40]!r} of this game in this server process (results are "
                           "kept in memory: ask again with the same seat, samples and seed, and the same lines come)",
                           field="job")
        self._may_read(gid, self.app.game(gid), viewer, job.key.seat)
        return job.as_dict()

    def seats(self, game_id: Any, token: str | None) -> list[int]:
        """The seats whose analysis this caller may ask for now, by the rules of `start` and `job` (the replay page
        offers these); [] for a game that offers no analysis. Raises 401/403/404 as the access does."""
        viewer = self.access.viewer(game_id, token)
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        try:
            analysis_of(spec_for(game.game))
        except NotAnalysable:
            return []
        offered = []
        for seat in range(game.setup.n):
            try:
                self._may_read(gid, game, viewer, seat)
            except Forbidden:
                continue
            offered.append(seat)
        return offered

    def running(self) -> int:
        """How many jobs run now."""
        return sum(1 for j in list(self._jobs.values()) if j.status == "running")

    # -- the rules ----------------------------------------------------------------------------

    def _may_read(self, gid: UUID, game: Any, viewer: Viewer, seat: int) -> None:
        """Raise Forbidden unless `viewer` may see the analysis of `seat` of this game now (the module doc)."""
        if viewer.is_referee:
            return
        over = game.outcome.is_over
        if viewer.seat is not None:
            if viewer.seat != seat:
                raise Forbidden(OWN_SEAT.format(me=viewer.seat, seat=seat), field="seat")
            if not over:
                raise Forbidden(NOT_OVER)
            if not self.access.end_shown(gid, viewer, over):
                raise Forbidden(HELD_END)
            return
        if not over:
            raise Forbidden(NOT_OVER_SPECTATOR)
        if not self.access.end_shown(gid, SPECTATOR, over):
            raise Forbidden(HELD_END)
        cut = self.views.spectator_cut(gid)
        if cut is not None and cut.version < game.version:
            raise Forbidden(DELAYED)

    # -- the work (the job's own thread) ------------------------------------------------------

    def _run(self, job: Job, doc: dict, versions: list[int]) -> None:
        try:
            p = plan(parse(doc, checked=True), job.key.seat, versions=versions)
            job.total = len(p.decisions)
            self._tell(job)
            executor = self._executor()
            for line in analyse(p, job.key.seed, job.key.samples, progress=lambda done, total: self._progress(job, done),
                                executor=executor):
                job.lines.append(line)
            job.status = "done"
        except (NotAnalysable, Stopped) as e:
            job.status, job.error = "failed", str(e)
        except BrokenProcessPool:
            log.error("an analysis worker died; the pool is started again for the next job")
            with self._lock:
                self._pool = None
            job.status, job.error = "failed", "an analysis worker stopped: ask again"
        except Exception as e:  # noqa: BLE001 - no traceback in a log line (it may hold cards), the job says it failed
            log.error("analysis job %s failed: %s", job.id, type(e).__name__)
            job.status, job.error = "failed", "the analysis could not be completed"
        finally:
            job.finished = time.time()
            self._finish(job)
            self._tell(job)

    def _progress(self, job: Job, done: int) -> None:
        if self._closed.is_set():
            raise Stopped("the server stopped this analysis")
        job.done = done
        self._tell(job)

    def _tell(self, job: Job) -> None:
        data = {"job": job.id, "seat": job.key.seat, "status": job.status, "done": job.done, "total": job.total}
        try:
            self.views.tell(job.key.game, set(job.viewers), KIND, data)
        except Exception as e:  # noqa: BLE001 - the stream is a courtesy: the job goes on
            log.warning("analysis progress not told: %s", type(e).__name__)

    def _finish(self, job: Job) -> None:
        """Keep the last `kept` finished jobs; a failed one is forgotten (asked again, it runs again)."""
        with self._lock:
            if job.status != "done":
                self._by_key.pop(job.key, None)
            self._finished[job.id] = None
            while len(self._finished) > self.kept:
                old = self._jobs.pop(self._finished.popitem(last=False)[0], None)
                if old is not None and self._by_key.get(old.key) is old:
                    del self._by_key[old.key]

    def _executor(self) -> Executor | None:
        """The process's one pool of analysis workers (None with one worker: the job's thread does the work)."""
        if self.workers <= 1:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = worker_pool(self.workers)
                atexit.register(self.close)  # a server going down takes its workers with it
            return self._pool

    def close(self) -> None:
        """Stop the workers; each running job fails at its next decision (a server shutting down, a test's end)."""
        self._closed.set()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Stopped(Exception):
    """A job stopped by `AnalysisJobs.close`."""


def _check(seat: Any, samples: Any, seed: Any, n: int) -> None:
    """Raise BadInput naming the field for a seat the game lacks, samples out of range or a bad seed."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadInput("seat: must be an integer", field="seat")
    if not 0 <= seat < n:
        raise BadInput(f"seat: this game has seats 0 to {n - 1}, not {seat}", field="seat")
    if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES:
        raise BadInput(f"samples: must be an integer from 1 to {MAX_SAMPLES}", field="samples")
    if not isinstance(seed, str) or not SEED.fullmatch(seed):
        raise BadInput("seed: 1 to 64 letters, digits or . _ : -", field="seed")


def _caller(token: str | None, address: str | None) -> str:
    """Who asks, for the per-caller bound: a token (its hash: a token is never kept), else the caller's address."""
    if token is not None:
        return "token " + hashlib.sha256(token.encode()).hexdigest()
    return f"address {address or 'unknown'}"
