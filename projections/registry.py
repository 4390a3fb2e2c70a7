"""Each game's projection plug-in: the module its spec names (``GameSpec.projection``, domain/spec.py).

A plug-in module offers ``table(state, viewer, disclose_all) -> dict`` (the game's table as
a viewer may see it) and ``redact(kind, data, viewer, seats) -> dict`` (a stored event's
data as a viewer may see it before the end). Adding a game adds its module and names it in
its spec; nothing here changes.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from domain.games import SPECS

from .viewers import Viewer


@dataclass(frozen=True)
class GameProjection:
    """What the generic views need from one game."""

    table: Callable[[Any, Viewer, bool], dict]  # (state, viewer, disclose_all) -> the table
    redact: Callable[[str, dict, Viewer, int], dict]  # (kind, data, viewer, seats) -> data before the end


def projection_for(game: str) -> GameProjection:
    """The projection plug-in of a game id; raises KeyError for a game that has none."""
    if game not in SPECS:
        raise KeyError(f"no views for game {game!r}; available: {', '.join(SPECS)}")
    return _projection(SPECS[game].projection)


@lru_cache(maxsize=None)
def _projection(module_name: str) -> GameProjection:
    module = importlib.import_module(module_name)
    return GameProjection(module.table, module.redact)
