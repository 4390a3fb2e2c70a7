"""A checker of the tournament room that nobody tuned to (issue 35, part 9): random tournaments are run through the
service (bots play the games; disputes are filed and ruled, some rewinding a finished game, which is then played
again), and at every step what the service serves is held against what tests/tournament_reference.py recomputes
from the stored events alone, written from docs/tournaments.md without the service's code:

- standings and tie-breaks (points, Buchholz, head-to-head, score, matchpoints; ranks) and the team standings;
- the crosstable (every cell; a row's marks add up to the standings);
- the pairings: nobody paired twice in a round, no rematch where one could be avoided (an exhaustive search for small
  fields, the Hajnal–Szemerédi theorem beyond), Swiss tables filled down the standings of the moment the round was
  drawn, byes to the documented player, seats as documented, round-robin meeting everyone once, team tables
  interleaved.

Withdrawals are not checked: the model has none (docs/tournaments.md, "Not done here").
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from uuid import UUID

from service.facade import Arbiter
from service.tournaments.commands import CreateTournament
from tests.tournament_reference import check_room, read_facts
from tests.tournament_support import _bot_move



# -- the room: a random tournament played through the service ------------------------------------------------------

@dataclass
class Case:
    """One random tournament: its spec, how far to play it, and the random choices of its players and referee."""

    spec: dict
    rounds_to_play: int
    seed: int
    dispute_rate: float  # the chance that a game just finished (or paused) gets a dispute
    max_events: int = 10**9  # no new round once the store holds this many events


@dataclass
class Played:
    events: int = 0
    checks: int = 0
    rounds: int = 0
    rewinds: int = 0
    byes: int = 0
    notes: list = field(default_factory=list)


def play_some(app, gid: UUID, rng: random.Random, moves: int) -> None:
    """Up to `moves` moves of a stored game by heuristic bots (fewer if it ends)."""
    bots: dict = {}
    for _ in range(moves):
        game = app.game(gid)
        if game.outcome.is_over:
            return
        raw = _bot_move(game.game, game.decider, game.state, bots, dict(game.options), game.players, rng)
        app.submit_move(gid, raw.pop("seat"), raw)


def dispute(app, gid: UUID, rng: random.Random, played: Played) -> None:
    """A seat disputes a random move of the game; the referee rules at once: upheld with a rewind (the game is
    open again), upheld without remedy, or rejected."""
    game = app.game(gid)
    if not game.move_versions:
        return
    version = rng.choice(list(game.move_versions))
    seat = rng.randrange(len(game.players))
    number = app.file_dispute(gid, seat, version, "checker: I dispute this move")["number"]
    decision, remedy = rng.choice([("upheld", "rewind"), ("upheld", "rewind"), ("upheld", "none"), ("rejected", "none")])
    app.rule_dispute(gid, number, decision, remedy, "checker's ruling")
    played.rewinds += remedy == "rewind"


def run_case(case: Case, check_every_step: bool = True) -> Played:
    """Create the tournament on a fresh in-memory store, play it round by round (games finished, some paused
    half-way, disputes ruled), checking the room at every step; returns what happened."""
    rng = random.Random(case.seed)
    with tempfile.TemporaryDirectory() as d:
        arbiter = Arbiter("memory://", str(Path(d) / "key"), str(Path(d) / "checkpoints.log"))
        desk = arbiter.tournaments
        app = arbiter.app
        created = desk.create(CreateTournament.from_body(case.spec))
        tid, token = created["id"], created["director_token"]
        played = Played()
        for _ in range(2000):
            view = desk.view(tid)
            if check_every_step:
                check_room(app, tid, view, desk.standings(tid))
                played.checks += 1
            if view["status"] == "finished":
                break
            if view["can_start_round"]:
                if len(view["rounds"]) >= case.rounds_to_play or (app.recorder.max_notification_id() or 0) >= case.max_events:
                    break
                desk.start_round(tid, token)
                continue
            open_games = [UUID(g["game_id"]) for r in view["rounds"] for t in r["tables"] for g in t["games"]
                          if g["status"] != "finished"]
            if not open_games:
                break  # nothing to play and no round to start: the tournament is over or stuck (checked above)
            for gid in open_games:
                if rng.random() < 0.3:  # paused half-way: the room is checked with games in play
                    play_some(app, gid, rng, rng.randrange(1, 40))
                else:
                    play_some(app, gid, rng, 5000)
                if rng.random() < case.dispute_rate:
                    dispute(app, gid, rng, played)
        view = desk.view(tid)
        check_room(app, tid, view, desk.standings(tid))
        played.checks += 1
        facts = read_facts(app, tid)
        played.events = facts.events
        played.rounds = len(facts.rounds)
        played.byes = sum(len(r["byes"]) for r in facts.rounds)
        return played


# -- the random cases --------------------------------------------------------------------------------------------

FORMATS = ("match", "round-robin", "swiss", "swiss-tables", "teams")


def case_for(fmt: str, rng: random.Random, max_events: int = 10**9) -> Case:
    """A random tournament of a format (swiss-tables: a Swiss of Batallion, tables of 3–4), no new round started
    once `max_events` are stored."""
    case = _case_for(fmt, rng)
    case.max_events = max_events
    return case


def _case_for(fmt: str, rng: random.Random) -> Case:
    seed = rng.randrange(2**32)
    rate = rng.choice([0.0, 0.1, 0.3])
    if fmt == "match":
        game = rng.choice(["el-royale", "batallion", "small-battle"])
        low, high = {"el-royale": (2, 8), "batallion": (3, 4), "small-battle": (2, 2)}[game]
        n = rng.randint(low, high)
        spec = {"game": game, "format": "match", "games_per_table": rng.randint(1, 3)}
        if game == "batallion":
            spec["options"] = {"variants": []}
            spec.pop("games_per_table") if rng.random() < 0.5 else None
        return Case({**spec, "name": "match", "players": [f"P{i}" for i in range(n)]}, 1, seed, rate)
    if fmt in ("round-robin", "swiss"):
        game = rng.choice(["small-battle", "small-battle", "el-royale", "four-virtues"])
        n = rng.choice([rng.randint(2, 12), rng.randint(2, 40)])
        spec = {"name": fmt, "game": game, "format": fmt, "players": [f"P{i}" for i in range(n)],
                "duplicate": game != "four-virtues" and rng.random() < 0.3}
        if game == "el-royale":
            spec["options"] = {"battle_limit": 150}
        if fmt == "swiss" and rng.random() < 0.5:
            spec["rounds"] = rng.randint(1, 8)
        if n <= 12 and rng.random() < 0.3:
            spec["auto_rounds"] = True  # each round drawn the moment the last game of the one before ends
        budget = max(1, 1200 // max(1, n)) if n > 12 else 12
        return Case(spec, rng.randint(1, budget), seed, rate)
    if fmt == "swiss-tables":
        n = rng.choice([rng.randint(3, 12), rng.randint(3, 40)])
        spec = {"name": "swiss", "game": "batallion", "options": {"variants": []}, "format": "swiss",
                "players": [f"P{i}" for i in range(n)], "games_per_table": rng.choice([1, 1, 2]),
                "rounds": rng.randint(1, 8), "auto_rounds": n <= 12 and rng.random() < 0.3}
        return Case(spec, rng.randint(1, 8 if n <= 16 else 3), seed, rate)
    size = rng.randint(2, 4)
    teams = rng.randint(2, max(2, min(10, 40 // size)))
    players = [{"name": f"P{t}{m}", "team": f"T{t}"} for t in range(teams) for m in range(size)]
    spec = {"name": "teams", "game": "el-royale", "options": {"battle_limit": 150}, "format": "teams",
            "players": players}
    return Case(spec, rng.randint(1, 3), seed, rate)
