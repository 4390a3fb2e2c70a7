"""The bot kinds and the one function that builds a bot for a seat of a game."""

from __future__ import annotations

import random

from .base import Bot
from .batallion import BatallionBot
from .el_royale import ElRoyaleBot
from .four_virtues import FourVirtuesBot
from .random_bot import RandomBot
from .small_battle import SmallBattleBot

HEURISTICS = {"el-royale": ElRoyaleBot, "batallion": BatallionBot, "four-virtues": FourVirtuesBot,
              "small-battle": SmallBattleBot}
BOT_KINDS = ("heuristic", "random")


class UnknownBot(ValueError):
    """A bot kind (or a game) no bot plays: the message names the known ones."""


def make_bot(kind: str, game: str, seat: int, rng: random.Random) -> Bot:
    """A fresh bot of `kind` for `seat` of a `game` (memory starts empty); raises UnknownBot."""
    if kind not in BOT_KINDS:
        raise UnknownBot(f"unknown bot {kind!r}: expected one of {', '.join(BOT_KINDS)}")
    if game not in HEURISTICS:
        raise UnknownBot(f"no bots play {game!r}; they play {', '.join(HEURISTICS)}")
    if kind == "random":
        return RandomBot(game, seat, rng)
    return HEURISTICS[game](seat, rng)
