"""The server's clock: the one that stamps the events, so a deadline and an event's time are read on the same clock."""

from __future__ import annotations

import eventsourcing.domain

from domain import clocks


def server_ms() -> int:
    """The server's time now (ms since the epoch), from the clock that stamps the events."""
    return clocks.ms(eventsourcing.domain.datetime_now_with_tzinfo())
