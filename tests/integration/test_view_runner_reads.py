"""A read model's catch-up (service.adapters.view_runner) reads only the notifications after the last one it read,
not the log from the view's last applied notification on: the standings, whose topics are rare (a tournament's
events, a game's end), were scanned from their position to the end of the log at every catch-up, and every
duplicate-board hold caught them up (docs/benchmarks.md). What it skips it has read: a notification of its topics
that arrives later is still applied, on memory:// and on a SQLite file."""

from __future__ import annotations

import pytest

from service.adapters.standings_store import Standings
from service.play.referee import Referee
from tests.tournament_support import finish

from .service_support import new_game


@pytest.fixture(params=["memory", "sqlite"])
def app(request, tmp_path):
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'reads.db'}"
    referee = Referee(url)
    yield referee
    referee.close()


def starts_of(app) -> list:
    """The `start` of every notification read of the recorder from now on."""
    starts: list = []
    select = app.recorder.select_notifications

    def spy(start, limit, stop=None, topics=(), *, inclusive_of_start=True):
        starts.append(start)
        return select(start, limit, stop, topics, inclusive_of_start=inclusive_of_start)

    app.recorder.select_notifications = spy
    return starts


def test_a_catch_up_reads_after_what_it_read_before_not_from_the_view_s_last_event(app):
    standings = Standings.for_app(app)
    for _ in range(3):
        new_game(app, 4, seed=None)  # game events: none of the standings' topics
    standings.catch_up()
    assert standings.position() == 0  # nothing applied: the view's position stays at the start of the log
    top = app.recorder.max_notification_id()
    new_game(app, 4, seed=None)
    starts = starts_of(app)
    standings.catch_up()
    assert starts and min(starts) >= top, f"the catch-up read from {min(starts)}, after reading up to {top} before"


def test_an_event_of_the_view_s_topics_that_comes_later_is_still_applied(app):
    standings = Standings.for_app(app)
    game = new_game(app, 4, seed=None)
    standings.catch_up()
    finish(app, game)  # the game's end (SeedRevealed) is one of the standings' topics
    before = standings.position()
    standings.catch_up()
    assert standings.position() > before and standings.at == standings.position()
