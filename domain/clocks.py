"""Thinking time per seat, folded from the game's own events (pure; times are the events' server timestamps).

A seat's clock runs while the seat is to act (the decider's `to_act`) and stops when it is not. The events
of one command (a move and the automatic events that follow it, or the opening) form a *batch*: the batch's
time is its first event's timestamp, and who is to act is asked once, after the whole batch. So:

- a seat that moves is charged from the time it became to act until its move was accepted;
- a seat still (or again) to act after its own move starts a new turn at the move's time;
- a `say` never stops or restarts the speaker's clock (talking is not moving);
- once the game is over nobody is to act: every clock stops;
- with the time control's `"start": "first_move"` no clock runs until the game's first move (a seat's move
  other than `say`): the opening, the referee's and the clock's events, talk, names and disputes leave every
  clock stopped, and the first mover's thinking before its move is not counted. From the first move on the clocks
  run as above (a later rewind does not stop them again). Without `start` (every game stored before it) or with
  `"created"`, the clocks start with the opening batch, as they always did.

The state is JSON-safe (it is part of the aggregate's snapshots) and replaced, never changed in place::

    {"used_ms": [int per seat], "running": [[seat, since_ms, since_version], ...],
     "changed_ms": int | None, "flags": [[seat, control, turn], ...], "waiting"?: true}

`waiting` is there (true) only while the clocks wait for the first move; a clock without it runs as it always did.

`flags` are the time flags already recorded (domain.game.Game.TimeExpired): `control` is `game` (turn 0)
or `move` (turn = the version at which the seat became to act), so each is recorded once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence


STARTS = ("created", "first_move")


def start_of(control: dict | None) -> str:
    """When a time control's clocks start: `first_move` or `created` (no `start`: a game from before it, or an API
    client that did not ask; docs/clocks.md)."""
    return (control or {}).get("start", "created")


def initial(n: int, waiting: bool = False) -> dict:
    """A stopped clock of `n` seats with no time used (`waiting`: it waits for the game's first move)."""
    clock = {"used_ms": [0] * n, "running": [], "changed_ms": None, "flags": []}
    if waiting:
        clock["waiting"] = True
    return clock


def waiting(clock: dict) -> bool:
    """Whether the clocks still wait for the game's first move."""
    return clock.get("waiting") is True


def ms(timestamp: datetime) -> int:
    """A server timestamp as integer milliseconds since the epoch."""
    return int(round(timestamp.timestamp() * 1000))


def settle(clock: dict, to_act: list[int], mover: int | None, say: bool, at_ms: int, version: int) -> dict:
    """The clock after a batch at `at_ms` (first event `version`) by `mover` (None: the engine or the referee)
    after which `to_act` are to act."""
    if waiting(clock):
        if mover is None or say:
            return clock  # no clock runs before the game's first move
        clock = {k: v for k, v in clock.items() if k != "waiting"}  # the first move: nobody's time ran before it
    used = list(clock["used_ms"])
    acting = set(to_act)
    running, changed = [], False
    for seat, since, turn in clock["running"]:
        stays = seat in acting and not (seat == mover and not say)
        if stays:
            running.append([seat, since, turn])
        else:
            used[seat] += max(0, at_ms - since)
            changed = True
    still = {r[0] for r in running}
    for seat in sorted(acting - still):
        running.append([seat, at_ms, version])
        changed = True
    running.sort()
    return {"used_ms": used, "running": running, "changed_ms": at_ms if changed or clock["changed_ms"] is None else
            clock["changed_ms"], "flags": [list(f) for f in clock["flags"]]}


def settled(clock: dict, decider: Any, state: Any, batch: Sequence) -> dict:
    """The clock with a batch `(at_ms, version, mover, say)` settled at the game's `state` (nobody acts once the
    game is over): what a fold of the events holds at that version once the batch is complete."""
    at_ms, version, mover, say = batch
    to_act = [] if decider.outcome(state).is_over else list(decider.to_act(state))
    return settle(clock, to_act, mover, say, at_ms, version)


def flagged(clock: dict, seat: int, control: str, turn: int) -> dict:
    """The clock with one more recorded time flag."""
    return {**clock, "flags": [*(list(f) for f in clock["flags"]), [seat, control, turn]]}


def used_at(clock: dict, seat: int, now_ms: int) -> int:
    """A seat's thinking time at `now_ms`, its running turn included."""
    total = clock["used_ms"][seat]
    for s, since, _ in clock["running"]:
        if s == seat:
            total += max(0, now_ms - since)
    return total


def due_flags(clock: dict, game_ms: int | None, move_ms: int | None, now_ms: int) -> list[dict]:
    """The time flags due at `now_ms` and not yet recorded: [{seat, control, turn, used_ms, limit_ms}]."""
    recorded = {tuple(f) for f in clock["flags"]}
    out = []
    for seat, since, turn in clock["running"]:
        if game_ms is not None and (seat, "game", 0) not in recorded and used_at(clock, seat, now_ms) > game_ms:
            out.append({"seat": seat, "control": "game", "turn": 0, "used_ms": used_at(clock, seat, now_ms), "limit_ms": game_ms})
        if move_ms is not None and (seat, "move", turn) not in recorded and now_ms - since > move_ms:
            out.append({"seat": seat, "control": "move", "turn": turn, "used_ms": now_ms - since, "limit_ms": move_ms})
    return out


def next_deadline(clock: dict, game_ms: int | None, move_ms: int | None) -> int | None:
    """The earliest time (ms) at which a flag not yet recorded falls due, if any clock is running."""
    recorded = {tuple(f) for f in clock["flags"]}
    times = []
    for seat, since, turn in clock["running"]:
        if game_ms is not None and (seat, "game", 0) not in recorded:
            times.append(since + game_ms - clock["used_ms"][seat] + 1)
        if move_ms is not None and (seat, "move", turn) not in recorded:
            times.append(since + move_ms + 1)
    return min(times) if times else None
