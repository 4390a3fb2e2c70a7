"""Who deals the next game of a Batallion match (BA-5.2), for tournaments."""

from __future__ import annotations

from ..rules import NextDeal
from .setup import Setup
from .state import State

RANK_BY_SCORE = True  # BA-5.2: the highest total of chips over all games wins


def match_games(setup: Setup) -> int:
    """BA-5.2: one game per player as dealer."""
    return setup.n


def next_deal(setup: Setup, state: State | None) -> NextDeal:
    """BA-5.2: the deal rotates left (the next seat clockwise) each game; the first dealer comes from the seed.

    Batallion has no starter (the high bidder attacks first, BA-4.1).
    """
    if state is None or state.dealer is None:
        return NextDeal(None, None, "BA-5.2", "first game of the match: the dealer is drawn from the seed")
    dealer = (state.dealer + 1) % setup.n
    return NextDeal(dealer, None, "BA-5.2", f"the deal rotates left: seat {dealer} deals after seat {state.dealer}")
