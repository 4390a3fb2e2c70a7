"""The fair-play report of a tournament as a background job (docs/fairplay.md "On the web"): the desk page's door.

REFEREE ONLY, like service.fairplay.facade, whose `screen` the job runs: `start` first checks that the tournament's
director (its referee) asks, then starts (or finds) the job on the process's board of background jobs
(service.analysis.board, shared with computer analysis: the same bounds, the same pool of workers). The job is keyed
by the tournament, the ids of its finished games and the report's settings: the same director asking again (the
page reloaded, its progress polled) gets the same job, running or done; a game finishing since makes a new key, so
a new report. What a job answers is its status, its progress (decisions judged out of all) and, once done, the
report of `screen`: counts and p-values per player, never a move or a card.
"""

from __future__ import annotations

from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.analysis import NotAnalysable, analysis_of
from domain.games import spec_for

from service.analysis.board import Job, JobBoard, caller_of
from service.errors import BadInput

from .facade import Settings, screen, tournament_games

WHAT = "fair-play report"
EMPTY = {"status": "empty", "games": 0, "progress": {"done": 0, "total": 0}}


@dataclass(frozen=True)
class ReportKey:
    """What makes two requests the same report."""

    tournament: str
    games: tuple[str, ...]  # the finished games' ids, sorted
    settings: Settings


class FairplayJobs:
    """The fair-play reports of one process, on its board of background jobs."""

    def __init__(self, tournaments: Any, board: JobBoard, settings: Settings = Settings()):
        self.tournaments, self.board, self.settings = tournaments, board, settings
        self._last: OrderedDict[ReportKey, Job] = OrderedDict()  # the last job of each key, failed ones too

    def start(self, tournament_id: Any, token: str | None) -> dict:
        """Start (or find) the report of the tournament's finished games now; returns the job (`as_dict`). A failed
        job is started again. Raises NotFound for an unknown tournament, 401/403 unless `token` is its director's,
        BadInput for a game without analysis, TooBusy (429) past a bound."""
        key = self._key(tournament_id, token)
        if not key.games:
            return EMPTY
        job, new = self.board.admit(key, caller_of(token, None), WHAT)
        if new:
            self._last[key] = job
            while len(self._last) > self.board.kept:
                self._last.popitem(last=False)
            self.board.run(job, self._work, (BadInput,))
        return as_dict(job)

    def progress(self, tournament_id: Any, token: str | None) -> dict:
        """The report job of the tournament's finished games now, as `start` answers it, without starting one: status
        `unknown` when this process has none (another process of the server ran it, or it restarted)."""
        key = self._key(tournament_id, token)
        if not key.games:
            return EMPTY
        job = self.board.find(key) or self._last.get(key)
        if job is None:
            return {"status": "unknown", "games": len(key.games), "progress": {"done": 0, "total": None}}
        return as_dict(job)

    def _key(self, tournament_id: Any, token: str | None) -> ReportKey:
        tid, _ = self.tournaments._director(tournament_id, token)
        info = self.tournaments.seatings(tid)
        try:
            analysis_of(spec_for(info["game"]))
        except NotAnalysable as e:
            raise BadInput(f"{e}: no fair-play report without it", field="game") from None
        return ReportKey(str(tid), self._finished(info), self.settings)

    def _finished(self, info: dict) -> tuple[str, ...]:
        ids = [g["game_id"] for g in info["games"]]
        return tuple(sorted(i for i in ids if self.tournaments.app.game(UUID(i)).outcome.is_over))

    def _work(self, job: Job, executor: Executor | None) -> None:
        key: ReportKey = job.key
        _, games = tournament_games(self.tournaments, key.tournament)
        games = [g for g in games if g.label in key.games]
        job.result = screen(games, key.settings, progress=lambda done, total: self._progress(job, done, total),
                            executor=executor)

    def _progress(self, job: Job, done: int, total: int) -> None:
        job.total = total
        self.board.step(job, done)


def as_dict(job: Job) -> dict:
    """A report job as the page reads it: status, progress, error, and the report once done."""
    out: dict = {"status": job.status, "games": len(job.key.games), "progress": {"done": job.done, "total": job.total}}
    if job.error is not None:
        out["error"] = job.error
    if job.status == "done":
        out["report"] = job.result
    return out


__all__ = ["FairplayJobs", "ReportKey", "as_dict"]
