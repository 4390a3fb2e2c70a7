"""Bots: players that see only their own seat's view and answer with a move in record shape.

A bot is given a `SeatView` (the game id, its seat, the public players list, the options and
the table that `projections/<game>.table(state, Viewer("seat", s))` gives that seat, exactly
what a person playing the seat gets from ``GET /games/{id}/view``) and returns a move as a
record move (``{"seat", "type", ...}``, cards as strings). This package imports nothing of
the engine (no domain, projections or service): a bot cannot look at a state or a hidden card
because it has no way to reach one (tests/unit/test_bots.py checks the imports).

`make_bot(kind, game, seat, rng, heuristic)` builds one (`heuristic`: the bot its game's spec names); `BOT_KINDS`
names the kinds.
"""

from .base import Bot, SeatView
from .registry import BOT_KINDS, UnknownBot, make_bot

__all__ = ["BOT_KINDS", "Bot", "SeatView", "UnknownBot", "make_bot"]
