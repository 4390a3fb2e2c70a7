"""The bot kinds and the one function that builds a bot for a seat of a game.

A game's heuristic bot is named by its spec (`GameSpec.bot`, "module:Class") and handed in by the caller: this
package imports nothing of the engine, so it never reads the registry of games itself.
"""

from __future__ import annotations

import importlib
import random

from .base import Bot
from .random_bot import RandomBot

BOT_KINDS = ("heuristic", "random")


class UnknownBot(ValueError):
    """A bot kind (or a game) no bot plays: the message names the known ones."""


def make_bot(kind: str, game: str, seat: int, rng: random.Random, heuristic: str | None = None) -> Bot:
    """A fresh bot of `kind` for `seat` of a `game` (memory starts empty); `heuristic` is the game's heuristic bot
    as its spec names it ("module:Class", built as Class(seat, rng)); raises UnknownBot."""
    if kind not in BOT_KINDS:
        raise UnknownBot(f"unknown bot {kind!r}: expected one of {', '.join(BOT_KINDS)}")
    if kind == "random":
        return RandomBot(game, seat, rng)
    if heuristic is None:
        raise UnknownBot(f"no heuristic bot plays {game!r}: its spec names none; the random bot plays every game")
    module, _, name = heuristic.partition(":")
    return getattr(importlib.import_module(module), name)(seat, rng)
