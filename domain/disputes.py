"""What a dispute is, in one place: the events that open one, its kind, and how many await a ruling.

A game's `disputes` (domain.game.Game.disputes) hold two sources of entries, and every count of the room (the
catalogue's row behind the desk and `GET /games`, the tournament page, the table) counts both:

- a seat's dispute (`Game.DisputeFiled`): against the move at a version (`move`), or against the refusal of its own
  attempt (`refusal`);
- the clock's flag (`Game.TimeExpired`, kind `clock`): filed automatically when a seat runs out of time, by nobody
  at the table.

An entry awaits a ruling until a `Game.DisputeRuled` answers it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from .game import Game

KINDS = ("move", "refusal", "clock")
OPENED_BY = (Game.DisputeFiled, Game.TimeExpired)  # each opens one entry of the game's disputes
RULED_BY = Game.DisputeRuled


def opens(event: object) -> bool:
    """Whether an event opens an entry of its game's disputes (a seat's dispute or the clock's flag)."""
    return isinstance(event, OPENED_BY)


def kind(dispute: dict) -> str:
    """`clock` (a time flag, filed automatically), `refusal` (against a refused attempt) or `move`."""
    if dispute.get("time_expired") is not None:
        return "clock"
    return "refusal" if dispute.get("attempt") is not None else "move"


def automatic(dispute: dict) -> bool:
    """Whether nobody at the table filed it (the clock did)."""
    return kind(dispute) == "clock"


def open_count(disputes: Iterable[dict]) -> int:
    """How many of a game's disputes await a ruling."""
    return sum(1 for d in disputes if d.get("ruling") is None)


def described(dispute: dict) -> dict:
    """A copy of an entry with its `kind` and whether it is `automatic` (what every view and answer shows)."""
    out = copy.deepcopy(dispute)
    out.update(kind=kind(dispute), automatic=automatic(dispute))
    return out
