"""Each game's projection plug-in, found by convention: ``projections/<game id with _>.py``.

A plug-in module offers ``table(state, viewer, disclose_all) -> dict`` (the game's table as
a viewer may see it) and ``redact(kind, data, viewer, seats) -> dict`` (a stored event's
data as a viewer may see it before the end). Adding a game adds its module; nothing here
changes.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from domain.games import DECIDERS, module_name

from .viewers import Viewer


@dataclass(frozen=True)
class GameProjection:
    """What the generic views need from one game."""

    table: Callable[[Any, Viewer, bool], dict]  # (state, viewer, disclose_all) -> the table
    redact: Callable[[str, dict, Viewer, int], dict]  # (kind, data, viewer, seats) -> data before the end


@lru_cache(maxsize=None)
def projection_for(game: str) -> GameProjection:
    """The projection plug-in of a game id; raises KeyError for a game that has none."""
    if game not in DECIDERS:
        raise KeyError(f"no views for game {game!r}; available: {', '.join(DECIDERS)}")
    module = importlib.import_module(f"{__package__}.{module_name(game)}")
    return GameProjection(module.table, module.redact)
