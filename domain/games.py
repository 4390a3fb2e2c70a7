"""The registry of games (contract §1): the one place a new game is added, one line per game.

Everything else finds a game from here or by its id: the projections module
``projections/<id with _>.py`` and the page partial ``api/templates/games/<id>.html``.
"""

from __future__ import annotations

from typing import cast

from . import batallion, el_royale, four_virtues, small_battle
from .rules import Decider

DECIDERS: dict[str, Decider] = {
    d.GAME: cast(Decider, d) for d in (
        el_royale,
        batallion,
        small_battle,
        four_virtues,
    )
}
KNOWN_GAMES = ("el-royale", "batallion", "four-virtues", "small-battle")


def decider_for(game: str) -> Decider:
    """The decider of a game id; raises KeyError naming the known games."""
    try:
        return DECIDERS[game]
    except KeyError:
        if game in KNOWN_GAMES:
            raise KeyError(f"game {game!r} is not implemented yet; available: {', '.join(DECIDERS)}") from None
        raise KeyError(f"unknown game {game!r}: expected one of {', '.join(KNOWN_GAMES)}") from None


def module_name(game: str) -> str:
    """The Python module name of a game id (``el-royale`` -> ``el_royale``)."""
    return game.replace("-", "_")
