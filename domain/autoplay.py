"""Random legal games, for property tests, benchmarks and demos: a seeded random player per seat."""

from __future__ import annotations

import random
from typing import Any

from .games import decider_for
from .randomness import Chance
from .records import Record, to_document


def random_game(game: str, options: dict, players: list[dict], seed: str, rng: random.Random,
                max_moves: int = 400, chatter: float = 0.0) -> dict:
    """Play a random legal game (each move drawn from legal_moves) and return it as a record document.

    `chatter` is the probability of a `say` before a move, to exercise table talk. Works for any
    registered game: it reads only the decider contract.
    """
    d = decider_for(game)
    setup = d.configure(options, players, None, None)
    chance = Chance(seed)
    state = d.initial_state(setup)
    for e in d.start(setup, chance):
        state = d.evolve(state, e)
    moves: list[dict[str, Any]] = []
    while len(moves) < max_moves and not d.outcome(state).is_over:
        if chatter and rng.random() < chatter:
            move = {"seat": rng.randrange(setup.n), "type": "say", "text": rng.choice(["good luck", "hm", "your turn"])}
        else:
            legal = list(d.legal_moves(state))
            move = pick_move(legal, rng)
            if move.get("cards") and len(move["cards"]) > 1:
                move = dict(move, cards=rng.sample(move["cards"], len(move["cards"])))
        _, state = d.step(state, move, chance)
        moves.append(move)
    return to_document(game, setup, seed, {}, moves)


def game_rng(seed: str | int, index: int) -> random.Random:
    """An independent random stream for the index-th game of a run (one game's moves never shift another's)."""
    return random.Random(f"{seed}:{index}")


def pick_move(legal: list[dict], rng: random.Random) -> dict:
    """Prefer playing over passing now and then, so games progress and end."""
    plays = [m for m in legal if m["type"] not in ("pass", "concede")]
    if plays and rng.random() < 0.35:
        return rng.choice(plays)
    return rng.choice(legal)


def four_player_corpus(count: int, seed: int = 2026, game: str | None = None, options: dict | None = None) -> list[Record]:
    """A fixed corpus of random 4-player games (the benchmark's input): of `game` with `options`, by default the
    registry's first game with its first example options."""
    from .games import first_game, spec_for
    from .records import parse

    game = game or first_game()
    options = spec_for(game).example_options[0] if options is None else options
    out = []
    for i in range(count):
        players = [{"name": f"P{k}"} for k in range(4)]
        doc = random_game(game, options, players, f"{i:08x}", game_rng(seed, i))
        out.append(parse(doc))
    return out
