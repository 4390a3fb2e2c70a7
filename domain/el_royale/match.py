"""Who deals and starts the next game of an El Royale match (ER-2.4), for tournaments."""

from __future__ import annotations

from ..rules import NextDeal
from .setup import Setup
from .state import State


def next_deal(setup: Setup, state: State | None) -> NextDeal:
    """ER-2.4: the first game draws dealer and starter from its seed; later, a loser deals and the winner starts.

    R (ER-2.4): with several losers the dealer is the losing player holding the most cards at the end, ties going
    to the first such player clockwise from the winner. Tournament rulings (docs/tournaments.md): "the winner" is
    the seat whose play won (ER-4.1) or the last one standing (ER-4.3); when a team wins by elimination, its
    surviving member holding the fewest cards, ties first clockwise from the previous dealer; after a drawn game
    (ER-4.4) nobody won, so the next game is dealt as a first game.
    """
    if state is None:
        return NextDeal(None, None, "ER-2.4", "first game of the match: dealer and starter drawn from the seed")
    outcome = state.outcome
    if outcome is None or outcome.result not in ("win", "elimination"):
        return NextDeal(None, None, "ER-2.4", "the previous game had no winner: dealt as a first game, from the seed")
    n = state.n
    held = [state.hands[seat].bit_count() for seat in range(n)]
    winners = set(outcome.seats)
    if outcome.result == "win" and state.last_player is not None:
        winner = state.last_player
    elif len(winners) == 1:
        winner = next(iter(winners))
    else:
        survivors = [s for s in _clockwise(state.dealer if state.dealer is not None else 0, n)
                     if s in winners and state.surviving(s)] or sorted(winners)
        winner = min(survivors, key=lambda s: held[s])  # min keeps the first of equals, in clockwise order
    losers = [s for s in _clockwise(winner, n) if s not in winners]
    dealer = max(losers, key=lambda s: held[s])  # max keeps the first of equals: clockwise from the winner
    several = " (the loser holding the most cards)" if len(losers) > 1 else ""
    return NextDeal(dealer, winner, "ER-2.4", f"seat {dealer} lost{several} and deals; seat {winner} won and starts")


def _clockwise(start: int, n: int) -> list[int]:
    """The seats clockwise after `start`, `start` itself last."""
    return [(start + i) % n for i in range(1, n + 1)]
