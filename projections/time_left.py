"""The time a seat to act has left, from a game view's `clock` (projections.clocks) and a moment: what the desk shows.

A running seat can run out of two limits: its game time (`remaining_ms`, the game time it had left when its turn
began at `since`) and the time for one move (`move_limit_ms`, counted from `since`). What it has left is the smaller
of the two, less the time since `since`; below zero once past (its flag falls due: service.play.clocks). A clock
that stands still (`frozen`: a delayed spectator's, `as_of` the moment it stands for) is read at that moment.
"""

from __future__ import annotations

from datetime import datetime


def _ms(iso: str) -> int:
    return int(round(datetime.fromisoformat(iso).timestamp() * 1000))


def time_left(clock: dict | None, now_ms: int) -> list[dict]:
    """Each running seat of `clock` at `now_ms`: {"seat", "left_ms" (None: no limit), "limit" (`game` or `move`: the
    one that falls first, None without a limit), "thinking_ms" (this turn so far)}, in seat order."""
    if not clock:
        return []
    if clock.get("frozen") and clock.get("as_of"):
        now_ms = _ms(clock["as_of"])
    out = []
    for seat in clock.get("seats") or ():
        if not seat.get("running") or not seat.get("since"):
            continue
        thinking = max(0, now_ms - _ms(seat["since"]))
        limits = [(seat["remaining_ms"], "game"), (seat["move_limit_ms"], "move")]
        limits = [(ms, name) for ms, name in limits if ms is not None]
        left, limit = min(limits) if limits else (None, None)
        out.append({"seat": seat["seat"], "left_ms": None if left is None else left - thinking, "limit": limit,
                    "thinking_ms": thinking})
    return out
