"""The fair-play report's inputs and its full test (issue 27 part 4, issue 37; docs/fairplay.md): the CLI's and the
desk's one road, with service.fairplay.stages, which runs the report in two stages.

REFEREE ONLY. The inputs are whole games (record files, or a tournament's finished games read from the store with
their seeds): every card of them. Here are the report's settings, its games, the task list (one task a decision of
every seat), the pool the tasks run on, and stage two's judgement of a decision: judged twice, by domain.analysis
from what the seat saw (projections.knowledge) and by domain.fairplay's perfect-information function from the true
state. Only counts and p-values leave the report (no move, no card), and only to a referee: the CLI is run by whoever
holds the records or the store, the desk route asks for the tournament director's token.
"""

from __future__ import annotations

from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterable
from uuid import UUID

from domain.analysis import NotAnalysable, analyse_decision, analysis_of
from domain.fairplay import judge, perfect_information_decision, true_states, world_rank
from domain.games import spec_for
from domain.records import InvalidRecord, load, parse, replay
from domain.screening import REFER, SAMPLES as SCREEN_SAMPLES, WORLDS as SCREEN_WORLDS
from projections.knowledge import seat_knowledge

from service.errors import BadInput
from service.json_files import FileProblem, read_json_lines
from service import fast_road
from service.jobs.pool import in_order

OWN_SAMPLES = 16  # screening precision (docs/fairplay.md): the own-information analysis, at most this many a move
PERFECT_SAMPLES = 4  # rollouts a move from a full state (the true one, or each world of the honest baseline)
WORLDS = 8  # worlds sampled from the seat's knowledge for the honest baseline of each decision
PAIR_PER_HAND = 2  # the full pair test: states told each hand (domain.collusion.pair_decision's per_hand)


@dataclass(frozen=True)
class Settings:
    """How precisely each decision is judged in each stage (docs/fairplay.md "Two stages"), and the screen's
    threshold for referring a player (or a pair) to the full test. The panel's threshold is not a setting: it is
    domain.screening.PANEL, the standard the report is held to."""

    own_samples: int = OWN_SAMPLES
    perfect_samples: int = PERFECT_SAMPLES
    worlds: int = WORLDS
    seed: str = "0"
    margin: float | None = None  # points; None: the game's inaccuracy threshold (domain.spec Analysis.marks[0])
    screen_samples: int = SCREEN_SAMPLES  # stage one: rollouts a candidate in each state
    screen_worlds: int = SCREEN_WORLDS  # stage one: worlds (or partner's hands) sampled a decision
    refer: float = REFER  # stage one refers at or below this p-value

    def __post_init__(self) -> None:
        for name in ("own_samples", "perfect_samples", "worlds", "screen_samples", "screen_worlds"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 1 <= value <= 2000:
                raise BadInput(f"{name}: {value!r} is not a whole number in 1..2000", field=name)
        if not 0 < self.refer <= 1:
            raise BadInput(f"refer: {self.refer!r} is not a p-value in (0, 1]", field="refer")


@dataclass(frozen=True)
class GameInput:
    """One finished game to screen: where it came from (a file, a game id), its record, the player at each seat."""

    label: str
    record: Any
    names: list[str]
    game_id: str | None = None  # the store's game id (a tournament's game), for the review packet's links
    versions: list[int] | None = None  # the store's version of each move (domain.game.Game.move_versions)


def _finished(record: Any, label: str) -> None:
    verdict = replay(record, fast_road_allowed=fast_road.allowed()).verdict()
    if verdict["status"] != "finished":
        raise BadInput(f"{label}: not a finished game ({verdict['status']}): only finished games are screened")


def _names(record: Any) -> list[str]:
    return [str(p.get("name") or f"seat {s}") for s, p in enumerate(record.setup.players())]


def records_from_files(paths: Iterable[str]) -> list[GameInput]:
    """The games of record files (`.json` one record; `.jsonl` an archive or a tournament bundle, its header line
    skipped); raises BadInput naming the file (and line) at fault."""
    games = []
    for path in paths:
        if not str(path).endswith(".jsonl"):
            games.append(_game(lambda: load(path), str(path)))
            continue
        try:
            for n, doc in read_json_lines(str(path)):  # each line within the JSON bounds (service.json_files)
                if isinstance(doc, FileProblem):
                    raise doc
                if isinstance(doc, dict) and doc.get("format") == "arbiter.tournament/1":
                    continue
                games.append(_game(lambda: parse(doc, checked=True), f"{path}:{n}"))
        except FileProblem as e:
            raise BadInput(str(e)) from None
    if not games:
        raise BadInput("no game to screen: the files hold no record")
    return games


def _game(read: Callable[[], Any], label: str) -> GameInput:
    try:
        record = read()
    except InvalidRecord as e:
        raise BadInput(f"{label}: invalid record: {e}") from None
    except RecursionError:
        raise BadInput(f"{label}: invalid record: nested too deeply") from None
    _finished(record, label)
    return GameInput(label, record, _names(record))


def tournament_games(tournaments: Any, tournament_id: Any) -> tuple[dict, list[GameInput]]:
    """A tournament (its id, name, game) and its finished games with the players' names at their seats; raises
    NotFound for an unknown tournament. The caller has checked that a referee asks (the desk) or runs the store."""
    info = tournaments.seatings(tournament_id)
    games = []
    for g in info["games"]:
        game = tournaments.app.game(UUID(g["game_id"]))
        if not game.outcome.is_over:
            continue
        record = parse(game.to_record(reveal_seed=True))
        games.append(GameInput(g["game_id"], record, list(g["names"]), g["game_id"], list(game.move_versions)))
    return {k: v for k, v in info.items() if k != "games"}, games


def task_list(games: list[GameInput], settings: Settings, only: set[str] | None) -> list[tuple]:
    """One task a decision of every seat (of the players in `only`, when given): what a stage judges."""
    tasks = []
    for g in games:
        spec = spec_for(g.record.game)
        try:
            a = analysis_of(spec)
        except NotAnalysable as e:
            raise BadInput(f"{g.label}: {e}: no fair-play report without it") from None
        margin = a.marks[0] if settings.margin is None else settings.margin
        states = true_states(g.record)
        for seat in range(g.record.setup.n):
            if only is not None and g.names[seat] not in only:
                continue
            seen, decisions = seat_knowledge(g.record, seat)
            seed = f"{settings.seed}|{g.label}|{seat}"
            for k, x in enumerate(decisions):
                if x.move_index in states:
                    tasks.append((g.record.game, g.record.setup, seat, seen[:x.index], x.move, states[x.move_index],
                                  seed, k, settings, margin, g.names[seat], g.label, x.move_index))
    return tasks


def judge_task(task: tuple) -> tuple[str, dict | None]:
    """One decision judged both ways (a worker's unit): the player's name and the verdict, None when not analysed."""
    game, setup, seat, seen, move, state, seed, ordinal, settings, margin, name, label, move_index = task
    spec = spec_for(game)
    own = analyse_decision(spec, setup, seat, seen, move, seed, ordinal, settings.own_samples)
    if own is None:
        return name, None
    perfect = perfect_information_decision(spec, state, seat, move, seed, ordinal, settings.perfect_samples)
    if perfect is None:
        return name, None
    salt = f"{seed}|{ordinal}"
    rank = world_rank(spec, setup, seat, seen, move, seed, ordinal, settings.worlds, settings.perfect_samples, perfect)
    return name, {**judge(own["moves"], perfect, own["played"], margin, salt, rank), "game": label, "seat": seat,
                  "move_index": move_index}


def run_tasks(work: Callable[[tuple], Any], tasks: list[tuple], workers: int = 1,
              progress: Callable[[int, int], None] | None = None, executor: Executor | None = None) -> list:
    """`work` over every task, in order, on the caller's `executor` (a pool it owns and keeps: the server's background
    jobs), else on `workers` processes of this call's own (one: this thread); `progress(done, total)` after each."""
    if executor is not None:
        pool, results = None, in_order(executor, work, tasks)
    elif workers > 1 and len(tasks) > 1:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(work, tasks, chunksize=max(1, min(16, len(tasks) // (workers * 8))))
    else:
        pool, results = None, map(work, tasks)
    out = []
    try:
        for done, result in enumerate(results, 1):
            out.append(result)
            if progress is not None:
                progress(done, len(tasks))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return out


def judge_all(games: list[GameInput], settings: Settings = Settings(), workers: int = 1,
              progress: Callable[[int, int], None] | None = None, only: set[str] | None = None,
              executor: Executor | None = None) -> dict[str, list]:
    """Every judged decision (domain.fairplay.judge's verdicts) by player, at the full test's precision: stage two of
    the report (service.fairplay.stages), and the validation's; `only` judges just the players named (the referred).
    `executor` as for `run_tasks`."""
    verdicts: dict[str, list[dict]] = {n: [] for g in games for n in g.names if only is None or n in only}
    for name, verdict in run_tasks(judge_task, task_list(games, settings, only), workers, progress, executor):
        if verdict is not None:
            verdicts[name].append(verdict)
    return verdicts


__all__ = ["Settings", "GameInput", "records_from_files", "tournament_games", "judge_all", "judge_task", "run_tasks",
           "task_list"]
