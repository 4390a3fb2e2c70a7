"""Batallion's rules as data (rules/batallion.md): every refusal with its clause and its reason, every invalid set-up
and malformed move with its field and reason, the verdict's `final`, the next deal of a match, and the functions
that tell the record and the views what an event was. Written to kill the mutants that
`make mutation GAME=batallion` found surviving (docs/mutation.md); the stacked tables come from
tests/unit/test_batallion_rules.py. Over 300 lines: it is one list, what the mutation run showed no test pinned, read
beside docs/mutation.md."""

from __future__ import annotations

import json

import pytest

import domain.batallion as ba
from domain.cards import CardError
from domain.randomness import Chance
from domain.rules import InvalidSetup, MalformedMove, NextDeal, Outcome
from tests.unit.test_batallion_rules import H0, H1, H2, Table, c, cs, drained, jokers, names, players, three


def refusal(t: Table, seat: int, kind: str, **fields) -> tuple[str, str]:
    v = t.refused(seat, kind, **fields)
    return v.clause, v.reason


# -- BA-1.1, BA-6.4 the set-up -------------------------------------------------------------------------------


@pytest.mark.parametrize("options, players_, dealer, starter, field, reason", [
    ("x", players(3), None, None, "options", "must be an object"),
    ({"variants": [], "pace": 1, "bet": 2}, players(3), None, None, "options",
     "unknown Batallion option(s): bet, pace; known: variants, chips"),
    ({"variants": "blind"}, players(3), None, None, "options.variants",
     "must be a list of variant names from five_six, jokers, blind, guts, scarcity"),
    ({"variants": ["blind", 3]}, players(3), None, None, "options.variants",
     "must be a list of variant names from five_six, jokers, blind, guts, scarcity"),
    ({"variants": ["blind", "fast"]}, players(3), None, None, "options.variants",
     "unknown variant 'fast': expected some of five_six, jokers, blind, guts, scarcity (BA-6.4)"),
    ({"variants": ["guts", "guts"]}, players(3), None, None, "options.variants", "a variant is named twice (BA-6.4)"),
    ({"variants": ["f" * 40 + "ghij"]}, players(3), None, None, "options.variants",  # a long name: its first 40 letters
     f"unknown variant '{'f' * 40}': expected some of five_six, jokers, blind, guts, scarcity (BA-6.4)"),
    ({"chips": 15}, players(3), None, None, "options.chips",
     "chips may only be chosen with the five_six variant (BA-1.1, BA-6.4)"),
    ({"variants": ["five_six"], "chips": 10}, players(5), None, None, "options.chips", "must be 15 or 20 (BA-1.1)"),
    ({"variants": ["five_six"], "chips": 20.0}, players(5), None, None, "options.chips", "must be 15 or 20 (BA-1.1)"),
    ({}, players(2), None, None, "players", "Batallion needs a list of 3 or 4 players (five_six: 5 or 6) (BA-1.1)"),
    ({}, players(5), None, None, "players", "Batallion needs a list of 3 or 4 players (five_six: 5 or 6) (BA-1.1)"),
    ({"variants": ["five_six"]}, players(4), None, None, "players",
     "Batallion needs a list of 5 or 6 players with five_six (BA-1.1)"),
    ({"variants": ["five_six"]}, players(7), None, None, "players",
     "Batallion needs a list of 5 or 6 players with five_six (BA-1.1)"),
    ({}, {"P0": {}}, None, None, "players", "Batallion needs a list of 3 or 4 players (five_six: 5 or 6) (BA-1.1)"),
    ({}, [{"name": "A"}, {"name": "B", "team": "x"}, {}], None, None, "players[1].team",
     "Batallion is played by individuals: no teams (BA-6.4)"),
    ({}, players(4), 4, None, "dealer", "must be a seat number from 0 to 3"),
    ({}, players(3), -1, None, "dealer", "must be a seat number from 0 to 2"),
    ({}, players(3), False, None, "dealer", "must be a seat number from 0 to 2"),
    ({}, players(3), 0, 0, "starter",
     "Batallion has no starter: the high bidder (or the dealer, BA-3.3) attacks first (BA-4.1)"),
])
def test_a_setup_the_rules_forbid_is_invalid_with_its_field_and_reason(options, players_, dealer, starter, field, reason):
    with pytest.raises(InvalidSetup) as e:
        ba.configure(options, players_, dealer, starter)
    assert (e.value.field, e.value.reason) == (field, reason)


def test_a_dealer_given_by_the_table_deals_whatever_the_seed_would_draw():
    s = ba.configure({}, players(3), 2)  # the seed alone would draw seat 1
    [dealt] = ba.start(s, Chance("5eedba77"))
    assert dealt["dealer"] == 2
    [drawn] = ba.start(ba.configure({}, players(3)), Chance("5eedba77"))
    assert drawn["dealer"] == 1


def test_a_wrong_deal_outcome_is_an_invalid_setup_that_says_what_is_wrong():
    s = ba.configure({}, players(3))
    with pytest.raises(InvalidSetup) as e:
        ba.start(s, Chance("5eedba77", {"deal": ba.pack(s)[1:]}))
    assert (e.value.field, e.value.reason) == ("outcomes", "the outcome given for 'deal' is not exactly the 104 cards being shuffled")


def test_the_table_before_the_deal_as_a_snapshot():
    s = ba.configure({}, players(3))
    assert ba.dump_state(ba.initial_state(s)) == {
        "setup": {"names": ["P0", "P1", "P2"], "variants": [], "chips": 10, "dealer": None, "starter": None}, "n": 3,
        "hands": [[], [], []], "stock": [], "discard": [], "chips": [10, 10, 10], "chips_out": 0, "phase": "acquisition",
        "dealer": None, "to_act": None, "drawn": False, "turns": 0, "bids": [], "high_bid": None, "high_bidder": None,
        "battle": None, "prev_suit": None, "last_attacker": None, "first_attack": False, "minimum": None,
        "blind_target": None, "ties": 0, "reshuffles": 0, "outcome": None}


def test_a_table_is_the_players_the_variants_the_chips_and_the_dealer_as_given():
    assert ba.configure(None, players(3)) == ba.Setup(("P0", "P1", "P2"), (), 10, None, None)
    assert ba.configure({}, players(4), 3, None) == ba.Setup(("P0", "P1", "P2", "P3"), (), 10, 3, None)
    assert ba.configure({"variants": ["five_six"]}, players(6), 0) == ba.Setup(
        tuple(f"P{i}" for i in range(6)), ("five_six",), 15, 0, None)
    assert ba.configure({"variants": ["five_six", "blind"], "chips": 20}, players(5)).chips == 20
    s = ba.configure({"variants": ["scarcity", "guts", "jokers"]}, players(3))
    assert s.variants == ("scarcity", "guts", "jokers") and s.options() == {"variants": ["scarcity", "guts", "jokers"]}
    assert (s.hand_size, s.jokers, s.packs, s.max_group, s.min_bid) == (7, 4, 2, 2, 4)
    assert (ba.configure({"variants": ["five_six"]}, players(5)).max_group,) == (3,)


@pytest.mark.parametrize("variants, deck, reason", [
    ([], "short", "must hold each card exactly 2 times (104 cards), got 103 cards"),
    ([], "joker", "holds jokers but the jokers variant is not in play (BA-6.4)"),
    (["jokers"], "short", "must hold each card exactly 2 times and the 4 jokers (108 cards), got 107 cards"),
    (["five_six"], "short", "must hold each card exactly 3 times (156 cards), got 155 cards"),
])
def test_a_stacked_deck_that_is_not_the_games_packs_is_invalid_with_its_reason(variants, deck, reason):
    n = 5 if "five_six" in variants else 3
    s = ba.configure({"variants": variants}, players(n))
    cards = ba.pack(s)[1:] + ([ba.JOKER] if deck == "joker" else [])
    with pytest.raises(InvalidSetup) as e:
        ba.check_deck(s, cards)
    assert (e.value.field, e.value.reason) == ("deck", reason)
    ba.check_deck(s, list(reversed(ba.pack(s))))  # the packs in any order


# -- BA-6.4 record moves -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("raw, field, reason", [
    ({"type": "draw"}, "source", "a draw needs source 'stock' or 'discard' (BA-6.4)"),
    ({"type": "draw", "source": "pile"}, "source", "a draw needs source 'stock' or 'discard' (BA-6.4)"),
    ({"type": "discard"}, "cards", "a discard needs a cards list"),
    ({"type": "defend"}, "cards", "a defend needs a cards list"),
    ({"type": "attack", "target": 1}, "cards", "a attack needs a cards list"),
    ({"type": "discard", "cards": "AC"}, "cards", "must be a list of card strings"),
    ({"type": "attack", "cards": ["AC"], "target": -1}, "target",
     "an attack names the seat attacked, a number from 0 to 2 (BA-6.4)"),
    ({"type": "attack", "cards": ["AC"], "target": 3}, "target",
     "an attack names the seat attacked, a number from 0 to 2 (BA-6.4)"),
    ({"type": "attack", "cards": ["AC"], "target": False}, "target",
     "an attack names the seat attacked, a number from 0 to 2 (BA-6.4)"),
    ({"type": "bid", "amount": None}, "amount", "a bid needs an integer amount (BA-6.4)"),
    ({"type": "bid", "amount": False}, "amount", "a bid needs an integer amount (BA-6.4)"),
    ({"type": "say", "text": None}, "text", "a say needs a text string"),
])
def test_a_malformed_move_names_its_field_and_reason(raw, field, reason):
    with pytest.raises(MalformedMove) as e:
        ba.parse_move({"seat": 1, **raw}, 3)
    assert (e.value.field, e.value.reason) == (field, reason)


def test_a_bad_card_string_in_a_move_names_its_place_and_the_string():
    with pytest.raises(MalformedMove) as e:
        ba.parse_move({"seat": 0, "type": "defend", "cards": ["AS", "KS", "XX"]}, 3)
    assert e.value.field == "cards[2]"
    with pytest.raises(CardError) as bad:
        ba.parse_card("XX")
    assert e.value.reason == str(bad.value) and "XX" in e.value.reason


def test_a_well_formed_move_keeps_exactly_its_own_fields():
    raw = {"seat": 2, "type": "attack", "cards": ["JK", "10s", "ts"], "target": 0, "note": "x", "amount": 3}
    assert ba.parse_move(raw, 3) == {"seat": 2, "type": "attack", "cards": [52, c("TS"), c("TS")], "target": 0}
    assert ba.parse_move({"seat": 0, "type": "draw", "source": "discard", "cards": []}, 3) == {
        "seat": 0, "type": "draw", "source": "discard"}
    assert ba.parse_move({"seat": 0, "type": "bid", "amount": 7, "text": "x"}, 3) == {"seat": 0, "type": "bid", "amount": 7}
    assert ba.parse_move({"seat": 0, "type": "pass", "amount": 7}, 3) == {"seat": 0, "type": "pass"}
    assert ba.parse_move({"seat": 0, "type": "say", "text": ""}, 3) == {"seat": 0, "type": "say", "text": ""}
    assert ba.parse_move({"seat": 5, "type": "attack", "cards": [], "target": 5}, 6)["target"] == 5
    assert ba.format_move({"seat": 0, "type": "defend", "cards": [52, 0]}) == {"seat": 0, "type": "defend", "cards": ["JK", "AC"]}


# -- every refusal of play, with its clause and reason ------------------------------------------------------------


def test_acquisition_refusals_name_ba_2_2_and_say_why():
    t = Table([H0, H1, H2], up="KH", stock_top="QC")
    assert refusal(t, 2, "draw", source="stock") == ("BA-2.2", "not your turn: seat 1 is to act")
    assert refusal(t, 1, "discard", cards=cs("9C")) == ("BA-2.2", "discard is not allowed now: draw expected")
    assert refusal(t, 1, "bid", amount=4) == ("BA-2.2", "bid is not allowed now: draw expected")
    t.play(1, "draw", source="stock")
    assert refusal(t, 1, "draw", source="discard") == ("BA-2.2", "draw is not allowed now: discard expected")
    assert refusal(t, 1, "discard", cards=cs("9C 9C")) == ("BA-2.2", "discard exactly one card")
    assert refusal(t, 1, "discard", cards=[]) == ("BA-2.2", "discard exactly one card")
    assert refusal(t, 1, "discard", cards=cs("KS")) == ("BA-2.2", "you do not hold KS")


def test_bidding_refusals_name_ba_3_1_or_ba_3_2_and_say_why():
    t = three()
    assert refusal(t, 0, "bid", amount=4) == ("BA-3.1", "not your turn: seat 1 is to act")
    assert refusal(t, 1, "attack", cards=cs("JS JS"), target=2) == ("BA-3.1", "attack is not allowed now: bid or pass expected")
    assert refusal(t, 1, "bid", amount=3) == ("BA-3.2", "a bid is at least 4")
    assert refusal(t, 1, "bid", amount=6) == ("BA-3.2", "the bid is higher than the value of your best attack")
    t.bids(5)
    assert refusal(t, 2, "bid", amount=5) == ("BA-3.2", "a bid must be higher than the high bid of 5")
    assert refusal(t, 2, "bid", amount=4) == ("BA-3.2", "a bid must be higher than the high bid of 5")
    t.bids(6)
    assert refusal(t, 0, "bid", amount=5) == ("BA-3.2", "a bid must be higher than the high bid of 6")
    t5 = Table(["AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "QS QS QS 2C 3C 4C 5C 6C 7C 8C", "AS 2S 3S 4D 5D 6D 7D 8D 9D TD",
                "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"], up="KD", variants=["five_six"]).acquire()
    assert refusal(t5, 1, "bid", amount=4) == ("BA-3.2", "a bid is at least 5")
    t5.play(1, "bid", amount=5)  # exactly the minimum
    t5.play(2, "bid", amount=6)  # the diamonds' 6 singles: exactly the best
    assert t5.state.high_bid == 6


def test_attack_refusals_name_their_clause_and_say_why():
    t = jokers().bids(8, None, None)  # seat 1 opens with a minimum of 8
    assert refusal(t, 0, "attack", cards=cs("AC"), target=1) == ("BA-4.1", "not your turn: seat 1 is to act")
    assert refusal(t, 1, "defend", cards=[]) == ("BA-4.1", "defend is not allowed now: attack expected")
    assert refusal(t, 1, "attack", cards=[], target=2) == ("BA-4.1", "an attack needs at least one card")
    assert refusal(t, 1, "attack", cards=cs("JK KH"), target=2) == ("BA-4.1", "you do not hold JK KH")
    assert refusal(t, 1, "attack", cards=cs("JK JK 2S"), target=2) == ("BA-1.4", "at most one joker in one attack")
    assert refusal(t, 1, "attack", cards=cs("JK"), target=2) == (
        "BA-1.4", "a joker may only be played as a further copy of a card also played")
    assert refusal(t, 1, "attack", cards=cs("9C 2S"), target=2) == ("BA-4.1", "an attack is made with cards of one suit")
    assert refusal(t, 1, "attack", cards=cs("JS JS JK"), target=2) == (
        "BA-1.4", "the joker can join no group: every group is already at its largest")
    assert refusal(t, 1, "attack", cards=cs("2S JS JS"), target=2) == (
        "BA-4.1", "the first attack must be worth at least the bid of 8")
    assert refusal(t, 1, "attack", cards=cs("2S JS JS JK"), target=1) == ("BA-4.1", "you may not attack yourself")
    t.play(1, "attack", cards=cs("JK 2S JS JS"), target=0)  # exactly the bid: 8; led by the joker, still spades
    assert refusal(t, 1, "defend", cards=[]) == ("BA-4.4", "not your turn: seat 0 is to act")
    assert refusal(t, 0, "attack", cards=cs("AC"), target=1) == ("BA-4.4", "attack is not allowed now: defend expected")
    t.play(0, "defend", cards=[])
    assert refusal(t, 2, "pass") == ("BA-4.2", "pass is not allowed now: attack expected")
    assert refusal(t, 2, "attack", cards=[], target=0) == ("BA-4.2", "an attack needs at least one card")
    assert refusal(t, 2, "attack", cards=cs("KH"), target=0) == ("BA-4.2", "you do not hold KH")
    assert refusal(t, 2, "attack", cards=cs("5C 3D"), target=0) == ("BA-4.2", "an attack is made with cards of one suit")
    assert refusal(t, 2, "attack", cards=cs("QS QS JK"), target=0) == (
        "BA-4.2", "the previous attack was in spades: choose another suit")
    assert refusal(t, 2, "attack", cards=cs("5C"), target=2) == ("BA-4.2", "you may not attack yourself")
    t.play(2, "attack", cards=cs("5C JK"), target=0)  # a later attack has no minimum: 4


def test_the_events_of_a_battle_as_data():
    t = three().bids(4, None, None)
    assert t.events[-2:] == [{"type": "passed", "seat": 0},
                             {"type": "attack_turn", "seat": 1, "skipped": [], "first": True, "minimum": 4}]
    t.play(1, "attack", cards=cs("JS JS"), target=2)
    assert t.play(2, "defend", cards=[]) == [  # the attacker draws its two cards back; the next turn has no minimum
        {"type": "defended", "seat": 2, "cards": [], "attack_value": 4, "defence_value": 0},
        {"type": "chips_lost", "seat": 2, "amount": 4},
        {"type": "drew", "seat": 1, "source": "stock", "card": c("AC"), "refill": True},
        {"type": "drew", "seat": 1, "source": "stock", "card": c("2C"), "refill": True},
        {"type": "attack_turn", "seat": 2, "skipped": [], "first": False, "minimum": None}]


def test_a_game_that_ends_on_chips_says_so_in_its_last_event():
    t = three().bids(5, None, None)
    t.play(1, "attack", cards=cs("9C 9C TC"), target=2)
    t.play(2, "defend", cards=[])
    t.play(2, "attack", cards=cs("AS"), target=0)
    assert t.play(0, "defend", cards=cs("2S 3S 4S 5S"))[-1] == {"type": "ended", "by": "chips", "seats": [0]}


def test_the_suit_a_later_attack_may_not_repeat_is_named_in_the_refusal():
    t = three().bids(None, None, None)  # the dealer attacks first
    t.play(0, "attack", cards=cs("AC"), target=1)
    t.play(1, "defend", cards=[])
    assert refusal(t, 1, "attack", cards=cs("9C"), target=0) == ("BA-4.2", "the previous attack was in clubs: choose another suit")
    t.play(1, "attack", cards=cs("8D 8D"), target=2)
    t.play(2, "defend", cards=[])
    assert refusal(t, 2, "attack", cards=cs("3D"), target=0) == (
        "BA-4.2", "the previous attack was in diamonds: choose another suit")
    t.play(2, "attack", cards=cs("AS"), target=0)
    t.play(0, "defend", cards=cs("2S"))
    assert refusal(t, 0, "attack", cards=cs("3S"), target=2) == ("BA-4.2", "the previous attack was in spades: choose another suit")
    t.play(0, "attack", cards=cs("6H 7H"), target=1)
    t.play(1, "defend", cards=[])
    assert refusal(t, 1, "attack", cards=cs("5H"), target=0) == ("BA-4.2", "the previous attack was in hearts: choose another suit")


def test_defence_refusals_name_ba_4_4_and_say_why():
    t = jokers().bids(8, None, None)
    t.play(1, "attack", cards=cs("JK 2S JS JS"), target=2)
    assert refusal(t, 2, "defend", cards=cs("KS KS")) == ("BA-4.4", "you do not hold KS KS")
    assert refusal(t, 2, "defend", cards=cs("QS QS JK")) == ("BA-4.4", "a joker may not be part of a defence (BA-1.4)")
    assert refusal(t, 2, "defend", cards=cs("AS 5C")) == ("BA-4.4", "a defence is made with cards of the attack's suit, spades")
    t = three().bids(None, None, None)
    t.play(0, "attack", cards=cs("QD KD"), target=2)
    assert refusal(t, 2, "defend", cards=cs("AS")) == ("BA-4.4", "a defence is made with cards of the attack's suit, diamonds")


def test_the_blind_target_refusal_names_the_richest_opponent():
    t = three(variants=["blind"], outcomes={"blind:1": 1}).bids(4, None, None)  # seats 0 and 2 tie: roll 1, seat 2
    assert refusal(t, 1, "attack", cards=cs("JS JS"), target=0) == (
        "BA-4.3", "under blind the attack goes to seat 2, the opponent with the most chips")
    t.play(1, "attack", cards=cs("JS JS"), target=2)


def test_a_wrong_recorded_outcome_refuses_the_move_that_needs_it_and_says_what_is_wrong():
    t, before = drained(outcomes={"reshuffle:1": [0, 1]})
    defence = [x for x in before.hands[2] if x // 13 == 0]
    pile = len(before.discard) + len(before.battle[2]) + len(defence)  # the discard pile once the battle is over
    assert pile == 81 and refusal(t, 2, "defend", cards=defence) == (
        "BA-4.6", "the outcome given for 'reshuffle:1' is not exactly the 81 cards being shuffled")
    t = three(variants=["blind"], outcomes={"blind:1": 2}).bids(4, None)
    assert refusal(t, 0, "pass") == ("BA-4.3", "the outcome given for 'blind:1' must be an integer in 0..1")


def test_after_the_end_every_move_is_refused_with_ba_5_1_and_its_reason():
    t = three().bids(5, None, None)
    t.play(1, "attack", cards=cs("9C 9C TC"), target=2)
    t.play(2, "defend", cards=[])
    t.play(2, "attack", cards=cs("AS"), target=0)
    t.play(0, "defend", cards=cs("2S 3S 4S 5S"))
    assert refusal(t, 1, "say", text="gg") == ("BA-5.1", "the game is over: no further moves")


# -- the verdict's final object (contract §2) ----------------------------------------------------------------------


def test_the_final_object_is_the_referees_whole_view_with_card_names():
    t = three().bids(5, None, None)
    t.play(1, "attack", cards=cs("9C 9C TC"), target=2)
    assert ba.final(t.state) == {
        "hands": {"0": ["AC", "QD", "KD", "AH", "6H", "7H", "2S", "3S", "4S", "5S"],
                  "1": ["8D", "8D", "5H", "5H", "2S", "JS", "JS"],
                  "2": ["5C", "6C", "7C", "8C", "3D", "4D", "AS", "QS", "QS", "KS"]},
        "chips": {"0": 10, "1": 10, "2": 10}, "chips_out": 0, "stock_count": 73, "discard": ["2H"],
        "battle": {"attacker": 1, "target": 2, "cards": ["9C", "9C", "TC"]}, "phase": "battles", "high_bid": 5}
    t.play(2, "defend", cards=[])  # seat 2 loses 5; seat 2 draws five back from the stock, then attacks
    final = ba.final(t.state)
    assert final["chips"] == {"0": 10, "1": 10, "2": 5} and final["chips_out"] == 5 and final["battle"] is None
    assert final["discard"] == ["2H", "9C", "9C", "TC"] and final["stock_count"] == 73 - 3 - 0
    assert [len(h) for h in final["hands"].values()] == [10, 10, 10]


def test_the_final_object_of_a_table_before_the_deal_is_empty():
    s = ba.configure({"variants": ["jokers"]}, players(4))
    assert ba.final(ba.initial_state(s)) == {
        "hands": {"0": [], "1": [], "2": [], "3": []}, "chips": {"0": 10, "1": 10, "2": 10, "3": 10}, "chips_out": 0,
        "stock_count": 0, "discard": [], "battle": None, "phase": "acquisition", "high_bid": None}


# -- BA-5.2 matches ---------------------------------------------------------------------------------------------------


def test_a_match_is_one_game_per_player_and_the_deal_rotates_left():
    s = ba.configure({}, players(4))
    assert ba.match_games(s) == 4 and ba.RANK_BY_SCORE is True
    first = NextDeal(None, None, "BA-5.2", "first game of the match: the dealer is drawn from the seed")
    assert ba.next_deal(s, None) == first
    assert ba.next_deal(s, ba.initial_state(s)) == first  # a table not dealt yet has no dealer to rotate from
    dealt = Table([H0, H1, H2], dealer=1).state
    s3 = dealt.setup
    assert ba.next_deal(s3, dealt) == NextDeal(2, None, "BA-5.2", "the deal rotates left: seat 2 deals after seat 1")
    last = Table([H0, H1, H2], dealer=2).state
    assert ba.next_deal(s3, last) == NextDeal(0, None, "BA-5.2", "the deal rotates left: seat 0 deals after seat 2")


# -- what an event was: its move, its clause, what it shows, what chance fixed ---------------------------------------


def test_the_seats_to_act_and_the_outcome_while_the_game_runs():
    s = ba.configure({}, players(3))
    before = ba.initial_state(s)
    assert ba.to_act(before) == () and ba.outcome(before) == Outcome(None, (), None, (10, 10, 10))
    t = three().bids(4, None, None)
    assert ba.to_act(t.state) == (1,) and ba.outcome(t.state) == Outcome(None, scores=(10, 10, 10))
    t.play(1, "attack", cards=cs("JS JS"), target=2)
    assert ba.to_act(t.state) == (2,)


@pytest.mark.parametrize("event, move", [
    ({"type": "drew", "seat": 1, "source": "discard", "card": 3}, {"seat": 1, "type": "draw", "source": "discard"}),
    ({"type": "drew", "seat": 1, "source": "stock", "card": 3, "refill": True}, None),
    ({"type": "discarded", "seat": 0, "cards": (5,)}, {"seat": 0, "type": "discard", "cards": [5]}),
    ({"type": "bid", "seat": 2, "amount": 6}, {"seat": 2, "type": "bid", "amount": 6}),
    ({"type": "passed", "seat": 2}, {"seat": 2, "type": "pass"}),
    ({"type": "attacked", "seat": 1, "target": 0, "cards": [8, 8], "first": True},
     {"seat": 1, "type": "attack", "cards": [8, 8], "target": 0}),
    ({"type": "defended", "seat": 0, "cards": [], "attack_value": 4, "defence_value": 0},
     {"seat": 0, "type": "defend", "cards": []}),
    ({"type": "said", "seat": 0, "text": "hm"}, {"seat": 0, "type": "say", "text": "hm"}),
    ({"type": "chips_lost", "seat": 0, "amount": 4}, None),
    ({"type": "attack_turn", "seat": 0, "skipped": [], "first": True, "minimum": None}, None),
    ({"type": "ended", "by": "chips", "seats": [0]}, None),
])
def test_each_players_move_is_read_back_from_its_event_and_automatic_steps_are_none(event, move):
    assert ba.move_of(event) == move


@pytest.mark.parametrize("event, clause", [
    ({"type": "dealt"}, "BA-1.2"), ({"type": "drew", "source": "stock"}, "BA-2.2"),
    ({"type": "drew", "source": "stock", "refill": True}, "BA-4.6"), ({"type": "discarded"}, "BA-2.2"),
    ({"type": "bid"}, "BA-3.2"), ({"type": "passed"}, "BA-3.1"), ({"type": "attacked", "first": True}, "BA-4.1"),
    ({"type": "attacked", "first": False}, "BA-4.2"), ({"type": "defended"}, "BA-4.4"),
    ({"type": "chips_lost"}, "BA-4.5"), ({"type": "chips_paid"}, "BA-4.5"), ({"type": "reshuffled"}, "BA-4.6"),
    ({"type": "ended"}, "BA-5.1"), ({"type": "said"}, "BA-6.3"),
    ({"type": "attack_turn", "first": True, "minimum": None}, "BA-3.3"),  # everybody passed: the dealer
    ({"type": "attack_turn", "first": True, "minimum": 4}, "BA-4.1"),
    ({"type": "attack_turn", "first": False, "minimum": None}, "BA-6.1"),
    ({"type": "attack_turn", "first": False, "minimum": None, "roll": 0}, "BA-4.3"),
    ({"type": "attack_turn", "first": True, "minimum": 5, "roll": 1}, "BA-4.3"),
    ({"type": "attack_turn", "first": False, "minimum": None, "roll": None}, "BA-6.1"),
])
def test_each_event_cites_the_clause_that_decided_it(event, clause):
    assert ba.clause_of(event) == clause


def test_the_deal_shows_each_seat_its_own_hand_and_everybody_the_up_card():
    t = Table([H0, H1, H2], up="KH", dealer=1)
    before = ba.initial_state(t.setup)
    [dealt] = ba.start(t.setup, t.chance)
    private, public = ba.disclosed(before, dealt)
    assert {seat: sorted(names(cards)) for seat, cards in private.items()} == {
        0: sorted(H0.split()), 1: sorted(H1.split()), 2: sorted(H2.split())}
    assert public == [c("KH")]
    assert private[2][0] == t.deck[0]  # the first card to the dealer's left


def test_played_cards_are_shown_to_everybody_and_automatic_steps_show_nothing():
    t = three().bids(4, None, None)
    before = t.state
    [attacked] = t.play(1, "attack", cards=cs("JS JS"), target=2)
    assert ba.disclosed(before, attacked) == ({}, cs("JS JS"))
    before = t.state
    events = t.play(2, "defend", cards=cs("QS QS"))
    assert ba.disclosed(before, events[0]) == ({}, cs("QS QS"))
    refill = next(e for e in events if e["type"] == "drew")
    assert ba.disclosed(before, refill) == ({2: [refill["card"]]}, [])  # a card drawn back: the drawer alone
    turn = [e for e in events if e["type"] == "attack_turn"][0]
    assert ba.disclosed(before, turn) == ({}, []) and ba.chance_of(turn) == {}
    assert ba.disclosed(before, {"type": "discarded", "seat": 0, "cards": [7]}) == ({}, [7])
    assert ba.chance_of(attacked) == {} and ba.chance_of({"type": "attack_turn", "roll": None}) == {}


# -- the state: snapshots and immutability ---------------------------------------------------------------------------


def test_a_state_snapshot_is_json_data_and_loads_back_to_an_equal_state():
    t = three(variants=["blind", "jokers"]).bids(4, None, None)
    t.play(1, "attack", cards=cs("JS JS"), target=t.state.blind_target)
    data = ba.dump_state(t.state)
    assert data["battle"] == [1, t.state.blind_target, cs("JS JS")] and data["bids"] == [[1, 4], [2, None], [0, None]]
    assert data["setup"] == {"names": ["P0", "P1", "P2"], "variants": ["blind", "jokers"], "chips": 10, "dealer": 0,
                             "starter": None}
    loaded = ba.load_state(json.loads(json.dumps(data)))
    assert loaded == t.state and loaded.battle == t.state.battle and loaded.setup == t.state.setup
    assert isinstance(loaded.hands[0], tuple) and isinstance(loaded.battle[2], tuple)
    ended = three().bids(5, None, None)
    ended.play(1, "attack", cards=cs("9C 9C TC"), target=2)
    ended.play(2, "defend", cards=[])
    ended.play(2, "attack", cards=cs("AS"), target=0)
    ended.play(0, "defend", cards=cs("2S 3S 4S 5S"))
    data = ba.dump_state(ended.state)
    assert data["outcome"] == ["win", [0], None, [15, 10, 0]] and data["battle"] is None
    assert data["hands"] == [list(h) for h in ended.state.hands] and data["bids"] == [[1, 5], [2, None], [0, None]]
    # the last battle is over: nobody is to act, its attacker was the last, and the opening attack is long past
    assert (data["phase"], data["to_act"], data["last_attacker"], data["first_attack"], data["minimum"]) == (
        "end", None, 2, False, None)
    loaded = ba.load_state(json.loads(json.dumps(data)))
    assert loaded == ended.state and loaded.outcome == Outcome("win", (0,), None, (15, 10, 0))
    data["setup"]["retired"] = 1  # an older snapshot's extra set-up key is ignored
    assert ba.load_state(data) == ended.state


def test_a_state_cannot_be_changed_and_says_so():
    state = three().state
    with pytest.raises(AttributeError, match=r"^a Batallion State is immutable \(set 'phase' on a Draft\)$"):
        state.phase = "end"
    with pytest.raises(AttributeError, match=r"^a Batallion State is immutable$"):
        del state.phase
    assert state.phase == "bidding" and repr(state) == "<Batallion state phase=bidding to_act=1 chips=(10, 10, 10)>"
    assert state != ba.dump_state(state)


def test_an_unknown_event_type_is_named():
    with pytest.raises(ValueError, match=r"^unknown Batallion event type 'shuffled'$"):
        ba.evolve(three().state, {"type": "shuffled"})


# -- legal_moves as data ----------------------------------------------------------------------------------------------


def moves(state) -> list[tuple]:
    return [(m["seat"], m["type"], m.get("source"), ba.format_move(m).get("cards"), m.get("amount"), m.get("target"))
            for m in ba.legal_moves(state)]


def test_the_legal_moves_of_each_step_in_their_fixed_order():
    s = ba.configure({}, players(3))
    assert moves(ba.initial_state(s)) == []  # before the deal nobody is to act
    t = Table([H0, H1, H2], up="KH", stock_top="QC")
    assert moves(t.state) == [(1, "draw", "stock", None, None, None), (1, "draw", "discard", None, None, None)]
    t.play(1, "draw", source="stock")  # each distinct card of the hand, once, in card order
    assert moves(t.state) == [(1, "discard", None, [x], None, None) for x in ("9C", "TC", "QC", "8D", "5H", "2S", "JS")]
    t = three()  # seat 1's best attack: 9C 9C TC = 5
    assert moves(t.state) == [(1, "pass", None, None, None, None), (1, "bid", None, None, 4, None),
                              (1, "bid", None, None, 5, None)]
    t.bids(5, None)  # seat 0's best attack is worth 4: it can only pass
    assert moves(t.state) == [(0, "pass", None, None, None, None)]
    t.bids(None)
    t.play(1, "attack", cards=cs("JS JS 2S"), target=2)  # a defence: none at all, then spades only
    assert moves(t.state) == [(2, "defend", None, cards, None, None) for cards in (
        [], ["KS"], ["QS"], ["QS", "KS"], ["QS", "QS"], ["QS", "QS", "KS"], ["AS"], ["AS", "KS"], ["AS", "QS"],
        ["AS", "QS", "KS"], ["AS", "QS", "QS"], ["AS", "QS", "QS", "KS"])]
