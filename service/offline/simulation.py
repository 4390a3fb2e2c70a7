"""Self-play: many games between bots, each game a pure function of (plan, index), spread over processes.

A game's seed and each bot's random stream are derived from the plan's seed and the game's
index only, so a run is the same bit for bit whatever the number of worker processes, and any
one game can be played again alone. Each bot is shown only its seat's table
(its projection's ``table(state, Viewer.of_seat(s))``, the view a person at that seat gets)
and answers with a record move, which is parsed and decided like any record's move: a bot
cannot make a move a player could not.

Seating: game `i` seats ``bots[(i + s) % len(bots)]`` at seat `s`, so with as many bot kinds as
seats every kind sits in every seat equally often. A player's name is ``<bot kind>-<seat>``:
the records alone say which bot played where (service.offline.balance reads it back).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from bots import BOT_KINDS, SeatView, make_bot
from domain.games import decider_for, spec_for
from domain.randomness import Chance
from domain.records import InvalidRecord, parse_move, to_document
from domain.rules import InvalidSetup, RuleViolation
from projections.registry import projection_for
from projections.viewers import Viewer

DEFAULT_MAX_MOVES = 3000  # a game still on after this many moves is kept as unfinished (in_progress)


class PlanError(ValueError):
    """A simulation that cannot be run: `option` names the command-line option at fault."""

    def __init__(self, option: str, reason: str):
        super().__init__(f"{option}: {reason}")
        self.option, self.reason = option, reason


class BotMoveError(RuntimeError):
    """A bot answered with a move the rules refuse (a bug in the bot: it is shown only legal moves)."""


@dataclass(frozen=True)
class Plan:
    """What to simulate: `games` games of `game` at `players` seats between `bots`, from one seed."""

    game: str
    players: int
    games: int
    bots: tuple[str, ...] = ("heuristic",)
    options: dict = field(default_factory=dict)
    seed: str = "0"
    max_moves: int = DEFAULT_MAX_MOVES
    heuristic: str | None = None  # the game's heuristic bot, as its spec names it ("module:Class")
    teams: tuple[str, ...] = ()  # each seat's team (`--teams`), or none

    def lineup(self, index: int) -> list[str]:
        """The bot kind at each seat of game `index` (rotating, see the module doc)."""
        return [self.bots[(index + seat) % len(self.bots)] for seat in range(self.players)]

    def game_seed(self, index: int) -> str:
        """Game `index`'s seed (hex): a hash of the plan's seed and the index."""
        return hashlib.sha256(f"arbiter-simulate|{self.seed}|{index}".encode()).hexdigest()

    def bot_rng(self, index: int, seat: int) -> random.Random:
        """The random stream of the bot at `seat` of game `index`."""
        return random.Random(f"arbiter-bot|{self.seed}|{index}|{seat}")

    def players_of(self, index: int) -> list[dict]:
        """The record's players list of game `index`: each named after its bot, in its seat's team if there are teams."""
        return [{"name": f"{kind}-{seat}"} | ({"team": self.teams[seat]} if self.teams else {})
                for seat, kind in enumerate(self.lineup(index))]


def make_plan(game: str, players: int, games: int, bots: Iterable[str] = ("heuristic",), options: Any = None,
              seed: str = "0", max_moves: int = DEFAULT_MAX_MOVES, teams: Iterable[str] = ()) -> Plan:
    """A checked Plan; raises PlanError naming the option and what is wrong (`teams`: each seat's team, in seat
    order, as the game's rules accept teams)."""
    try:
        spec = spec_for(game)
    except KeyError as e:
        raise PlanError("--game", e.args[0]) from None
    decider = spec.decider
    bots = tuple(bots)
    if not bots:
        raise PlanError("--bots", f"name at least one bot: {', '.join(BOT_KINDS)}")
    for kind in bots:
        if kind not in BOT_KINDS:
            raise PlanError("--bots", f"unknown bot {kind!r}: expected some of {', '.join(BOT_KINDS)}")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise PlanError("--options", "must be a JSON object, e.g. '{\"edition\": \"classic\"}'")
    if not isinstance(players, int) or players < 1:
        raise PlanError("--players", "must be a positive number of seats")
    teams = tuple(teams)
    if teams and len(teams) != players:
        raise PlanError("--teams", f"name one team for each of the {players} seats, in seat order (got {len(teams)})")
    def configured(with_teams: bool):
        return decider.configure(options, [{"name": f"p{i}"} | ({"team": teams[i]} if with_teams else {})
                                           for i in range(players)], None, None)

    try:
        setup = configured(bool(teams))
    except InvalidSetup as e:
        option = "--players" if e.field.startswith("players") else "--options"
        if teams and e.field.startswith("players"):
            try:
                configured(False)
                option = "--teams"  # the seats are fine without teams: the teams are what the rules refuse
            except InvalidSetup:
                pass
        raise PlanError(option, f"{e.field}: {e.reason}") from None
    if games < 1:
        raise PlanError("--games", "must be at least 1")
    if max_moves < 1:
        raise PlanError("--max-moves", "must be at least 1")
    return Plan(game, players, games, bots, setup.options(), str(seed), max_moves, spec.bot, teams)


Watch = Callable[[Any, int, SeatView, dict], None]  # (referee state, seat, the bot's view, its move)


def play(plan: Plan, index: int, watch: Watch | None = None) -> dict:
    """Play game `index` of the plan and return it as an `arbiter.record/1` document; raises BotMoveError.

    `watch` (tests) is called with the referee's state, the seat, the view the bot was given and
    the move it made, before the move is played.
    """
    d, codec = decider_for(plan.game), spec_for(plan.game).codec
    table = projection_for(plan.game).table
    players = plan.players_of(index)
    setup = d.configure(plan.options, players, None, None)
    seed = plan.game_seed(index)
    chance = Chance(seed)
    state = d.initial_state(setup)
    for e in d.start(setup, chance):
        state = d.evolve(state, e)
    lineup = plan.lineup(index)
    bots = [make_bot(kind, plan.game, seat, plan.bot_rng(index, seat), plan.heuristic) for seat, kind in enumerate(lineup)]
    public = [{"seat": seat, "name": p["name"], "team": p.get("team")} for seat, p in enumerate(players)]
    moves: list[dict] = []
    while len(moves) < plan.max_moves and not d.outcome(state).is_over:
        seat = d.to_act(state)[0]
        view = SeatView(plan.game, seat, table(state, Viewer.of_seat(seat)), public, dict(plan.options))
        raw = bots[seat].choose(view)
        if watch is not None:
            watch(state, seat, view, raw)
        try:
            move = parse_move(raw, setup.n, codec, "move")
            _, state = d.step(state, move, chance)
        except (InvalidRecord, RuleViolation) as e:
            raise BotMoveError(f"game {index} (seed {seed}): the {lineup[seat]} bot at seat {seat} "
                               f"played {json.dumps(raw)}: {e}") from None
        moves.append(move)
    return to_document(plan.game, setup, seed, {}, moves)


def run(plan: Plan, workers: int = 1, advance: Callable[[int], None] | None = None) -> Iterator[dict]:
    """Every game of the plan as a record document, in index order, played by `workers` processes.

    `advance(k)` is called as k more games are done (a progress bar). The documents do not depend
    on `workers`.
    """
    indices = range(plan.games)
    if workers <= 1 or plan.games == 1:
        for i in indices:
            yield play(plan, i)
            if advance:
                advance(1)
        return
    chunk = max(1, min(16, plan.games // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for doc in pool.map(partial(play, plan), indices, chunksize=chunk):
            yield doc
            if advance:
                advance(1)


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class RecordSink:
    """Where a run's records go: a directory (one `game-NNNNNN.json` each) or a JSON Lines archive (`*.jsonl`)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.archive = self.path.suffix == ".jsonl"
        self._file = None
        self._count = 0

    def __enter__(self) -> "RecordSink":
        if self.archive:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "w", encoding="utf-8")
        else:
            self.path.mkdir(parents=True, exist_ok=True)
        return self

    def write(self, doc: dict) -> None:
        """Store the next game's record."""
        if self._file is not None:
            self._file.write(json.dumps(doc, separators=(",", ":")) + "\n")
        else:
            (self.path / f"game-{self._count:06d}.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        self._count += 1

    def __exit__(self, *exc) -> None:
        if self._file is not None:
            self._file.close()
