"""The registry of deciders by game id (contract §1): the aggregate, records and API look games up here."""

from __future__ import annotations

from types import ModuleType

from . import el_royale

DECIDERS: dict[str, ModuleType] = {el_royale.GAME: el_royale}
KNOWN_GAMES = ("el-royale", "batallion", "four-virtues", "small-battle")


def decider_for(game: str) -> ModuleType:
    """The decider module of a game id; raises KeyError naming the known games."""
    try:
        return DECIDERS[game]
    except KeyError:
        if game in KNOWN_GAMES:
            raise KeyError(f"game {game!r} is not implemented yet; available: {', '.join(DECIDERS)}") from None
        raise KeyError(f"unknown game {game!r}: expected one of {', '.join(KNOWN_GAMES)}") from None
