"""Who deals and starts the next game of a match: each decider's next_deal (ER-2.4, BA-5.2, FV-1.2, SB-1.2)."""

from __future__ import annotations

import random

import pytest

from domain import batallion, el_royale
from domain.games import DECIDERS
from domain.rules import NextDeal
from tests.tournament_support import played


def _played(decider, setup, seed: str, rng: random.Random):
    return played(next(game for game, d in DECIDERS.items() if d is decider), setup, seed, rng)


def test_the_first_game_of_an_el_royale_match_is_dealt_from_its_seed():
    setup = el_royale.configure({}, [{"name": "A"}, {"name": "B"}], None, None)
    assert el_royale.next_deal(setup, None) == NextDeal(None, None, "ER-2.4", el_royale.next_deal(setup, None).reason)


@pytest.mark.parametrize("n", [2, 4])  # three bots draw every game (battle limit): no winner to test
def test_after_an_el_royale_win_a_loser_holding_most_cards_deals_and_the_winner_starts(n):
    rng = random.Random(n)
    setup = el_royale.configure({"battle_limit": 150}, [{"name": f"P{i}"} for i in range(n)], None, None)
    checked = several = 0
    for g in range(12):
        state = _played(el_royale, setup, f"{n:02x}{g:02x}", rng)
        outcome = state.outcome
        deal = el_royale.next_deal(setup, state)
        assert deal.clause == "ER-2.4"
        if outcome.result not in ("win", "elimination") or outcome.team is not None:
            continue
        winner = outcome.seats[0]
        assert deal.starter == winner
        losers = [s for s in range(n) if s != winner]
        cards = {s: bin(state.hands[s]).count("1") for s in losers}
        most = max(cards.values())
        tied = [s for s in losers if cards[s] == most]
        # ties: the first of them met going clockwise from the winner
        expected = min(tied, key=lambda s: (s - winner) % n)
        assert deal.dealer == expected
        checked += 1
        several += len(losers) > 1
    assert checked >= 3
    if n > 2:
        assert several >= 1


def test_a_drawn_el_royale_game_is_followed_by_a_game_dealt_from_the_seed():
    setup = el_royale.configure({"battle_limit": 1}, [{"name": "A"}, {"name": "B"}, {"name": "C"}], None, None)
    state = _played(el_royale, setup, "d1", random.Random(1))
    assert state.outcome.result == "draw"
    deal = el_royale.next_deal(setup, state)
    assert (deal.dealer, deal.starter) == (None, None)


def test_el_royale_team_win_a_member_of_the_losing_team_deals():
    players = [{"name": "A", "team": "N"}, {"name": "B", "team": "E"}, {"name": "C", "team": "N"}, {"name": "D", "team": "E"}]
    setup = el_royale.configure({"battle_limit": 150}, players, None, None)
    rng = random.Random(5)
    for g in range(6):
        state = _played(el_royale, setup, f"7e{g:02x}", rng)
        if state.outcome.result in ("win", "elimination"):
            deal = el_royale.next_deal(setup, state)
            winners = set(state.outcome.seats)
            assert deal.dealer not in winners and deal.starter in winners
            return
    pytest.fail("no team game ended with a winner")


def test_batallion_deal_rotates_left_one_game_per_player():
    setup = batallion.configure({"variants": []}, [{"name": n} for n in "ABCD"], None, None)
    assert batallion.match_games(setup) == 4
    state = _played(batallion, setup, "ba01", random.Random(2))
    deal = batallion.next_deal(setup, state)
    assert deal.dealer == (state.dealer + 1) % 4 and deal.starter is None and deal.clause == "BA-5.2"


def test_four_virtues_and_small_battle_draw_again_from_each_games_seed():
    from domain import four_virtues, small_battle

    assert four_virtues.next_deal(None, None).__dict__ | {"reason": ""} == {"dealer": None, "starter": None, "clause": "FV-1.2", "reason": ""}
    assert small_battle.next_deal(None, None).__dict__ | {"reason": ""} == {"dealer": None, "starter": None, "clause": "SB-1.2", "reason": ""}
