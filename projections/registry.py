"""Each game's projection plug-in, by game id (contract §1): the generic views dispatch through here.

A plug-in gives the table of a state for a viewer, the redaction of its stored events,
and every card of its pack (the disclosure ledger's final entry). Batallion and the
other games plug in by adding an entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from domain.cards import PACK, format_cards

from . import el_royale, el_royale_events
from .viewers import Viewer


@dataclass(frozen=True)
class GameProjection:
    """What the generic views need from one game."""

    table: Callable[[Any, Viewer, bool], dict]  # (state, viewer, disclose_all) -> the table
    redact: Callable[[str, dict, Viewer, int], dict]  # (kind, data, viewer, seats) -> data before the end
    every_card: tuple[str, ...]  # the whole pack, as strings


PROJECTIONS: dict[str, GameProjection] = {
    "el-royale": GameProjection(el_royale.table, el_royale_events.redact, tuple(format_cards(PACK))),
}


def projection_for(game: str) -> GameProjection:
    """The projection plug-in of a game id; raises KeyError naming the games that have one."""
    try:
        return PROJECTIONS[game]
    except KeyError:
        raise KeyError(f"no views for game {game!r} yet; available: {', '.join(PROJECTIONS)}") from None
