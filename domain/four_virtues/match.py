"""Who deals the next game of a Four Virtues match (FV-1.2), for tournaments."""

from __future__ import annotations

from ..rules import NextDeal


def next_deal(setup, state) -> NextDeal:
    """FV-1.2: a game is already a series of rounds to the target, its first dealer drawn from its seed and the deal
    alternating each round; the rulebook names no rule between games, so every game of a match draws its first
    dealer from its own seed again (a tournament ruling, docs/tournaments.md)."""
    return NextDeal(None, None, "FV-1.2", "the first dealer is drawn from the game's seed")
