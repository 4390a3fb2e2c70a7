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

One job per (game, version, seat, samples, seed): an identical request gets the same job, running or done. The jobs
run on the process's board of background jobs (service.analysis.board, shared with the fair-play report): at most
`max_running` at a time in this process, `per_caller` of them for one caller (a token; without one, the address it
came from); beyond that, `TooBusy` (429 with Retry-After). Results are kept in this process's memory (the last
`kept` finished jobs), but a job's id is its request (`<version>~<seat>~<samples>~<seed>`, job_id_of): another
process, another host, or this one after a restart, asked for a job it does not know, starts that same request again
(for a caller who may read it, the game still at that version) and, from the same seed, gives the same lines. So a
poll that lands on another worker, or on a host still running after one died, finds the job going on there.
"""

from __future__ import annotations

import logging
import re
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.analysis import NotAnalysable, analysis_of
from domain.games import spec_for
from domain.records import parse
from projections.viewers import SPECTATOR, Viewer

from service.access import Access, parse_game_id, permitted_seats
from service.errors import BadInput, Forbidden, NotFound
from service.store.application import Store
from service.views.facade import ViewsFacade

from .board import Job, JobBoard, caller_of, iso
from .facade import DEFAULT_SAMPLES, analyse, plan

log = logging.getLogger("arbiter.analysis")

MAX_SAMPLES = 1000  # over HTTP, at most the CLI's default cap a move (the engine stops sooner at its tolerance)
DEFAULT_HTTP_SAMPLES = min(DEFAULT_SAMPLES, MAX_SAMPLES)
SEED = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
KIND = "analysis_progress"  # the stream message's kind

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


def as_dict(job: Job, with_lines: bool = True) -> dict:
    """An analysis job as the API answers it (its lines once done, unless `with_lines` is False)."""
    key = job.key
    out = {"id": job.id, "game": str(key.game), "version": key.version, "seat": key.seat, "samples": key.samples,
           "seed": key.seed, "status": job.status, "progress": {"done": job.done, "total": job.total},
           "analysed": len(job.lines), "started": iso(job.started), "finished": iso(job.finished) if job.finished else None}
    if job.error is not None:
        out["error"] = job.error
    if with_lines and job.status == "done":
        out["lines"] = list(job.lines)
    return out


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
    """The analysis jobs of one process (see the module doc), on the process's board of background jobs."""

    def __init__(self, app: Store, access: Access, views: ViewsFacade, board: JobBoard | None = None):
        self.app, self.access, self.views = app, access, views
        self.board = board or JobBoard()

    def configure(self, workers: int | None = None, max_running: int | None = None, per_caller: int | None = None,
                  kept: int | None = None) -> None:
        """Set the board's bounds (the app's config): None leaves one as it is."""
        self.board.configure(workers, max_running, per_caller, kept)

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
        return as_dict(self._admit(game, JobKey(gid, game.version, seat, samples, seed), viewer, token, address),
                       with_lines=False)

    def _admit(self, game, key: JobKey, viewer: Viewer, token: str | None, address: str | None) -> Job:
        """The job of `key`, found, or admitted and started (the caller's access already checked)."""
        job, new = self.board.admit(key, caller_of(token, address), "analysis", viewer, job_id_of(key))
        if not new:
            return job
        doc, versions = game.to_record(), list(game.move_versions)
        self.board.run(job, lambda job, executor: self._work(job, executor, doc, versions), (NotAnalysable,),
                       self._tell)
        return job

    def job(self, game_id: Any, token: str | None, job_id: str) -> dict:
        """A job's status, progress and (once done) lines, to a viewer that may read that seat's analysis."""
        viewer = self.access.viewer(game_id, token)
        gid = parse_game_id(game_id)
        job = self.board.get(job_id)
        if job is not None and isinstance(job.key, JobKey) and job.key.game == gid:
            self._may_read(gid, self.app.game(gid), viewer, job.key.seat)
            return as_dict(job)
        game = self.app.game(gid)
        key = key_of_job_id(gid, job_id, game.setup.n)
        if key is None or key.version != game.version:
            raise NotFound(f"no analysis job {str(job_id)[:40]!r} of this game as it stands (a job is named by the "
                           "game's version, the seat, the samples and the seed: ask again with POST)", field="job")
        self._may_read(gid, game, viewer, key.seat)  # a job another process started: started here again
        return as_dict(self._admit(game, key, viewer, token, None))

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
        """How many background jobs run now (analyses and fair-play reports: they share the board)."""
        return self.board.running()

    def close(self) -> None:
        """Stop the board's workers; each running job fails at its next decision (a server shutting down)."""
        self.board.close()

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

    def _work(self, job: Job, executor: Executor | None, doc: dict, versions: list[int]) -> None:
        p = plan(parse(doc, checked=True), job.key.seat, versions=versions)
        job.total = len(p.decisions)
        self._tell(job)
        for line in analyse(p, job.key.seed, job.key.samples, progress=lambda done, total: self._progress(job, done),
                            executor=executor):
            job.lines.append(line)

    def _progress(self, job: Job, done: int) -> None:
        self.board.step(job, done)
        self._tell(job)

    def _tell(self, job: Job) -> None:
        data = {"job": job.id, "seat": job.key.seat, "status": job.status, "done": job.done, "total": job.total}
        try:
            self.views.tell(job.key.game, set(job.viewers), KIND, data)
        except Exception as e:  # noqa: BLE001 - the stream is a courtesy: the job goes on
            log.warning("analysis progress not told: %s", type(e).__name__)


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
