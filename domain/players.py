"""A record's `players` list, checked the same way for every game (contract §2): each an object with a name."""

from __future__ import annotations

from .rules import InvalidSetup

MAX_NAME = 64


def player_name(player, i: int) -> str:
    """Seat i's name (default "Seat i"); raises InvalidSetup naming `players[i]` or `players[i].name`."""
    if not isinstance(player, dict):
        raise InvalidSetup(f"players[{i}]", "must be an object with a name")
    name = player.get("name", f"Seat {i}")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise InvalidSetup(f"players[{i}].name", f"must be a non-empty string of at most {MAX_NAME} characters")
    return name


def individual_names(players: list, no_teams: str) -> list[str]:
    """The names of a game for individuals: a player naming a team is refused with `no_teams` (the game's clause)."""
    names = []
    for i, p in enumerate(players):
        if isinstance(p, dict) and "team" in p:
            raise InvalidSetup(f"players[{i}].team", no_teams)
        names.append(player_name(p, i))
    return names
