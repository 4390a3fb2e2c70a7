"""A tournament's setup before round 1: the director edits its settings or deletes it (a tournament that cannot start
must not be stuck). Once a round has started, its settings and its games are the record: both are refused."""

from __future__ import annotations

from typing import Any

from domain.rules import InvalidSetup
from domain.tournament import spec as tspec
from domain.tournament.aggregate import Tournament

from service.errors import BadInput, Conflict

EDITABLE = ("name", "game", "options", "format", "games_per_table", "rounds", "duplicate", "spectator_delay",
            "time_control", "auto_rounds")


def _not_started(t: Tournament, what: str) -> None:
    if t.rounds:
        raise Conflict(f"round 1 has started: {what}")


def edit(t: Tournament, changes: Any) -> None:
    """Record the settings with `changes` applied (any of EDITABLE; null sets a field back to its default), validated
    again with the players entered; nothing is recorded when nothing changes. Raises BadInput naming the field,
    Conflict once round 1 has started."""
    if not isinstance(changes, dict) or not changes:
        raise BadInput("settings: name at least one field to change: " + ", ".join(EDITABLE), field="settings")
    unknown = sorted(str(k) for k in changes if k not in EDITABLE)
    if unknown:
        raise BadInput(f"{unknown[0]}: cannot be edited; editable: {', '.join(EDITABLE)} (players are entered one "
                       "by one)", field=unknown[0])
    _not_started(t, "its settings are fixed")
    merged = {k: v for k, v in {**t.settings, **changes}.items() if v is not None}
    try:
        settings = tspec.validate({**merged, "players": [dict(p) for p in t.players]})
    except InvalidSetup as e:
        raise BadInput(str(e), field=e.field) from None
    settings.pop("players")
    if settings != t.settings:
        t.edit(settings)


def delete(t: Tournament) -> None:
    """Record that the director deleted the tournament; Conflict once round 1 has started (its games are kept)."""
    _not_started(t, "a tournament with games cannot be deleted (its games are part of the record)")
    t.delete()
