"""Batallion's rollout player and the moves its analysis compares (domain/batallion/determinize.py, the spec's
`Analysis`): what a decision's analysis shows (the candidate moves, each one's value) is made of these, so they are
pinned here as data on stacked positions (tests/unit/test_batallion_rules.py's tables).

- the moves compared (`candidates`): every legal move while acquiring and bidding (None: the decider's own list);
  in the battles, per suit and target, an attack with every card of the suit or with its lowest card alone, and a
  defence of nothing, of the lowest card or of every card of the suit;
- the rollout player (`choose`): draws from the stock (it always holds cards while acquiring: BA-2.2), then throws away the first card of the
  suit it holds fewest of; passes every bid; attacks with every card of the suit it holds most of (not the suit of
  the attack before), at a random opponent or at the blind target; defends with every card of the attack's suit;
- a playout (`playout`): the game played to its end by that player (any legal move where it misses a rule), worth
  the seat's chips at the end.
"""

from __future__ import annotations

import random

import domain.batallion as ba
from domain.batallion import determinize as det
from domain.games import SPECS
from domain.rules import RuleViolation
from tests.unit.test_batallion_rules import Table, names, three

ANALYSIS = SPECS["batallion"].analysis


def _listed(moves) -> list[tuple]:
    return [(m["type"], names(m.get("cards", [])), m.get("target")) for m in moves]


def _first_attack() -> Table:
    """Seat 2 bid 5 and attacks first: spades AS KS QS QS (6) is its only suit worth the bid; clubs hold 4 singles."""
    return three().bids(None, 5, None)


def _defence() -> Table:
    t = _first_attack()
    t.play(2, "attack", cards="AS KS QS QS", target=0)
    return t


def _later_attack() -> Table:
    """Seat 0 attacks after the spades battle: clubs 2C AC AC, diamonds KD QD, hearts 6H 7H AH, spades 4S 5S."""
    t = _defence()
    t.play(0, "defend", cards="2S 3S")
    return t


def test_acquisition_and_bidding_compare_every_legal_move():
    t = Table(["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C TC 8D 8D 5H 2S JS JS TS", "5C 6C 7C 8C 3D 4D AS QS QS KS"],
              stock_top="KC")
    assert ANALYSIS.candidates(t.state, 1) is None
    assert ANALYSIS.candidates(three().state, 1) is None  # bidding


def test_the_first_attack_compares_each_suit_whole_or_its_lowest_card_at_each_target():
    t = _first_attack()
    assert _listed(ANALYSIS.candidates(t.state, 2)) == [
        ("attack", ["AS", "KS", "QS", "QS"], 0), ("attack", ["AS", "KS", "QS", "QS"], 1)]  # AS alone is under the bid


def test_a_defence_compares_none_the_lowest_card_and_every_card_of_the_suit():
    t = _defence()
    assert _listed(ANALYSIS.candidates(t.state, 0)) == [
        ("defend", [], None), ("defend", ["2S"], None), ("defend", ["2S", "3S", "4S", "5S"], None)]


def test_a_later_attack_compares_every_allowed_suit_whole_or_its_lowest_card():
    t = _later_attack()
    assert _listed(ANALYSIS.candidates(t.state, 0)) == [
        ("attack", ["AC"], 1), ("attack", ["AC"], 2), ("attack", ["2C", "AC", "AC"], 1), ("attack", ["2C", "AC", "AC"], 2),
        ("attack", ["QD"], 1), ("attack", ["QD"], 2), ("attack", ["KD", "QD"], 1), ("attack", ["KD", "QD"], 2),
        ("attack", ["AH"], 1), ("attack", ["AH"], 2), ("attack", ["6H", "7H", "AH"], 1), ("attack", ["6H", "7H", "AH"], 2)]


def test_the_rollout_player_draws_from_the_stock_then_throws_a_card_of_its_shortest_suit():
    t = Table(["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C TC 8D 8D 5H 2S JS JS TS", "5C 6C 7C 8C 3D 4D AS QS QS KS"],
              stock_top="KC")
    seat = t.state.to_act
    assert seat == 1
    rng = random.Random(0)
    assert det.choose(t.state, rng) == {"seat": 1, "type": "draw", "source": "stock"}
    t.play(1, "draw", source="stock")
    assert names(t.state.hands[1]) == names(ba.parse_card(x) for x in "9C 9C TC KC 8D 8D 5H 2S JS JS TS".split())
    assert det.choose(t.state, rng) == {"seat": 1, "type": "discard", "cards": [ba.parse_card("5H")]}  # hearts: one


def test_the_rollout_player_passes_every_bid():
    t = three()
    assert det.choose(t.state, random.Random(0)) == {"seat": t.state.to_act, "type": "pass"}


def test_the_rollout_player_attacks_with_its_longest_suit_at_a_random_opponent():
    t = _first_attack()  # clubs 5C 6C 7C 8C and spades AS KS QS QS, four cards each (clubs are under the bid: the
    picks = [det.choose(t.state, random.Random(i)) for i in range(16)]  # playout then takes any legal move)
    assert {tuple(names(m["cards"])) for m in picks} == {("5C", "6C", "7C", "8C"), ("AS", "KS", "QS", "QS")}
    assert all(m["seat"] == 2 and m["type"] == "attack" for m in picks)
    assert {m["target"] for m in picks} == {0, 1}


def test_the_rollout_player_never_repeats_the_suit_before_and_breaks_ties_at_random():
    t = _later_attack()  # clubs and hearts three cards each, spades (the suit before) two
    picks = [det.choose(t.state, random.Random(i)) for i in range(16)]
    assert {tuple(names(m["cards"])) for m in picks} == {("2C", "AC", "AC"), ("6H", "7H", "AH")}
    assert {m["target"] for m in picks} == {1, 2}


def test_the_rollout_player_attacks_the_blind_target():
    t = Table(["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C 8D 8D 5H 5H 2S JS JS TC", "5C 6C 7C 8C 3D 4D AS QS QS KS"],
              variants=["blind"]).acquire().bids(None, 5, None)
    t.play(2, "attack", cards="AS KS QS QS", target=0)
    t.play(0, "defend", cards="2S 3S")
    target = t.state.blind_target
    assert target is not None
    assert {det.choose(t.state, random.Random(i))["target"] for i in range(8)} == {target}


def test_the_rollout_player_defends_with_every_card_of_the_attacks_suit():
    t = _defence()
    assert det.choose(t.state, random.Random(0)) == {"seat": 0, "type": "defend",
                                                     "cards": [ba.parse_card(x) for x in "2S 3S 4S 5S".split()]}


def test_a_playout_is_the_game_played_to_its_end_worth_the_seats_chips():
    for t in (_first_attack(), _later_attack()):  # at the first attack the player's clubs miss the bid: any legal move
        _playouts(t)


def _playouts(t: Table) -> None:
    for seat in range(3):
        for k in range(4):
            value = ANALYSIS.playout(t.state, seat, random.Random(k), t.chance)
            s, rng = t.state, random.Random(k)
            while s.outcome is None:  # the same player, the same stream: every move of the rollout
                try:
                    s = ba.step(s, det.choose(s, rng), t.chance)[1]
                except RuleViolation:
                    s = ba.step(s, rng.choice(list(ba.legal_moves(s))), t.chance)[1]
            assert value == float(s.chips[seat]) and isinstance(value, float)
    assert ANALYSIS.playout(s, 1, random.Random(0), t.chance) == float(s.chips[1])
    assert ANALYSIS.candidates(s, 1) is None  # a finished game compares nothing
