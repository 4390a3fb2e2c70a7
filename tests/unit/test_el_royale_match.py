"""ER-2.4 in a match (`next_deal`): who deals and who starts the next game, with the tournament rulings of
docs/tournaments.md, as data. Written because `make mutation GAME=el-royale` found no El Royale test reaching it
(docs/mutation.md): only the tournament tests did. The states are real tables with the hands and the ending each case
needs set by hand: `next_deal` reads only the outcome, the hands, the eliminated seats, the last player and the dealer."""

from __future__ import annotations

import pytest

import domain.el_royale as er
from domain.cards import PACK
from domain.randomness import Chance, shuffle
from domain.rules import InvalidSetup, NextDeal, Outcome
from tests.support import record
from tests.unit.test_el_royale_rules import HANDS3, after

HANDS4 = [["5C", "9C", "JC", "KC"], ["5D", "7D", "QD", "2S"], ["5H", "8H", "3S", "4S"], ["6C", "6D", "6H", "6S"]]
HANDS6 = [["AC", "2C", "3C", "4C"], ["5C", "6C", "7C", "8C"], ["9C", "TC", "JC", "QC"], ["KC", "AD", "2D", "3D"],
          ["4D", "5D", "6D", "7D"], ["8D", "9D", "TD", "JD"]]


def ended(hands: list[list[str]], held: list[int], outcome: Outcome, last_player=None, eliminated=(), dealer=0,
          teams=None):
    """A table of len(hands) seats whose game ended with `outcome`, seat i holding held[i] cards."""
    state = after(record(hands, [], teams=teams)).state.clone()
    cards = iter(PACK)
    state.hands = tuple(sum(1 << next(cards) for _ in range(k)) for k in held)
    state.outcome, state.last_player, state.dealer = outcome, last_player, dealer
    state.eliminated = sum(1 << seat for seat in eliminated)
    return state


def test_the_first_game_of_a_match_draws_dealer_and_starter_from_its_seed():
    setup = er.configure({}, [{"name": "A"}, {"name": "B"}])
    assert er.next_deal(setup, None) == NextDeal(
        None, None, "ER-2.4", "first game of the match: dealer and starter drawn from the seed")


def test_after_a_drawn_or_unfinished_game_the_next_is_dealt_as_a_first_game():
    no_winner = NextDeal(None, None, "ER-2.4", "the previous game had no winner: dealt as a first game, from the seed")
    drawn = ended(HANDS3, [4, 4, 4], Outcome("draw"))
    assert er.next_deal(drawn.setup, drawn) == no_winner
    playing = after(record(HANDS3, [(0, "attack", ["5C"])])).state
    assert er.next_deal(playing.setup, playing) == no_winner


def test_against_one_loser_the_loser_deals_and_the_winner_starts():
    state = ended(HANDS3[:2], [0, 3], Outcome("win", (0,)), last_player=0)
    assert er.next_deal(state.setup, state) == NextDeal(1, 0, "ER-2.4", "seat 1 lost and deals; seat 0 won and starts")


def test_of_several_losers_the_one_holding_the_most_cards_deals():
    state = ended(HANDS4, [2, 0, 3, 6], Outcome("win", (1,)), last_player=1)
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 1, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 1 won and starts")


def test_losers_holding_equally_many_the_first_clockwise_from_the_winner_deals():
    state = ended(HANDS4, [5, 0, 5, 3], Outcome("win", (1,)), last_player=1)  # seats 2 and 0 hold 5: 2 comes first
    assert er.next_deal(state.setup, state).dealer == 2
    state = ended(HANDS4, [5, 3, 0, 5], Outcome("win", (2,)), last_player=2)  # seats 3 and 0: 3 first after 2
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 2, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 2 won and starts")


def test_a_team_s_win_by_play_is_started_by_the_member_who_played_it_and_dealt_by_the_other_team():
    teams = ["A", "B", "A", "B"]
    state = ended(HANDS4, [3, 4, 0, 4], Outcome("win", (0, 2), "A"), last_player=2, teams=teams)
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 2, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 2 won and starts")
    state = ended(HANDS4, [0, 2, 4, 5], Outcome("win", (0, 2), "A"), last_player=0, teams=teams)
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 0, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 0 won and starts")


def test_the_last_player_standing_starts():
    state = ended(HANDS3, [0, 7, 0], Outcome("elimination", (1,)), eliminated=(0, 2), dealer=1)
    assert er.next_deal(state.setup, state) == NextDeal(
        2, 1, "ER-2.4", "seat 2 lost (the loser holding the most cards) and deals; seat 1 won and starts")


def test_a_team_winning_by_elimination_is_started_by_its_survivor_holding_the_fewest_cards():
    teams = ["A", "B", "A", "B", "A", "B"]
    won = Outcome("elimination", (0, 2, 4), "A")
    state = ended(HANDS6, [5, 0, 3, 0, 4, 0], won, eliminated=(1, 3, 5), dealer=5, teams=teams)
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 2, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 2 won and starts")


def test_team_survivors_holding_equally_few_the_first_clockwise_from_the_previous_dealer_starts():
    teams = ["A", "B", "A", "B", "A", "B"]
    won = Outcome("elimination", (0, 2, 4), "A")
    # seat 4 is out too (it holds nothing, but only survivors may start); seats 0 and 2 hold 3 each
    state = ended(HANDS6, [3, 0, 3, 0, 0, 0], won, eliminated=(1, 3, 4, 5), dealer=1, teams=teams)
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 2, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 2 won and starts")
    state = ended(HANDS6, [3, 0, 3, 0, 0, 0], won, eliminated=(1, 3, 4, 5), dealer=3, teams=teams)
    assert er.next_deal(state.setup, state) == NextDeal(
        1, 0, "ER-2.4", "seat 1 lost (the loser holding the most cards) and deals; seat 0 won and starts")
    state = ended(HANDS6, [3, 0, 3, 0, 0, 0], won, eliminated=(1, 3, 4, 5), dealer=None, teams=teams)


def test_without_a_recorded_dealer_team_survivors_are_counted_clockwise_from_seat_0():
    state = ended(HANDS4, [0, 3, 0, 3], Outcome("elimination", (1, 3), "B"), eliminated=(0, 2), dealer=None,
                  teams=["A", "B", "A", "B"])
    assert er.next_deal(state.setup, state) == NextDeal(
        2, 1, "ER-2.4", "seat 2 lost (the loser holding the most cards) and deals; seat 1 won and starts")


def test_a_team_s_win_by_play_is_started_by_the_player_of_the_winning_card_even_beside_an_empty_handed_partner():
    # both partners hold nothing: the seat that played (ER-4.1) starts, not the first of them clockwise from the dealer
    state = ended(HANDS4, [0, 2, 0, 5], Outcome("win", (0, 2), "A"), last_player=0, dealer=0, teams=["A", "B", "A", "B"])
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 0, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 0 won and starts")


def test_a_team_s_win_by_elimination_is_started_by_a_survivor_even_when_a_loser_played_the_last_card():
    # seat 1's partner threw in last (ER-3.2 offers the defender's partners too), then seat 1 conceded and went out
    state = ended(HANDS4, [3, 0, 1, 0], Outcome("elimination", (0, 2), "A"), last_player=3, eliminated=(1, 3),
                  dealer=0, teams=["A", "B", "A", "B"])
    assert er.next_deal(state.setup, state) == NextDeal(
        3, 2, "ER-2.4", "seat 3 lost (the loser holding the most cards) and deals; seat 2 won and starts")


def test_the_previous_dealer_comes_last_among_equal_team_survivors():
    teams = ["A", "B", "A", "B", "A", "B"]
    won = Outcome("elimination", (0, 2, 4), "A")
    state = ended(HANDS6, [3, 0, 3, 0, 0, 0], won, eliminated=(1, 3, 4, 5), dealer=0, teams=teams)
    assert er.next_deal(state.setup, state).starter == 2


def test_the_game_is_dealt_from_the_unshuffled_pack_of_52():
    setup = er.configure({}, [{"name": "A"}, {"name": "B"}])
    assert er.pack(setup) == list(PACK) and len(set(er.pack(setup))) == 52


@pytest.mark.parametrize("seed", ["5eed", "00ff", "c0ffee", "ab12"])
def test_a_first_game_draws_its_dealer_and_starter_from_its_seed_under_their_labels(seed):
    """ER-2.4: dealer and starter picked at random from the committed seed (labels `dealer`, `starter`), the deal
    under `deal` (contract §4)."""
    setup = er.configure({}, [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E"}])
    dealt = er.start(setup, Chance(seed))[0]
    chance = Chance(seed)
    assert (dealt["dealer"], dealt["starter"]) == (chance.randbelow("dealer", 5), chance.randbelow("starter", 5))
    assert dealt["order"] == shuffle(seed, "deal", PACK)


def test_a_dealer_and_a_starter_given_by_the_table_deal_and_start_whatever_the_seed_would_draw():
    setup = er.configure({}, [{"name": "A"}, {"name": "B"}, {"name": "C"}], dealer=2, starter=0)
    dealt, started = er.start(setup, Chance("5eed"))  # the seed alone draws dealer 0, starter 1
    assert (dealt["dealer"], dealt["starter"]) == (2, 0)
    assert started == {"type": "battle_started", "attacker": 0, "defender": 1, "substitute_for": None}


@pytest.mark.parametrize("outcomes, reason", [
    ({"deal": list(range(51))}, "the outcome given for 'deal' is not exactly the 52 cards being shuffled"),
    ({"dealer": 5}, "the outcome given for 'dealer' must be an integer in 0..2"),
    ({"starter": 3}, "the outcome given for 'starter' must be an integer in 0..2"),
])
def test_an_opening_outcome_that_cannot_be_is_an_invalid_setup_saying_so(outcomes, reason):
    setup = er.configure({}, [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    with pytest.raises(InvalidSetup) as e:
        er.start(setup, Chance("5eed", outcomes))
    assert (e.value.field, e.value.reason) == ("outcomes", reason)
