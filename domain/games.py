"""The registry of games (contract §1): the one place a new game is added, one line per game.

Everything else finds a game from here or by its id: the projections module
``projections/<id with _>.py`` and the page partial ``api/templates/games/<id>.html``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping

from .rules import Decider


class _Registry(MutableMapping):
    """Game id -> decider package, each package imported when first asked for: replaying an archive of one game
    loads that game alone. Iterating gives the ids; items() and values() load every game. (Mutable, as a dict is:
    tests take a game out.)"""

    def __init__(self, games: tuple[str, ...]):
        self._deciders: dict[str, Decider | None] = dict.fromkeys(games)  # None: not imported yet

    def __getitem__(self, game: str) -> Decider:
        decider = self._deciders[game]
        if decider is None:
            decider = importlib.import_module(f".{module_name(game)}", __package__)  # type: ignore[assignment]
            self._deciders[game] = decider
        return decider  # type: ignore[return-value]

    def __setitem__(self, game: str, decider: Decider) -> None:
        self._deciders[game] = decider

    def __delitem__(self, game: str) -> None:
        del self._deciders[game]

    def __contains__(self, game: object) -> bool:
        return game in self._deciders

    def __iter__(self) -> Iterator[str]:
        return iter(self._deciders)

    def __len__(self) -> int:
        return len(self._deciders)


DECIDERS: Mapping[str, Decider] = _Registry((
    "el-royale",
    "batallion",
    "small-battle",
    "four-virtues",
))
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
