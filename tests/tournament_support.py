"""Helpers for the tournament tests: finish a game with legal moves of its own decider (any game)."""

from __future__ import annotations

import random
from uuid import UUID


def finish(app, game_id, rng_seed: int = 1, limit: int = 3000) -> None:
    """Play legal moves (plays preferred over passes now and then) until the game is over."""
    rng = random.Random(rng_seed)
    gid = UUID(str(game_id))
    for _ in range(limit):
        game = app.game(gid)
        if game.outcome.is_over:
            return
        legal = list(game.decider.legal_moves(game.state))
        plays = [m for m in legal if m["type"] not in ("pass", "concede", "take")]
        move = rng.choice(plays) if plays and rng.random() < 0.5 else rng.choice(legal)
        raw = game.decider.format_move(move)
        raw.pop("seat", None)
        app.submit_move(gid, move["seat"], raw)
    raise AssertionError(f"game {game_id} did not end within {limit} moves")
