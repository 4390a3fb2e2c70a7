"""The registry of games (contract §1): the one list of games, one line per game, naming where its spec lives.

A game is found from its id through its `GameSpec` (domain/spec.py): its decider, its options, its capabilities,
and the names of its projection, bot and page partial. Nothing else lists the games.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager

from .rules import Decider
from .spec import GameSpec, load

GAMES = {
    "el-royale": "domain.el_royale.spec:SPEC",
    "batallion": "domain.batallion.spec:SPEC",
    "small-battle": "domain.small_battle.spec:SPEC",
    "four-virtues": "domain.four_virtues.spec:SPEC",
}


class _Specs(MutableMapping):
    """Game id -> GameSpec, each spec (and so its decider) imported when first asked for: replaying an archive of
    one game loads that game alone. Iterating gives the ids in registry order; items() and values() load every
    game. Mutable, as a dict is: tests take a game out, or register one of their own (`registered`)."""

    def __init__(self, locations: dict[str, str]):
        self._locations = dict(locations)
        self._specs: dict[str, GameSpec] = {}

    def __getitem__(self, game: str) -> GameSpec:
        spec = self._specs.get(game)
        if spec is None:
            spec = load(self._locations[game])
            if spec.id != game:
                raise RuntimeError(f"the spec at {self._locations[game]} is {spec.id!r}, registered as {game!r}")
            self._specs[game] = spec
        return spec

    def __setitem__(self, game: str, location: str | GameSpec) -> None:
        self._specs.pop(game, None)
        if isinstance(location, GameSpec):
            self._locations[game], self._specs[game] = f"<{game}>", location
        else:
            self._locations[game] = location

    def __delitem__(self, game: str) -> None:
        del self._locations[game]
        self._specs.pop(game, None)

    def __contains__(self, game: object) -> bool:
        return game in self._locations

    def __iter__(self) -> Iterator[str]:
        return iter(self._locations)

    def __len__(self) -> int:
        return len(self._locations)


class _Deciders(MutableMapping):
    """Game id -> decider, read through the specs (deleting a game here takes it out of the registry)."""

    def __init__(self, specs: _Specs):
        self._specs = specs

    def __getitem__(self, game: str) -> Decider:
        return self._specs[game].decider

    def __setitem__(self, game: str, decider: Decider) -> None:
        raise TypeError("register a game by its spec (domain.games.SPECS), not by its decider")

    def __delitem__(self, game: str) -> None:
        del self._specs[game]

    def __contains__(self, game: object) -> bool:
        return game in self._specs

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)


SPECS: Mapping[str, GameSpec] = _Specs(GAMES)
DECIDERS: Mapping[str, Decider] = _Deciders(SPECS)


def spec_for(game: str) -> GameSpec:
    """The spec of a game id; raises KeyError naming the known games."""
    try:
        return SPECS[game]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {game!r}: expected one of {', '.join(SPECS)}") from None


def decider_for(game: str) -> Decider:
    """The decider of a game id; raises KeyError naming the known games."""
    return spec_for(game).decider


def first_game() -> str:
    """The first registered game's id (the examples of the API's documentation use it)."""
    return next(iter(SPECS))


def module_name(game: str) -> str:
    """The Python module name of a game id (``a-game`` -> ``a_game``): the convention arbiter's own games follow
    (``domain/<module>/``). Generic code finds a game's files through its spec instead (`GameSpec.rulebook_file`,
    `.projection`, ...); this stays for code written before the specs."""
    return game.replace("-", "_")


@contextmanager
def registered(game: str, location: str | GameSpec):
    """A game registered for the duration of a `with` (tests register a game of their own this way); the registry is
    as it was after, in its order."""
    before = dict(SPECS._locations), dict(SPECS._specs)  # type: ignore[attr-defined]
    SPECS[game] = location  # type: ignore[index]
    try:
        yield SPECS[game]
    finally:
        SPECS._locations, SPECS._specs = before  # type: ignore[attr-defined]
