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

One job per (game, version, seat, samples, seed) in the whole deployment: a row of the store's jobs
(service.jobs.runner, service.jobs.table), whichever process or host is asked. An identical request gets
the same job, queued, running or done; its lines, kept in the store once done, answer every later asker who may read
that seat's analysis (the rules above, checked on every read). A job waits in the deployment's queue (its position
and an estimate of the seconds it will take are in every answer) until a server process has room; whoever started it
(the same token, or the same browser) and the game's referee may cancel it. Limits: service.jobs.rules.Limits, per
asker (a token; a browser's own anonymous id; else the address) and, larger, per address; past one, `TooBusy` (429
with Retry-After). A job's id names its request (`<version>~<seat>~<samples>~<seed>`, job_id_of).
"""

from __future__ import annotations

import logging
import re
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable
from uuid import UUID

from domain.accuracy import accuracy
from domain.analysis import NotAnalysable, analysis_of
from domain.games import spec_for
from domain.records import parse
from projections.viewers import SPECTATOR, Viewer

from service.access import Access, parse_game_id, permitted_seats
from service.errors import BadInput, Forbidden, NotFound
from service.store.application import Store
from service.views.facade import ViewsFacade

from service.jobs.askers import caller_of, iso
from service.jobs.rules import JobRow, may_cancel
from service.jobs.runner import JobRunner, View

from .facade import DEFAULT_SAMPLES, analyse, plan

log = logging.getLogger("arbiter.analysis")

MAX_SAMPLES = 1000  # over HTTP, at most the CLI's default cap a move (the engine stops sooner at its tolerance)
DEFAULT_HTTP_SAMPLES = min(DEFAULT_SAMPLES, MAX_SAMPLES)
SEED = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
KIND = "analysis_progress"  # the stream message's kind
VIEWERS_KEPT = 256  # jobs whose askers on this process are told their progress on the stream

NOT_OVER = "a seat may analyse its game once the game is over (the referee may analyse a running game)"
NOT_OVER_SPECTATOR = "spectators may analyse a game once it is over"
OWN_SEAT = "a seat may analyse only its own decisions: seat {me} asked for seat {seat}'s"
HELD_END = ("this game's end is not shown to its seats yet (a duplicate board still being played at another table): "
            "it can be analysed once every table has finished it")
DELAYED = "spectators follow this game behind: it can be analysed once they have seen its end"


@dataclass(frozen=True)
class JobKey:
    """What makes two requests the same job."""

    game: UUID
    version: int
    seat: int
    samples: int
    seed: str


def as_dict(view: View, key: "JobKey", with_lines: bool = True) -> dict:
    """An analysis job as the API answers it: its request, status, progress, place in the queue and estimate; once
    done, the seat's accuracy over the game (domain.accuracy) and its lines (unless `with_lines` is False)."""
    row = view.row
    lines = row.result if row.status == "done" and isinstance(row.result, list) else []
    out = {"id": job_id_of(key), "game": str(key.game), "version": key.version, "seat": key.seat,
           "samples": key.samples, "seed": key.seed, "status": row.status,
           "progress": {"done": row.done, "total": row.total}, "analysed": len(lines),
           "queue": {"position": view.position,
                     "estimate_seconds": None if view.estimate is None else round(view.estimate, 1)},
           "started": iso(row.started), "finished": iso(row.finished)}
    if row.error is not None and row.status in ("failed", "cancelled"):
        out["error"] = row.error
    if row.status == "done":
        out["accuracy"] = accuracy(lines, analysis_of(spec_for(row.game)).marks)
    if with_lines and row.status == "done":
        out["lines"] = list(lines)
    return out


def store_id(key: "JobKey") -> str:
    """The job's row in the store: its kind, its game and its request."""
    return f"analysis:{key.game}:{job_id_of(key)}"


def job_id_of(key: JobKey) -> str:
    """An analysis job's id: its request, so that any process can start it again (`~` is in no seed)."""
    return f"{key.version}~{key.seat}~{key.samples}~{key.seed}"


def key_of_job_id(game: UUID, job_id: str, seats: int) -> JobKey | None:
    """The request a job id names, or None for an id that names none."""
    parts = str(job_id).split("~")
    if len(parts) != 4 or not all(p.isdigit() and len(p) < 16 for p in parts[:3]):
        return None
    version, seat, samples, seed = int(parts[0]), int(parts[1]), int(parts[2]), parts[3]
    try:
        _check(seat, samples, seed, seats)
    except BadInput:
        return None
    return JobKey(game, version, seat, samples, seed)


class AnalysisJobs:
    """The analysis jobs of a deployment, asked from this process (see the module doc)."""

    def __init__(self, app: Store, access: Access, views: ViewsFacade, runner: JobRunner | None = None):
        self.app, self.access, self.views = app, access, views
        self.runner = runner or JobRunner(app.database_url if hasattr(app, "database_url") else "memory://")
        self.runner.register("analysis", self._work, (NotAnalysable,), "analysis", self._tell)
        self._viewers: dict[str, set] = {}  # job row id -> the viewers that asked for it on this process (stream)

    def configure(self, workers: int | None = None, max_running: int | None = None, per_caller: int | None = None,
                  per_address: int | None = None, queued: int | None = None, lease: float | None = None) -> None:
        """Set the runner's bounds (the app's config): None leaves one as it is."""
        self.runner.configure(workers, max_running, per_caller, per_address, queued, lease)

    # -- the door -----------------------------------------------------------------------------

    def start(self, game_id: Any, token: str | None, seat: Any, samples: Any = DEFAULT_HTTP_SAMPLES, seed: Any = "0",
              address: str | None = None, anonymous: str | None = None) -> dict:
        """Start (or find) the job analysing `seat`'s decisions; returns it (`as_dict`, without lines). Raises
        401/403/404 as the access does, BadInput (422) for a game without analysis or a bad seat, samples or seed,
        TooBusy (429) past a limit. `anonymous`: a browser's own id, the asker of a caller without a token."""
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
        units = sum(1 for m in game.moves if m.get("seat") == seat)
        row, _ = self.runner.ask(store_id(key), "analysis", str(gid), game.game,
                                 {"version": key.version, "seat": seat, "samples": samples, "seed": seed},
                                 caller_of(token, address, anonymous), address or "", units)
        self._viewers.setdefault(row.id, set()).add(viewer)
        while len(self._viewers) > VIEWERS_KEPT:  # jobs another process ran: their viewers are never told an end
            self._viewers.pop(next(iter(self._viewers)))
        return as_dict(self.runner.view(row), key, with_lines=False)

    def job(self, game_id: Any, token: str | None, job_id: str) -> dict:
        """A job's status, progress, place in the queue, estimate and (once done) lines, to a viewer that may read
        that seat's analysis."""
        gid, key, row = self._found(game_id, token, job_id)
        return as_dict(self.runner.view(row), key)

    def cancel(self, game_id: Any, token: str | None, job_id: str, address: str | None = None,
               anonymous: str | None = None) -> dict:
        """Cancel a queued or running job: whoever started it (the same token, or browser) or the game's referee.
        Raises Forbidden (403) for anyone else, NotFound (404) for an unknown job; a finished job is answered as it
        is."""
        viewer = self.access.viewer(game_id, token)
        gid, key, row = self._found(game_id, token, job_id)
        if row.status in ("queued", "running"):
            if not may_cancel(row, caller_of(token, address, anonymous), viewer.is_referee):
                raise Forbidden("only whoever started this analysis (the same token or browser) or the game's referee "
                                "may cancel it", field="job")
            row = self.runner.cancel(row.id) or row
        return as_dict(self.runner.view(row), key, with_lines=False)

    def _found(self, game_id: Any, token: str | None, job_id: str) -> tuple[UUID, "JobKey", JobRow]:
        """The game, the request and the stored job a job id names, once the viewer may read it; NotFound else."""
        viewer = self.access.viewer(game_id, token)
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        key = key_of_job_id(gid, job_id, game.setup.n)
        row = None if key is None else self.runner.get(store_id(key))
        if row is None:
            raise NotFound(f"no analysis job {str(job_id)[:40]!r} of this game (a job is named by the game's version, "
                           "the seat, the samples and the seed: ask for it with POST)", field="job")
        self._may_read(gid, game, viewer, key.seat)
        return gid, key, row

    def finished_lines(self, key: JobKey) -> list[dict] | None:
        """The lines of the done job of this request, None while none is done (found, never started: the caller has
        checked that its viewer may read that seat's analysis)."""
        row = self.runner.get(store_id(key))
        return list(row.result) if row is not None and row.status == "done" and isinstance(row.result, list) else None

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
        return permitted_seats(game, lambda seat: self._may_read(gid, game, viewer, seat))

    def running(self) -> int:
        """How many background jobs this process runs now (analyses and fair-play reports: they share the runner)."""
        return self.runner.running()

    def close(self) -> None:
        """Stop this process's runner: each running job goes back to the queue at its next decision."""
        self.runner.close()

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

    # -- the work (a runner's thread, in whichever process took the job) -----------------------

    def _work(self, row: JobRow, step: Callable, executor: Executor | None) -> list[dict]:
        gid, r = UUID(row.subject), row.request
        game = self.app.game(gid, version=r["version"])
        p = plan(parse(game.to_record(), checked=True), r["seat"], versions=list(game.move_versions))
        step(0, len(p.decisions))
        return list(analyse(p, r["seed"], r["samples"], progress=lambda done, total: step(done, total),
                            executor=executor))

    def _tell(self, job_id: str, status: str, done: int, total: int | None) -> None:
        viewers = self._viewers.get(job_id)
        if not viewers:
            return
        _, game, name = job_id.split(":", 2)
        seat = int(name.split("~")[1])
        data = {"job": name, "seat": seat, "status": status, "done": done, "total": total}
        try:
            self.views.tell(UUID(game), set(viewers), KIND, data)
        except Exception as e:  # noqa: BLE001 - the stream is a courtesy: the job goes on
            log.warning("analysis progress not told: %s", type(e).__name__)
        if status not in ("queued", "running"):
            self._viewers.pop(job_id, None)


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
