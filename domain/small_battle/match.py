"""Who starts the next game of a Small Battle match (SB-1.2), for tournaments."""

from __future__ import annotations

from ..rules import NextDeal


def next_deal(setup, state) -> NextDeal:
    """SB-1.2: every game starts with its own high-card draw from its committed seed (label `first`, recorded in the
    game's `started` event); `dealer` means nothing here (SB-4.3)."""
    return NextDeal(None, None, "SB-1.2", "the first player is decided by the game's own high-card draw")
