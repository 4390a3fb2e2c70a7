"""The `clock` field of a game view: each seat's thinking time as the server has measured it (domain.clocks).

    {"time_control": {"game_seconds"?, "move_seconds"?} | null, "running": [seat, ...],
     "changed": ISO time of the last change | null, "start": "created" | "first_move", "waiting": bool,
     "waiting_for": [seat, ...],
     "seats": [{"seat", "used_ms", "running", "since", "turn_version", "remaining_ms", "move_limit_ms", "flags"}]}

`used_ms` counts finished turns only; for a running seat the time since `since` is to be added (the table page
is given the server's time beside the view, so it can run the clock on without asking again). `remaining_ms` is
the game time left at `since` (null without a game time control); `flags` lists the controls already flagged
(`game`, `move`). `waiting` is true while a `first_move` game's clocks wait for its first move (then nobody is
running, and `waiting_for` names the seats to act, any of whose moves starts the clocks). Who is running is public (every view says whose turn it is); nothing here names a card.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from domain import clocks


def clock_view(game: Any) -> dict:
    """A game's clocks as every viewer may see them."""
    clock = game.clock_now()
    control = dict(game.time_control) if game.time_control else None
    game_ms = control["game_seconds"] * 1000 if control and "game_seconds" in control else None
    move_ms = control["move_seconds"] * 1000 if control and "move_seconds" in control else None
    running = {seat: (since, turn) for seat, since, turn in clock["running"]}
    seats = []
    for seat, used in enumerate(clock["used_ms"]):
        since, turn = running.get(seat, (None, None))
        seats.append({"seat": seat, "used_ms": used, "running": seat in running, "since": iso(since),
                      "turn_version": turn, "remaining_ms": None if game_ms is None else game_ms - used,
                      "move_limit_ms": move_ms,
                      "flags": sorted({control for s, control, _ in clock["flags"] if s == seat})})
    waiting = clocks.waiting(clock)
    waiting_for = [] if not waiting or game.outcome.is_over else sorted(game.decider.to_act(game.state))
    return {"time_control": control, "running": sorted(running), "changed": iso(clock["changed_ms"]), "seats": seats,
            "start": clocks.start_of(control), "waiting": waiting, "waiting_for": waiting_for}


def iso(at_ms: int | None) -> str | None:
    """Milliseconds since the epoch as ISO 8601 in UTC."""
    if at_ms is None:
        return None
    return datetime.fromtimestamp(at_ms / 1000, tz=timezone.utc).isoformat()
