"""Helpers for the tournament tests: games played to their end by the heuristic bots (any game)."""

from __future__ import annotations

import random
from uuid import UUID

from bots import SeatView, make_bot
from domain.games import spec_for
from domain.randomness import Chance
from domain.records import parse_move
from projections.registry import projection_for
from projections.viewers import Viewer


def _bot_move(game: str, decider, state, bots: dict, options: dict, players: list[dict], rng: random.Random) -> dict:
    seat = decider.to_act(state)[0]
    if seat not in bots:
        bots[seat] = make_bot("heuristic", game, seat, random.Random(rng.random()), spec_for(game).bot)
    public = [{"seat": s, "name": p["name"], "team": p.get("team")} for s, p in enumerate(players)]
    view = SeatView(game, seat, projection_for(game).table(state, Viewer.of_seat(seat)), public, dict(options))
    return bots[seat].choose(view)


def played(game: str, setup, seed: str, rng: random.Random, limit: int = 5000):
    """The final state of a game played by heuristic bots from a seed (pure: no store)."""
    decider, codec = spec_for(game).decider, spec_for(game).codec
    chance = Chance(seed)
    state = decider.initial_state(setup)
    for event in decider.start(setup, chance):
        state = decider.evolve(state, event)
    bots: dict = {}
    for _ in range(limit):
        if decider.outcome(state).is_over:
            return state
        raw = _bot_move(game, decider, state, bots, setup.options(), setup.players(), rng)
        _, state = decider.step(state, parse_move(raw, setup.n, codec, "move"), chance)
    raise AssertionError("the game did not end")


def finish(app, game_id, rng_seed: int = 1, limit: int = 5000) -> None:
    """Play a stored game to its end through the Referee (submit_move), its seats played by heuristic bots."""
    rng = random.Random(rng_seed)
    gid = UUID(str(game_id))
    bots: dict = {}
    for _ in range(limit):
        game = app.game(gid)
        if game.outcome.is_over:
            return
        raw = _bot_move(game.game, game.decider, game.state, bots, dict(game.options), game.players, rng)
        seat = raw.pop("seat")
        app.submit_move(gid, seat, raw)
    raise AssertionError(f"game {game_id} did not end within {limit} moves")


def played_tournament(app, name: str, players: list[str]) -> dict:
    """A two-player Small Battle round-robin of the app's store, its first round started and every game played out by
    bots (the fair-play report's and packet's tests): the answer of its creation (id, director token)."""
    from service.tournaments.commands import CreateTournament

    desk = app.extensions["arbiter"].tournaments
    created = desk.create(CreateTournament.from_body({"name": name, "game": "small-battle", "players": players,
                                                      "format": "round-robin"}))
    desk.start_round(created["id"], created["director_token"])
    for g in desk.seatings(created["id"])["games"]:
        finish(desk.app, g["game_id"])
    return created
