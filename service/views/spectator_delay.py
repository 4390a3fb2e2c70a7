"""Spectator delay: a spectator of a live game sees it N moves, or S seconds, behind (seats and referee are not delayed).

The delay is set at creation (`"spectator_delay": {"moves": N}` or `{"seconds": S}`) and kept in the game's
Created event. Until the game ends (its seed is revealed), every spectator path shows the game *as at the cut*:

- `{"moves": N}`: the version just before the N-th most recent accepted move (a stored game event whose actor
  is a seat); with fewer than N moves, the version before the first move; with none yet, the latest version.
- `{"seconds": S}`: the last version stored at least S seconds ago (by the server's event timestamps); the
  Created event is always visible.

`cut` is a pure function of the stored events' marks (version, time, is it a move) and the time now, so the
view, the page, GET /events, the replay, the audit page, the catalogue and the live stream (service.views.feed) all
cut at the same place. Once the game has ended the delay is over and everything is shown as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from domain.clocks import ms
from domain.game import ENGINE, Game

from service.errors import BadInput

MAX_MOVES = 200
MAX_SECONDS = 3600


def parse_delay(value: Any) -> dict | None:
    """A creation spec's `spectator_delay`, checked: None, {"moves": 1..MAX_MOVES} or {"seconds": 1..MAX_SECONDS}."""
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) != 1 or not set(value) <= {"moves", "seconds"}:
        raise BadInput('spectator_delay: must be {"moves": N} or {"seconds": S}', field="spectator_delay")
    (key, n), = value.items()
    most = MAX_MOVES if key == "moves" else MAX_SECONDS
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= most:
        raise BadInput(f"spectator_delay.{key}: must be an integer from 1 to {most}", field=f"spectator_delay.{key}")
    return {key: n}


Mark = tuple[int, int, bool]  # (version, server time in ms, whether the event is an accepted move)


def mark(event: Any) -> Mark:
    """What the cut needs of one stored event."""
    is_move = isinstance(event, Game.Happened) and event.actor != ENGINE
    return event.originator_version, ms(event.timestamp), is_move


def cut(marks: list[Mark], delay: dict, now_ms: int) -> int:
    """The version a spectator delayed by `delay` sees at `now_ms`, given every stored event's mark in order."""
    if "moves" in delay:
        starts = [v for v, _, is_move in marks if is_move]
        if not starts:
            return marks[-1][0]
        return starts[max(0, len(starts) - delay["moves"])] - 1
    horizon = now_ms - delay["seconds"] * 1000
    seen = marks[0][0]
    for version, at, _ in marks:
        if at > horizon:
            break
        seen = version
    return seen


def release_ms(marks: list[Mark], delay: dict, version: int) -> int | None:
    """For a delay in seconds: when the event at `version` becomes visible (None for a delay in moves)."""
    if "seconds" not in delay:
        return None
    return marks[version - 1][1] + delay["seconds"] * 1000


@dataclass(frozen=True)
class Cut:
    """Where a delayed spectator stands: the `version` it sees, the stored events up to it, and `as_of_ms`, the
    server time its position stands for (when the next event came, or now minus the delay)."""

    delay: dict
    version: int
    latest: int
    as_of_ms: int
    events: list

    def as_dict(self) -> dict:
        """What a delayed view says about its delay (never the live version: how far behind is not shown)."""
        return {**self.delay, "as_of": _iso(self.as_of_ms)}


def spectator_cut(stored: list, delay: dict | None, now_ms: int) -> Cut | None:
    """Where a spectator stands in a game's stored events; None when it is not delayed (no delay, or ended)."""
    if not delay or any(isinstance(e, Game.SeedRevealed) for e in stored):
        return None
    marks = [mark(e) for e in stored]
    version = cut(marks, delay, now_ms)
    if "seconds" in delay:
        as_of = now_ms - delay["seconds"] * 1000
    else:
        as_of = marks[version][1] if version < len(marks) else now_ms
    return Cut(delay, version, len(marks), as_of, stored[:version])


def visible(entries: Iterable[dict], version: int) -> list[dict]:
    """Event-log entries up to a version."""
    return [e for e in entries if e["version"] <= version]


def _iso(at_ms: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(at_ms / 1000, tz=timezone.utc).isoformat()


class Held:
    """For the live feed: a delayed game's stored events its spectators have not been given yet.

    Built from every stored event when the game's first spectator subscribes; the follower adds each new
    event and asks `due(now)` for what may go out: the events up to the cut, then (once the game has ended)
    everything. `next_ms()` is when the next held event becomes visible (a delay in seconds), so the
    follower can sleep until then instead of anyone polling.
    """

    def __init__(self, created: Any, delay: dict, stored: list, now_ms: int):
        self.created, self.delay = created, delay
        self.marks = [mark(e) for e in stored]
        self.events = list(stored)
        self.released = cut(self.marks, delay, now_ms)
        self.ended = False

    def add(self, events: list, read_missing) -> None:
        """New stored events, in version order; `read_missing(gt, lte)` reads a gap from the store."""
        for e in events:
            version = e.originator_version
            if version <= len(self.marks):
                continue
            if version > len(self.marks) + 1:
                for missing in read_missing(len(self.marks), version - 1):
                    self._take(missing)
            self._take(e)

    def _take(self, e: Any) -> None:
        self.marks.append(mark(e))
        self.events.append(e)
        self.ended = self.ended or isinstance(e, Game.SeedRevealed)

    def due(self, now_ms: int) -> tuple[int, list, bool] | None:
        """(after, events to give out, whether the game has ended) if any may go out now, else None."""
        upto = len(self.marks) if self.ended else cut(self.marks, self.delay, now_ms)
        if upto <= self.released:
            return None
        after, self.released = self.released, upto
        return after, self.events[after:upto], self.ended

    def next_ms(self) -> int | None:
        """When the next held event becomes visible (None: not by time alone)."""
        if self.ended or self.released >= len(self.marks):
            return None
        return release_ms(self.marks, self.delay, self.released + 1)
