"""A server clock the tests move by hand, and random games played through the facade (spectator delay, clocks)."""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from unittest import mock
from uuid import UUID

from domain.autoplay import pick_move

START = datetime(2030, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


class FakeClock:
    """Stands in for the library's clock, which stamps every event and is the service's `server_ms`."""

    def __init__(self, start: datetime = START):
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += timedelta(seconds=seconds)

    @property
    def ms(self) -> int:
        return int(round(self().timestamp() * 1000))


@contextmanager
def fake_time(start: datetime = START):
    """Patch the server's clock for the duration (events' timestamps and service.store.server_clock.server_ms alike)."""
    clock = FakeClock(start)
    with mock.patch("eventsourcing.domain.datetime_now_with_tzinfo", clock):
        yield clock


def random_move(arbiter, gid: str, rng: random.Random) -> tuple[int, dict] | None:
    """A random legal move of the game as (seat, body for POST /moves), or None once it is over."""
    game = arbiter.app.game(UUID(gid))
    if game.outcome.is_over:
        return None
    decider = game.decider
    move = decider.format_move(pick_move(list(decider.legal_moves(game.state)), rng))
    seat = move.pop("seat")
    return seat, move
