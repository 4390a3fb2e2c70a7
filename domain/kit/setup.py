"""What every game's set-up checks before any move, written once: the options object, the seat numbers of a record's
dealer and starter, and the seats of a table of individuals. A game's `configure` composes them with its own rules."""

from __future__ import annotations

from typing import Any

from ..rules import InvalidSetup
from .codec import is_int


class Seated:
    """A set-up's seats, for a frozen dataclass with `names` (one per seat, in seat order)."""

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.names)  # type: ignore[attr-defined]

    def players(self) -> list[dict]:
        """The players list of a record for this set-up."""
        return [{"name": n} for n in self.names]  # type: ignore[attr-defined]


def options_object(options: Any, known: tuple[str, ...], title: str) -> dict:
    """A set-up's `options`: an object (absent: none) naming only the options the game knows; raises InvalidSetup."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidSetup("options", "must be an object")
    unknown = set(options) - set(known)
    if unknown:
        raise InvalidSetup("options", f"unknown {title} option(s): {', '.join(sorted(map(str, unknown)))}; "
                                      f"known: {', '.join(known)}")
    return options


def seat_numbers(n: int, fields: dict[str, Any], listed: bool = False) -> None:
    """Each given field (dealer, starter) is None or a seat number of a table of `n`; raises InvalidSetup, naming the
    seats one by one when `listed` (a game of a fixed size: "0 or 1"), else as a range."""
    if listed:
        words = f"must be a seat number, {', '.join(map(str, range(n - 1)))} or {n - 1}"
    else:
        words = f"must be a seat number from 0 to {n - 1}"
    for field, value in fields.items():
        if value is not None and (not is_int(value) or not 0 <= value < n):
            raise InvalidSetup(field, words)
