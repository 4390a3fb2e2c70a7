"""El Royale's rules as data (rules/el-royale.md): every refusal with its clause and its reason, every invalid set-up,
deck and malformed move with its field and reason, the record form of a table, the legal moves of each phase in their
order, and the verdict's `final`. Written to kill the mutants that `make mutation GAME=el-royale` found surviving
(docs/mutation.md): the older tests checked clause ids, not the reasons a verdict shows. The stacked tables come from
tests/unit/test_el_royale_rules.py and tests/unit/test_worked_examples.py. Over 300 lines: it is one list, what the
mutation run showed no test pinned, read beside docs/mutation.md."""

from __future__ import annotations

import pytest

import domain.el_royale as er
from domain.cards import CardError, format_cards, parse_card
from domain.el_royale.decider import refusal
from domain.randomness import Chance
from domain.records import parse, replay
from domain.rules import InvalidSetup, MalformedMove, RuleViolation
from tests.support import record
from tests.unit.test_el_royale_rules import BEAT, HANDS3, REINFORCE, after
from tests.unit.test_worked_examples import ER64_PICKS, ER64_TO_ELIMINATION, er64


def cs(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def players(n: int, teams: str | None = None) -> list[dict]:
    return [{"name": f"P{i}"} if teams is None else {"name": f"P{i}", "team": teams[i]} for i in range(n)]


def refused(state, seat: int, kind: str, cards: str | None = None, **fields) -> tuple[str, str]:
    """The clause and reason of a refusal: `refusal` and `step` say the same."""
    move = {"seat": seat, "type": kind, **({} if cards is None else {"cards": cs(cards)}), **fields}
    judged = refusal(state, move)
    with pytest.raises(RuleViolation) as e:
        er.step(state, move, Chance("00ff"))
    assert (judged.clause, judged.reason) == (e.value.clause, e.value.reason)
    return e.value.clause, e.value.reason


# -- ER-1.1, ER-1.2, ER-4.4: the set-up --------------------------------------------------------------------------


@pytest.mark.parametrize("options, players_, dealer, starter, field, reason", [
    ("revised", players(2), None, None, "options", "must be an object"),
    ({"edition": "revised", "pace": 1, "bet": 2}, players(2), None, None, "options",
     "unknown El Royale option(s): bet, pace; known: edition, battle_limit, auto_pass"),
    ({"auto_pass": 1}, players(2), None, None, "options.auto_pass", "must be true or false"),
    ({"auto_pass": "yes"}, players(2), None, None, "options.auto_pass", "must be true or false"),
    ({"edition": "modern"}, players(2), None, None, "options.edition", "'modern' is not an edition: 'revised' or 'classic'"),
    ({"battle_limit": 0}, players(2), None, None, "options.battle_limit", "must be a positive integer (ER-4.4)"),
    ({"battle_limit": 2.0}, players(2), None, None, "options.battle_limit", "must be a positive integer (ER-4.4)"),
    ({"battle_limit": True}, players(2), None, None, "options.battle_limit", "must be a positive integer (ER-4.4)"),
    ({}, players(1), None, None, "players", "El Royale needs a list of 2 to 8 players (ER-1.1)"),
    ({}, players(9), None, None, "players", "El Royale needs a list of 2 to 8 players (ER-1.1)"),
    ({}, {"P0": {}, "P1": {}}, None, None, "players", "El Royale needs a list of 2 to 8 players (ER-1.1)"),
    ({}, [{"name": "A", "team": ""}, {"name": "B", "team": "x"}], None, None, "players[0].team",
     "must be a non-empty string of at most 64 characters"),
    ({}, [{"name": "A", "team": "x"}, {"name": "B", "team": "y" * 65}], None, None, "players[1].team",
     "must be a non-empty string of at most 64 characters"),
    ({}, [{"name": "A", "team": "x"}, {"name": "B", "team": 3}], None, None, "players[1].team",
     "must be a non-empty string of at most 64 characters"),
    ({}, players(3, "ABA") + [{"name": "P3"}], None, None, "players",
     "either every player names a team or none does (ER-1.2)"),
    ({}, players(4, "AAAA"), None, None, "players",
     "teams must number at least two, all of the same size, at least 2 players each (ER-1.2)"),
    ({}, players(6, "ABABAC"), None, None, "players",
     "teams must number at least two, all of the same size, at least 2 players each (ER-1.2)"),
    ({}, players(3, "ABC"), None, None, "players",
     "teams must number at least two, all of the same size, at least 2 players each (ER-1.2)"),
    ({}, [{"name": "A", "team": "x" * 64}, {"name": "B", "team": "y" * 64}, {"name": "C", "team": "x" * 64},
          {"name": "D", "team": "y" * 65}], None, None, "players[3].team",
     "must be a non-empty string of at most 64 characters"),
    ({}, players(4, "AABB"), None, None, "players",
     "seat 0 and seat 1 are partners sitting side by side: seating must be interleaved (ER-1.2)"),
    ({}, players(4, "ABBA"), None, None, "players",
     "seat 1 and seat 2 are partners sitting side by side: seating must be interleaved (ER-1.2)"),
    ({}, players(6, "ABCCAB"), None, None, "players",
     "seat 2 and seat 3 are partners sitting side by side: seating must be interleaved (ER-1.2)"),
    ({}, players(3), 3, None, "dealer", "must be a seat number from 0 to 2"),
    ({}, players(3), -1, None, "dealer", "must be a seat number from 0 to 2"),
    ({}, players(3), True, None, "dealer", "must be a seat number from 0 to 2"),
    ({}, players(5), None, 5, "starter", "must be a seat number from 0 to 4"),
    ({}, players(5), None, "1", "starter", "must be a seat number from 0 to 4"),
])
def test_a_setup_the_rules_forbid_is_invalid_with_its_field_and_reason(options, players_, dealer, starter, field, reason):
    with pytest.raises(InvalidSetup) as e:
        er.configure(options, players_, dealer, starter)
    assert (e.value.field, e.value.reason) == (field, reason)


def test_partners_at_either_end_of_the_table_sit_side_by_side():
    """ER-1.2: the seating is a circle: the last seat sits beside the first."""
    with pytest.raises(InvalidSetup) as e:
        er.configure({}, players(6, "ABCBCA"))
    assert e.value.reason.startswith("seat 5 and seat 0 are partners")


def test_a_table_is_its_players_teams_options_dealer_and_starter_as_given():
    assert er.configure(None, players(2)) == er.Setup(("P0", "P1"), None, None)
    s = er.configure({"edition": "classic", "battle_limit": 1, "auto_pass": True}, players(6, "xyzxyz"), 5, 0)
    assert s == er.Setup(tuple(f"P{i}" for i in range(6)), ("x", "y", "z"), (0, 1, 2, 0, 1, 2), "classic", 1, 5, 0, True)
    assert (s.n, s.revised) == (6, False)
    assert er.configure({}, players(8), 7, 7).dealer == 7 and er.configure({"edition": "revised"}, players(2)).revised
    assert er.configure({}, [{"team": "A"}, {"team": "B"}, {"team": "A"}, {"team": "B"}]).names == (
        "Seat 0", "Seat 1", "Seat 2", "Seat 3")


def test_a_record_s_options_and_players_say_what_was_configured_and_nothing_more():
    plain = er.configure({}, players(3))
    assert plain.options() == {"edition": "revised"}
    assert plain.players() == [{"name": "P0"}, {"name": "P1"}, {"name": "P2"}]
    s = er.configure({"edition": "classic", "battle_limit": 12, "auto_pass": True}, players(4, "NENE"))
    assert s.options() == {"edition": "classic", "battle_limit": 12, "auto_pass": True}
    assert s.players() == [{"name": "P0", "team": "N"}, {"name": "P1", "team": "E"}, {"name": "P2", "team": "N"},
                           {"name": "P3", "team": "E"}]
    assert er.configure({"auto_pass": False}, players(2)).options() == {"edition": "revised"}
    for setup in (plain, s):  # what a record says configures the same table again
        assert er.configure(setup.options(), setup.players()) == setup


# -- contract §4: a stacked deck -----------------------------------------------------------------------------------


@pytest.mark.parametrize("deck, reason", [
    (list(range(51)), "must hold each of the 52 cards exactly once (got 51 cards, 51 distinct)"),
    (list(range(52)) + [0], "must hold each of the 52 cards exactly once (got 53 cards, 52 distinct)"),
    (list(range(51)) + [0], "must hold each of the 52 cards exactly once (got 52 cards, 51 distinct)"),
    ([], "must hold each of the 52 cards exactly once (got 0 cards, 0 distinct)"),
])
def test_a_stacked_deck_that_is_not_the_pack_is_invalid_with_its_reason(deck, reason):
    setup = er.configure({}, players(2))
    with pytest.raises(InvalidSetup) as e:
        er.check_deck(setup, deck)
    assert (e.value.field, e.value.reason) == ("deck", reason)
    er.check_deck(setup, list(reversed(range(52))))  # the pack in any order


# -- contract §2: record moves ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("raw, field, reason", [
    ({"type": "attack"}, "cards", "a attack needs a cards list"),
    ({"type": "beat"}, "cards", "a beat needs a cards list"),
    ({"type": "show", "text": "x"}, "cards", "a show needs a cards list"),
    ({"type": "throw_in", "cards": "5C"}, "cards", "must be a list of card strings"),
    ({"type": "attack", "cards": {"5C": 1}}, "cards", "must be a list of card strings"),
    ({"type": "take", "cards": None}, "cards", "must be a list of card strings"),
    ({"type": "say"}, "text", "a say needs a text string"),
    ({"type": "say", "text": 3}, "text", "a say needs a text string"),
])
def test_a_malformed_move_names_its_field_and_reason(raw, field, reason):
    with pytest.raises(MalformedMove) as e:
        er.parse_move({"seat": 1, **raw}, 3)
    assert (e.value.field, e.value.reason) == (field, reason)


def test_a_bad_card_string_in_a_move_names_its_place_and_the_string():
    with pytest.raises(MalformedMove) as e:
        er.parse_move({"seat": 0, "type": "attack", "cards": ["AS", "KS", "XX"]}, 3)
    assert e.value.field == "cards[2]"
    with pytest.raises(CardError) as bad:
        er.parse_card("XX")
    assert e.value.reason == str(bad.value) and "XX" in e.value.reason
    with pytest.raises(MalformedMove) as e:
        er.parse_move({"seat": 0, "type": "take", "cards": [None]}, 3)
    assert (e.value.field, e.value.reason) == ("cards[0]", "None is not a card string")


def test_a_well_formed_move_keeps_exactly_its_own_fields():
    assert er.parse_move({"seat": 2, "type": "attack", "cards": ["10s", "ts"], "text": "x"}, 3) == {
        "seat": 2, "type": "attack", "cards": cs("TS TS")}
    assert er.parse_move({"seat": 0, "type": "pass", "cards": ["AC"], "text": "x"}, 3) == {"seat": 0, "type": "pass"}
    for kind in ("concede", "claim"):
        assert er.parse_move({"seat": 1, "type": kind, "cards": 5}, 3) == {"seat": 1, "type": kind}
    assert er.parse_move({"seat": 1, "type": "take"}, 3) == {"seat": 1, "type": "take", "cards": []}
    assert er.parse_move({"seat": 1, "type": "take", "cards": ["kd"]}, 3) == {"seat": 1, "type": "take", "cards": cs("KD")}
    assert er.parse_move({"seat": 0, "type": "say", "text": "", "cards": ["AC"]}, 3) == {"seat": 0, "type": "say", "text": ""}
    assert er.parse_move({"seat": 0, "type": "show", "cards": []}, 3) == {"seat": 0, "type": "show", "cards": []}
    assert er.format_move({"seat": 0, "type": "beat", "cards": cs("TD AC")}) == {"seat": 0, "type": "beat",
                                                                                "cards": ["TD", "AC"]}


# -- every refusal of play, with its clause and reason (ER-3.12's order) ---------------------------------------------


def test_attack_refusals_name_er_3_0_or_er_3_1_and_say_why():
    state = after(record(HANDS3, [])).state
    assert refused(state, 1, "attack", "5D") == ("ER-3.0", "not your turn: seat 0 is to act")
    assert refused(state, 0, "pass") == ("ER-3.1", "pass is not allowed now: attack expected")
    assert refused(state, 0, "attack", "") == ("ER-3.1", "an attack names at least one card")
    assert refused(state, 0, "attack", "5C 5C") == ("ER-3.1", "5C is named twice")
    assert refused(state, 0, "attack", "5D") == ("ER-3.1", "5D is not in your hand")
    assert refused(state, 0, "attack", "5C 9C") == ("ER-3.1", "an attack is one card or cards of one rank")


def test_join_refusals_name_er_3_2_or_er_3_7_and_say_why():
    state = after(record(HANDS3, [(0, "attack", ["5C"])])).state
    assert refused(state, 2, "beat", "5H") == ("ER-3.2", "beat is not allowed now: pass or throw_in expected")
    assert refused(state, 2, "throw_in", "") == ("ER-3.7", "a throw-in names at least one card")
    assert refused(state, 2, "throw_in", "8H") == ("ER-3.7", "a throw-in now must be of rank 5")
    assert refused(state, 2, "throw_in", "5H 8H") == ("ER-3.7", "a throw-in now must be of rank 5")
    assert refused(state, 2, "throw_in", "5H 5H") == ("ER-3.7", "5H is named twice")
    assert refused(state, 2, "throw_in", "5D") == ("ER-3.7", "5D is not in your hand")


def test_revised_defence_refusals_name_er_3_4_and_say_why():
    state = after(record(HANDS3, [(0, "attack", ["5C"]), (2, "pass"), (0, "pass")])).state
    assert refused(state, 1, "pass") == ("ER-3.4", "pass is not allowed now: beat or concede expected")
    assert refused(state, 1, "beat", "") == ("ER-3.4", "a beat names at least one card")
    assert refused(state, 1, "beat", "QD QD") == ("ER-3.4", "QD is named twice")
    assert refused(state, 1, "beat", "QD 7D") == ("ER-3.4", "revised: a beat's cards must all have one rank")
    assert refused(state, 1, "beat", "7D") == ("ER-3.4", "rank 7 neither equals 5 nor is higher with a card of suit C")


def test_classic_defence_refusals_name_er_3_4_and_say_why():
    state = after(record(HANDS3, [(0, "attack", ["5C"]), (2, "pass"), (0, "pass")], edition="classic")).state
    assert refused(state, 1, "beat", "5D 7D") == ("ER-3.4", "classic: a beat is exactly one card")
    assert refused(state, 1, "beat", "7D") == ("ER-3.4", "7D is neither of rank 5 nor a higher C")
    assert refused(state, 1, "beat", "2S") == ("ER-3.4", "2S is neither of rank 5 nor a higher C")
    assert refused(state, 1, "beat", "9C") == ("ER-3.4", "9C is not in your hand")


def test_reinforce_and_claim_refusals_name_their_phase_s_clause():
    state = after(record(REINFORCE, BEAT)).state
    assert refused(state, 2, "claim") == ("ER-3.6", "claim is not allowed now: pass or throw_in expected")
    state = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass")])).state
    assert refused(state, 0, "throw_in", "9C") == ("ER-3.8", "throw_in is not allowed now: claim or pass expected")
    assert refused(state, 2, "claim") == ("ER-3.0", "not your turn: seat 0 is to act")


def test_take_refusals_name_er_5_2_and_say_why():
    state = after(er64(ER64_TO_ELIMINATION)).state
    assert refused(state, 0, "pass") == ("ER-5.2", "pass is not allowed now: take expected")
    assert refused(state, 0, "take", "6C 6C") == ("ER-5.2", "6C is named twice")
    assert refused(state, 0, "take", "6C KS") == ("ER-5.2", "KS is not among the eliminated player's laid-out cards")
    assert refused(state, 0, "take", "6C 6D 6C") == ("ER-5.2", "6C is named twice")
    assert refusal(state, {"seat": 0, "type": "take"}) is None  # taking nothing is a take
    state = after(er64(ER64_TO_ELIMINATION + ER64_PICKS[:2])).state  # East holds 7
    assert refused(state, 3, "take", "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D") == (
        "ER-5.2", "taking 10 card(s) would make 17 in hand: at most 16")


def test_show_refusals_name_er_7_2_and_say_why_and_a_show_or_a_say_is_anyone_s_at_any_time():
    state = after(record(HANDS3, [])).state
    assert refused(state, 2, "show", "") == ("ER-7.2", "a show names at least one card")
    assert refused(state, 2, "show", "5D") == ("ER-7.2", "5D is not in your hand")
    assert refused(state, 2, "show", "5H 5H") == ("ER-7.2", "5H is named twice")
    assert refused(state, 2, "show", "5H 8H 3S 5H") == ("ER-7.2", "5H is named twice")
    assert refusal(state, {"seat": 2, "type": "show", "cards": cs("5H")}) is None
    assert refusal(state, {"seat": 1, "type": "say", "text": "x"}) is None


def test_after_the_end_every_move_is_refused_under_er_4_5():
    state = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")],
                         options={"battle_limit": 1})).state
    assert refused(state, 1, "attack", "7D") == ("ER-4.5", "the game is over: no further moves")
    assert refused(state, 0, "say", text="gg") == ("ER-4.5", "the game is over: no further moves")


# -- the legal moves of each phase, in their order -------------------------------------------------------------------


def test_each_phase_lists_its_answer_without_cards_first_then_its_plays():
    join = after(record(HANDS3, [(0, "attack", ["5C"])])).state
    assert list(er.legal_moves(join)) == [{"seat": 2, "type": "pass"}, {"seat": 2, "type": "throw_in", "cards": cs("5H")}]
    defence = after(record(HANDS3, [(0, "attack", ["5C"]), (2, "pass"), (0, "pass")])).state
    assert list(er.legal_moves(defence)) == [{"seat": 1, "type": "concede"},
                                             {"seat": 1, "type": "beat", "cards": cs("5D")}]
    claim = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass")])).state
    assert list(er.legal_moves(claim)) == [{"seat": 0, "type": "claim"}, {"seat": 0, "type": "pass"}]
    take = after(er64(ER64_TO_ELIMINATION + ER64_PICKS[:2])).state
    assert next(iter(er.legal_moves(take))) == {"seat": 3, "type": "take", "cards": []}


# -- decide and final -------------------------------------------------------------------------------------------------


def test_decide_gives_the_events_of_a_move_its_reshuffle_included():
    from tests.unit.test_el_royale_rules import _claim_window_with_an_empty_deck

    state = _claim_window_with_an_empty_deck()
    move = {"seat": 2, "type": "pass"}
    events = er.decide(state, move, Chance("00ff"))
    assert events == er.step(state, move, Chance("00ff"))[0]
    assert [e["type"] for e in events][:3] == ["passed", "pile_discarded", "reshuffled"]
    after_it = er.step(state, move, Chance("00ff"))[1]
    assert (after_it.discard, after_it.reshuffles, er.final(after_it)["discard_count"]) == (0, 1, 0)
    assert er.fold_step(state.clone(), move, Chance("00ff")) == (events, after_it)  # replay's step, in place


def test_a_reshuffle_outcome_that_is_not_the_discard_pile_is_refused_saying_so():
    """ER-2.3 with contract §2's outcomes: the move that led to the draw is illegal, and the reason says why."""
    from tests.unit.test_el_royale_rules import _claim_window_with_an_empty_deck

    state = _claim_window_with_an_empty_deck()
    with pytest.raises(RuleViolation) as e:
        er.step(state, {"seat": 2, "type": "pass"}, Chance("00ff", {"reshuffle:1": [0, 1, 2]}))
    assert (e.value.clause, e.value.reason) == (
        "ER-2.3", "the outcome given for 'reshuffle:1' is not exactly the 42 cards being shuffled")
    kept = state.clone()  # replay's in-place step leaves the state as it was
    with pytest.raises(RuleViolation) as e:
        er.fold_step(state, {"seat": 2, "type": "pass"}, Chance("00ff", {"reshuffle:1": [0, 1, 2]}))
    assert e.value.clause == "ER-2.3" and state == kept


def test_the_final_view_shows_every_hand_the_piles_the_battles_and_who_is_out():
    state = after(er64(ER64_TO_ELIMINATION)).state
    assert er.final(state) == {
        "hands": {"0": ["KC"], "1": ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D", "2H", "3H", "4H", "5H",
                                      "6H", "2S", "3S", "4S", "5S", "6S"],
                  "2": ["9C", "9D", "9H"], "3": ["7C", "8C", "7D", "8D", "7H", "8H", "7S"]},
        "deck_count": 21, "discard_count": 0, "battle_pile": [], "battles": 7, "eliminated": [1]}
    state = after(record(HANDS3, [(0, "attack", ["5C"]), (2, "throw_in", ["5H"])])).state
    assert er.final(state) == {"hands": {"0": ["9C", "JC", "KC"], "1": ["5D", "7D", "QD", "2S"], "2": ["8H", "3S", "4S"]},
                               "deck_count": 40, "discard_count": 0, "battle_pile": ["5C", "5H"], "battles": 0,
                               "eliminated": []}


def test_a_seat_holding_16_cards_may_take_nothing_from_the_laid_out_cards():
    """ER-5.2: a take never brings a hand above 16; a seat already at 16 has only the empty take."""
    state = after(er64(ER64_TO_ELIMINATION)).state.clone()  # North (seat 0) picks first
    sixteen = sum(1 << c for c in cs("7C 8C 9C TC JC QC KC 7D 8D 9D TD JD QD KD 7H 8H"))
    state.hands = (sixteen,) + state.hands[1:]
    assert refused(state, 0, "take", "6C") == ("ER-5.2", "taking 1 card(s) would make 17 in hand: at most 16")
    assert list(er.legal_moves(state)) == [{"seat": 0, "type": "take", "cards": []}]


def test_a_seat_with_room_for_every_laid_out_card_may_take_any_of_them_or_all():
    """ER-5.2: every combination of the laid-out cards within the seat's room, the empty take first."""
    state = after(er64(ER64_TO_ELIMINATION)).state.clone()  # North holds one card
    state.laid_out = sum(1 << c for c in cs("AC 6D"))
    assert list(er.legal_moves(state)) == [{"seat": 0, "type": "take", "cards": cards}
                                           for cards in ([], cs("AC"), cs("6D"), cs("AC 6D"))]
    assert refusal(state, {"seat": 0, "type": "take", "cards": cs("AC 6D")}) is None


LISTED = [["5C", "5D", "5S", "KC"], ["5H", "7C", "7D", "QD"], ["6S", "8H", "3S", "4S"]]


def test_the_legal_moves_are_listed_rank_by_rank_by_size_in_pack_order():
    """ER-3.1 attacks, ER-3.7 throw-ins (none for a seat without the rank: only its pass), ER-3.4 beats of each
    edition: revised, sets of one rank from the top's up, higher ones holding the top's suit; classic, single cards
    of the top's rank or a higher one of its suit, in pack order."""
    def listed(moves, edition="revised"):
        state = after(record(LISTED, moves, edition=edition)).state
        legal = list(er.legal_moves(state))
        assert all(m["seat"] == state.to_act and set(m) <= {"seat", "type", "cards"} for m in legal)
        return [(m["type"], " ".join(format_cards(m.get("cards", [])))) for m in legal]

    assert listed([]) == [("attack", "5C"), ("attack", "5D"), ("attack", "5S"), ("attack", "5C 5D"),
                          ("attack", "5C 5S"), ("attack", "5D 5S"), ("attack", "5C 5D 5S"), ("attack", "KC")]
    attacked = [(0, "attack", ["5C"])]
    assert listed(attacked) == [("pass", "")]
    assert listed(attacked + [(2, "pass")]) == [("pass", ""), ("throw_in", "5D"), ("throw_in", "5S"),
                                                ("throw_in", "5D 5S")]
    joined = attacked + [(2, "pass"), (0, "pass")]
    assert listed(joined) == [("concede", ""), ("beat", "5H"), ("beat", "7C"), ("beat", "7C 7D")]
    assert listed(joined, "classic") == [("concede", ""), ("beat", "7C"), ("beat", "5H")]
    assert list(er.legal_moves(er.initial_state(er.configure({}, players(3))))) == []  # nobody before the deal


def test_after_the_picks_the_replenishing_reshuffles_the_discard_when_the_deck_is_empty():
    """ER-5.2 then ER-3.9 and ER-2.3: the laid-out cards left are discarded and, the deck being empty, the discard pile
    is shuffled (label reshuffle:1) before North draws."""
    from domain.cards import cards_of
    from domain.randomness import shuffle

    state = after(er64(ER64_TO_ELIMINATION + ER64_PICKS[:2])).state.clone()  # East (seat 3) picks last
    state.discard |= sum(1 << c for c in state.deck[state.deck_pos:])
    state.deck_pos = len(state.deck)
    move = {"seat": 3, "type": "take", "cards": cs("2C")}
    events = er.decide(state, move, Chance("00ff"))
    discarded = state.discard | state.laid_out & ~(1 << parse_card("2C"))
    assert [e["type"] for e in events][:3] == ["took", "laid_out_discarded", "reshuffled"]
    assert events[2] == {"type": "reshuffled", "k": 1, "order": shuffle("00ff", "reshuffle:1", cards_of(discarded))}


def test_the_ace_of_clubs_is_a_card_like_any_other():
    """Card 0 (contract §4's first card) may be shown, played and named once like any other."""
    state = after(record([["AC", "9C", "JC", "KC"], HANDS3[1], HANDS3[2]], [])).state
    assert refusal(state, {"seat": 0, "type": "show", "cards": cs("AC")}) is None
    assert refusal(state, {"seat": 0, "type": "attack", "cards": cs("AC")}) is None
    assert refused(state, 0, "attack", "AC 9C AC") == ("ER-3.1", "AC is named twice")


def test_revised_the_defender_s_own_throw_in_makes_it_ineligible_again():
    """ER-3.6 revised: another player's throw-in makes the defender eligible; the defender's own throw-in ends that
    until someone else adds a card, so the window closes once seats 2 and 0 have passed."""
    hands = [["5C", "9C", "JC", "KC"], ["6C", "6D", "QD", "2S"], ["6H", "8H", "3S", "4S"]]
    moves = BEAT + [(2, "throw_in", ["6H"]), (0, "pass"), (1, "throw_in", ["6D"]), (2, "pass"), (0, "pass")]
    state = after(record(hands, moves)).state
    assert (state.phase, state.queue) == ("claim", (0, 2))
    assert replay(parse(record(hands, moves))).state == state  # the verdict's road makes the same state


def test_a_seat_that_throws_in_is_asked_again_before_the_window_closes():
    """ER-3.3 R: a throw-in wipes every pass, the thrower's own too: seat 0 throws in, seat 1 passes, seat 0 is
    asked again."""
    state = after(record(HANDS3, [(1, "attack", ["5D"]), (0, "throw_in", ["5C"]), (1, "pass")], starter=1)).state
    assert (state.phase, state.to_act) == ("join", 0)
