"""The live feed reads the log as soon as its own process records something (service.store.Store.after_recorded), not
at its next poll: a move made here reaches this process's subscribers at once, however long the poll."""

from __future__ import annotations

import time
from uuid import UUID

from tests.tournament_support import finish


def _play(app, game_id: str, moves: int) -> None:
    """`moves` moves of bots (the game goes on)."""
    try:
        finish(app, game_id, limit=moves)
    except AssertionError:
        pass  # it did not end within them: as wanted

LONG_POLL = 30.0  # seconds: far longer than the test waits


def test_a_move_recorded_in_this_process_reaches_its_subscribers_before_the_poll_is_due(feed_game):
    arbiter, game = feed_game
    got: list = []
    sub, _ = arbiter.views.subscribe(game["id"], game["referee_token"], game["version"], got.append)
    try:
        feed = arbiter.views.feed
        feed.poll_seconds = LONG_POLL
        time.sleep(0.2)  # the follower's first wait (begun with the short poll) is over: it now waits LONG_POLL
        before = time.monotonic()
        _play(arbiter.app, game["id"], 1)
        version = arbiter.app.game(UUID(game["id"])).version
        while not (got and got[-1][-1][0] == version):
            assert time.monotonic() - before < 5.0, "the move waited for the poll"
            time.sleep(0.01)
    finally:
        sub.close()


def test_every_listener_of_a_store_is_called_after_each_save(feed_game):
    arbiter, game = feed_game
    calls: list = []
    arbiter.app.after_recorded(lambda: calls.append(1))
    _play(arbiter.app, game["id"], 2)
    assert len(calls) >= 2
