"""A separate process playing one shared game as fast as it can (run by test_service_concurrency with spawn)."""

from __future__ import annotations

import traceback
from uuid import UUID


def race(url: str, game_id: str, target_moves: int, mode: str, start_lock, barrier, results, name: str) -> None:
    """Load the game, pick the first legal move of the seat to act, submit; repeat until the game has target_moves.

    `mode`: "no-version" submits the move as is, "expected-version" with the version it was chosen on,
    "idempotency-key" with the key `step-<number of moves>` (so both processes send the same request).
    Puts (name, answers as (key, first_version, replayed), refusals by class, error or None) on `results`.
    The Referees are constructed one at a time (`start_lock`): two starting at once on one PostgreSQL
    schema can fail (test_two_referees_starting_at_once_on_one_postgres_schema_both_start); the race is the play.
    """
    answers: list[tuple[str | None, int, bool]] = []
    refusals = {"IllegalMove": 0, "Conflict": 0}
    error = None
    try:
        from domain.el_royale import legal_moves
        from service.play.referee import Referee
        from service.errors import Conflict, IllegalMove
        from tests.integration.service_support import raw_move

        with start_lock:
            app = Referee(url)
        gid = UUID(game_id)
        barrier.wait(timeout=60)
        while True:
            game = app.game(gid)
            if len(game.moves) >= target_moves or game.outcome.is_over:
                break
            move = next(iter(legal_moves(game.state)))
            expected = game.version if mode == "expected-version" else None
            key = f"step-{len(game.moves)}" if mode == "idempotency-key" else None
            try:
                answer = app.submit_move(gid, move["seat"], raw_move(move), expected_version=expected, idempotency_key=key)
            except (IllegalMove, Conflict) as refused:
                refusals[type(refused).__name__] += 1
                continue
            answers.append((key, answer["first_version"], answer["replayed"]))
        app.close()
    except BaseException:  # reported to the test, which fails on it
        error = traceback.format_exc()
    results.put((name, answers, refusals, error))
