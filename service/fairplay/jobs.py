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

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from service.analysis.board import Job, JobBoard, caller_of
from service.errors import BadInput

from .facade import Settings, screen, tournament_games

WHAT = "fair-play report"


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

    def start(self, tournament_id: Any, token: str | None) -> dict:
        """Start (or find) the report of the tournament's finished games now; returns the job (`as_dict`). Raises
        NotFound for an unknown tournament, 401/403 unless `token` is its director's, TooBusy (429) past a bound."""
        tid, _ = self.tournaments._director(tournament_id, token)
        finished = self._finished(str(tid))
        key = ReportKey(str(tid), finished, self.settings)
        if not finished:
            return {"status": "empty", "games": 0, "progress": {"done": 0, "total": 0}}
        job, new = self.board.admit(key, caller_of(token, None), WHAT)
        if new:
            self.board.run(job, self._work, (BadInput,))
        return as_dict(job)

    def _finished(self, tid: str) -> tuple[str, ...]:
        ids = [g["game_id"] for g in self.tournaments.seatings(tid)["games"]]
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
