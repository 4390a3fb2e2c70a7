"""Clocks: each seat's thinking time (domain.clocks, from the server's event timestamps), time controls and flags.

A game may be created with `"time_control": {"game_seconds": N}` and/or `{"move_seconds": M}`, and `"start":
"first_move"` (no clock runs until the game's first move) or `"created"` (the clocks start with the game; what a
control without `start` means: every game stored before it, and an API client that does not ask). Running out is
never applied to the game: it is recorded as a `time_expired` event (domain.game.Game.TimeExpired), which opens
an entry in the game's disputes for the referee to rule on (upheld: the flag stands; rejected: it does not).
A flag is recorded once: once per seat for the game's time, once per seat and turn for a move's time.

Who records it, whichever comes first:
- the service, when a late move arrives (Referee.submit_move appends the flag before the move, in one save);
- `ClockWatch`, a daemon thread of the serving process that follows the store and sleeps until the next time
  a running clock can run out, so a seat that never moves is flagged too. Several processes may watch: the
  store's version check lets one write, the other finds the flag recorded.

Time is the server's only: `server_ms()` (service.store.server_clock: the library's clock, which stamps events).
"""

from __future__ import annotations

import logging
import threading
from typing import Any
from uuid import UUID

from domain import clocks
from domain.game import Game

from service.errors import BadInput
from service.store.server_clock import server_ms

MAX_SECONDS = 7 * 24 * 3600
IDLE_SECONDS = 1.0  # the watcher reads the store at least this often
log = logging.getLogger("arbiter.clocks")


def parse_time_control(value: Any) -> dict | None:
    """A creation spec's `time_control`, checked: None, or game_seconds and/or move_seconds, each 1..MAX_SECONDS,
    and/or start (`first_move` or `created`, domain.clocks.STARTS)."""
    if value is None:
        return None
    keys = {"game_seconds", "move_seconds", "start"}
    if not isinstance(value, dict) or not value or not set(value) <= keys:
        raise BadInput('time_control: must be {"game_seconds": N} and/or {"move_seconds": M} and/or '
                       '{"start": "first_move" or "created"}', field="time_control")
    for key, n in value.items():
        if key == "start":
            if n not in clocks.STARTS:
                raise BadInput('time_control.start: must be "first_move" (no clock runs until the first move) or '
                               '"created" (the clocks start with the game)', field="time_control.start")
        elif not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_SECONDS:
            raise BadInput(f"time_control.{key}: must be an integer from 1 to {MAX_SECONDS} (seconds)",
                           field=f"time_control.{key}")
    return dict(value)


def limited(control: dict | None) -> bool:
    """Whether a time control has a limit (a game's or a move's time) that a seat can run out of."""
    return bool(control) and any(k in control for k in ("game_seconds", "move_seconds"))


def limits(game: Game) -> tuple[int | None, int | None]:
    """A game's limits in ms: (game time, time per move), each None without it."""
    control = game.time_control or {}
    game_s, move_s = control.get("game_seconds"), control.get("move_seconds")
    return (game_s * 1000 if game_s else None), (move_s * 1000 if move_s else None)


def flag_due(game: Game, now_ms: int) -> list[int]:
    """Record on `game` every time flag due at `now_ms` and not yet recorded; returns their dispute numbers."""
    if not limited(game.time_control) or game.outcome.is_over:  # a game a ruling reopened runs its clocks again
        return []
    game_ms, move_ms = limits(game)
    return [game.expire(f["seat"], f["control"], f["turn"], f["used_ms"], f["limit_ms"])
            for f in clocks.due_flags(game.clock_now(), game_ms, move_ms, now_ms)]


def deadline(game: Game) -> int | None:
    """When the next flag of `game` falls due (ms), or None."""
    if not limited(game.time_control) or game.outcome.is_over:
        return None
    return clocks.next_deadline(game.clock_now(), *limits(game))


class ClockWatch:
    """Flags seats that run out of time without moving: follows the store's notification log for games with a
    time limit (`limited`) and sleeps until the earliest deadline among them (at most IDLE_SECONDS)."""

    def __init__(self, app: Any, now=server_ms):
        self.app, self.now = app, now
        self._position = 0
        self._deadlines: dict[UUID, int | None] = {}  # watched games (a time control, not over) -> next deadline
        self._dirty: set[UUID] = set()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> "ClockWatch":
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arbiter-clocks", daemon=True)
                self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                wait = self.tick()
            except Exception:  # noqa: BLE001 - the watcher must outlive a dropped connection
                log.exception("the clock watcher could not read the store; retrying in a second")
                wait = 1.0
            self._stopped.wait(wait)

    def tick(self, now_ms: int | None = None) -> float:
        """Read the news, flag what is due at `now_ms`; returns how long to sleep (seconds)."""
        self._follow()
        now_ms = self.now() if now_ms is None else now_ms
        for gid in list(self._dirty):
            self._dirty.discard(gid)
            self._reread(gid)
        for gid, due in list(self._deadlines.items()):
            if due is not None and due <= now_ms:
                self.app.check_clocks(gid, now_ms)
                self._reread(gid)
        soonest = min((d for d in self._deadlines.values() if d is not None), default=None)
        if soonest is None:
            return IDLE_SECONDS
        return max(0.0, min(IDLE_SECONDS, (soonest - now_ms) / 1000))

    def _reread(self, gid: UUID) -> None:
        game = self.app.game(gid)
        if game.outcome.is_over or not limited(game.time_control):
            self._deadlines.pop(gid, None)  # over: nothing more to flag (until a ruling's rewind reopens it)
        else:
            self._deadlines[gid] = deadline(game)

    def _follow(self) -> None:
        """Every notification after the position: new timed games are watched, changed ones re-read."""
        recorder = self.app.recorder
        while True:
            batch = recorder.select_notifications(start=self._position, limit=500, inclusive_of_start=False)
            for n in batch:
                self._position = n.id
                gid = n.originator_id
                if n.originator_version == 1 and n.topic.endswith("Game.Created"):
                    created = self.app.mapper.to_domain_event(n)
                    if limited(getattr(created, "time_control", None)):
                        self._dirty.add(gid)
                elif gid in self._deadlines or n.topic.endswith("Game.Rewound"):
                    self._dirty.add(gid)  # a rewind may reopen a finished game: watched again if it has a time limit
            if len(batch) < 500:
                return
