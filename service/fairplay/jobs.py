"""The fair-play report of a tournament as a background job (docs/fairplay.md "On the web"): the desk page's door.

REFEREE ONLY, like service.fairplay.facade, whose `screen` the job runs: `start` first checks that the tournament's
director (its referee) asks, then asks the deployment's job runner (service.jobs.runner, shared with computer
analysis: one queue, the same limits, the same pool of workers in each process) for the job. The job is a row of the
store keyed by the tournament, the ids of its finished games and the report's settings: the director asking again
(the page reloaded, its progress polled), on any process or host, gets the same job, queued, running or done, and a
report once made is kept in the store; a game finishing since makes a new key, so a new report. A job answers its
status, its stage (the screen, then the full test of the players it referred) and that stage's progress (decisions
judged out of the stage's), its place in the queue and an estimate of its seconds, and, once
done, the report of `screen`: counts and p-values per player, never a move or a card. The director may cancel it.
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from typing import Any, Callable
from uuid import UUID

from domain.analysis import NotAnalysable, analysis_of
from domain.games import spec_for

from service.errors import BadInput, Conflict, NotFound
from service.jobs.rules import JobRow
from service.jobs.askers import caller_of
from service.jobs.runner import JobRunner, View

from .facade import Settings, tournament_games
from .packet import build, seat_view_at
from .stages import FULL, SCREEN, screen, screen_judge_of

WHAT = "fair-play report"
REPORT_FORMAT = 3  # 2: the report keeps each player's weighty decisions (the review packet); 3: two stages, the screen
# then the full test of the referred (docs/fairplay.md "Two stages"); a report kept in an older form is not answered
# again, a new one is made
EMPTY = {"status": "empty", "games": 0, "stage": None, "progress": {"done": 0, "total": 0}}


@dataclass(frozen=True)
class ReportKey:
    """What makes two requests the same report."""

    tournament: str
    games: tuple[str, ...]  # the finished games' ids, sorted
    settings: Settings


class FairplayJobs:
    """The fair-play reports of a deployment, asked from this process, on the shared job runner."""

    def __init__(self, tournaments: Any, runner: JobRunner, settings: Settings = Settings()):
        self.tournaments, self.runner, self.settings = tournaments, runner, settings
        self.runner.register("fairplay", self._work, (BadInput,), WHAT)

    def start(self, tournament_id: Any, token: str | None, address: str | None = None) -> dict:
        """Start (or find) the report of the tournament's finished games now; returns the job (`as_dict`). A failed
        or cancelled job is queued again. Raises NotFound for an unknown tournament, 401/403 unless `token` is its
        director's, BadInput for a game without analysis, TooBusy (429) past a limit."""
        key, game = self._key(tournament_id, token)
        if not key.games:
            return EMPTY
        units = self._units(key)
        row, _ = self.runner.ask(store_id(key), "fairplay", key.tournament, game,
                                 {"tournament": key.tournament, "games": list(key.games),
                                  "settings": asdict(key.settings)},
                                 caller_of(token, None), address or "", units)
        return as_dict(self.runner.view(row), key)

    def progress(self, tournament_id: Any, token: str | None) -> dict:
        """The report job of the tournament's finished games now, as `start` answers it, without starting one: status
        `unknown` when nobody asked for it yet."""
        key, _ = self._key(tournament_id, token)
        if not key.games:
            return EMPTY
        row = self.runner.get(store_id(key))
        if row is None:
            return {"status": "unknown", "games": len(key.games), "stage": None, "progress": {"done": 0, "total": None},
                    "queue": {"position": None, "estimate_seconds": None}}
        return as_dict(self.runner.view(row), key)

    def cancel(self, tournament_id: Any, token: str | None) -> dict:
        """Cancel the report job of the tournament's finished games now (its director only, as every door here)."""
        key, _ = self._key(tournament_id, token)
        if not key.games:
            return EMPTY
        row = self.runner.get(store_id(key))
        if row is None:
            return self.progress(tournament_id, token)
        if row.status in ("queued", "running"):
            row = self.runner.cancel(row.id) or row
        return as_dict(self.runner.view(row), key)

    def packet(self, tournament_id: Any, token: str | None, names: bool = False) -> dict:
        """The review packet (service.fairplay.packet.build) of the report of the tournament's finished games now, once
        that report is done: blind unless `names`. The director only, as every door here; raises Conflict while the
        report is not made (the fair-play page asks for it)."""
        key, _ = self._key(tournament_id, token)
        row = self.runner.get(store_id(key)) if key.games else None
        if row is None or row.status != "done":
            raise Conflict("the fair-play report of these games is not made yet: open the fair-play page, and download "
                           "the packet once the report shows")
        info, games = tournament_games(self.tournaments, key.tournament)
        order = {g: i for i, g in enumerate(row.request["games"])}
        games = sorted((g for g in games if g.label in order), key=lambda g: order[g.label])
        try:
            return build(row.result, games, info["name"], names=names, tournament_id=key.tournament)
        except ValueError as e:
            raise Conflict(str(e)) from None

    def seat_view(self, tournament_id: Any, token: str | None, game_id: Any, seat: Any, version: Any) -> dict:
        """A finished game of the tournament at `version` as `seat` saw it then (service.fairplay.packet.seat_view_at):
        the director only; raises NotFound for a game of another tournament, a seat or a version it lacks."""
        tid, _ = self.tournaments._director(tournament_id, token)
        ids = {g["game_id"] for g in self.tournaments.seatings(tid)["games"]}
        if str(game_id) not in ids:
            raise NotFound(f"game {str(game_id)[:40]!r} is not a game of this tournament", field="game_id")
        return seat_view_at(self.tournaments.app, game_id, seat, version)

    def _key(self, tournament_id: Any, token: str | None) -> tuple[ReportKey, str]:
        tid, _ = self.tournaments._director(tournament_id, token)
        info = self.tournaments.seatings(tid)
        try:
            analysis_of(spec_for(info["game"]))
        except NotAnalysable as e:
            raise BadInput(f"{e}: no fair-play report without it", field="game") from None
        return ReportKey(str(tid), self._finished(info), self.settings), info["game"]

    def _finished(self, info: dict) -> tuple[str, ...]:
        ids = [g["game_id"] for g in info["games"]]
        return tuple(sorted(i for i in ids if self.tournaments.app.game(UUID(i)).outcome.is_over))

    def _units(self, key: ReportKey) -> int:
        """The decisions the report is expected to judge (every move of its games: its estimate's measure)."""
        return max(1, sum(len(self.tournaments.app.game(UUID(i)).moves) for i in key.games))

    def _work(self, row: JobRow, step: Callable, executor: Executor | None) -> dict:
        r = row.request
        _, games = tournament_games(self.tournaments, r["tournament"])
        games = [g for g in games if g.label in set(r["games"])]
        known = {k: v for k, v in r["settings"].items() if k in Settings.__dataclass_fields__}  # a row queued by an
        # older server may carry a setting since dropped (`alpha`, before the two stages)
        return screen(games, Settings(**known), progress=staged_steps(row.units, step), executor=executor)


def staged_steps(units: int, step: Callable) -> Callable[[str, int, int], None]:
    """The job's progress over both stages on the store's one counter (done, total): the screen's decisions scaled to
    the job's expected `units` (its moves), then the full test's counted on after them; `as_dict` splits them again
    (a total above `units` is the second stage)."""
    def told(stage: str, done: int, total: int) -> None:
        if stage == SCREEN:
            step(done * units // max(1, total), units)
        else:
            step(units + done, units + total)
    return told


def stage_of(done: int, total: int | None, units: int) -> dict:
    """The stage a job's counter is in (`staged_steps`), with that stage's own progress."""
    if total is not None and total > units:
        return {"stage": FULL, "progress": {"done": max(0, done - units), "total": total - units}}
    return {"stage": SCREEN, "progress": {"done": done, "total": total}}


def store_id(key: ReportKey) -> str:
    """The report's row in the store: its kind, its tournament, and a digest of its games and settings."""
    digest = hashlib.sha256(json.dumps([list(key.games), asdict(key.settings), REPORT_FORMAT],
                                       sort_keys=True).encode()).hexdigest()
    return f"fairplay:{key.tournament}:{digest[:32]}"


def as_dict(view: View, key: ReportKey) -> dict:
    """A report job as the page reads it: status, its stage ("screen" or "full") and that stage's progress, place in
    the queue, estimate, error, and the report once done."""
    row = view.row
    out: dict = {"status": row.status, "games": len(key.games), **stage_of(row.done, row.total, row.units),
                 "queue": {"position": view.position,
                           "estimate_seconds": None if view.estimate is None else round(view.estimate, 1)}}
    if row.error is not None and row.status in ("failed", "cancelled"):
        out["error"] = row.error
    if row.status == "done":
        out["report"] = {**row.result, "screen_judge": screen_judge_of(row.result)}
    return out


__all__ = ["FairplayJobs", "ReportKey", "as_dict"]
