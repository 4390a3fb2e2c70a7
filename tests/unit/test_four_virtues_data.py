"""Four Virtues' record-facing data (contract §2): the verdict's `final` object, a lowering's rank letter in a record
move, a bad card string's place and reason. Written for the mutants `make mutation GAME=four-virtues` found
surviving (docs/mutation.md)."""

from __future__ import annotations

import pytest

import domain.four_virtues as fv
from domain.cards import CardError, parse_card
from domain.rules import MalformedMove
from tests.unit.test_four_virtues_rules import _melding_table, play
from tests.unit.test_four_virtues_scoring import cs


def test_the_final_object_names_every_card_and_each_melds_face_owner_givers_and_lowering():
    state, chance = _melding_table()  # seat 0: 5H 6H 7H 8H 9H 2H 3H JC QH QS
    _, state = play(state, chance, 0, "meld", cards=cs("2H 3H 9H"), face=parse_card("JC"),
                    lowered={"card": parse_card("9H"), "rank": 0})  # A-2-3 with 9H as the Ace
    _, state = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"))
    final = fv.final(state)
    assert final == {
        "hands": {"0": ["8H", "QH", "QS"], "1": [fv.format_card(x) for x in state.hands[1]]},
        "scores": {"0": 0, "1": 0}, "round": 1,
        "melds": [{"cards": ["2H", "3H", "9H"], "face": "JC", "owner": 0, "contributors": [0, 0, 0],
                   "lowered": {"card": "9H", "rank": "A"}},
                  {"cards": ["5H", "6H", "7H"], "face": None, "owner": 0, "contributors": [0, 0, 0], "lowered": None}],
        "stock_count": 3, "discard": [fv.format_card(x) for x in state.discard]}
    assert len(final["hands"]["1"]) == 10 and final["discard"] != []


@pytest.mark.parametrize("rank, letter", [(0, "A"), (8, "9"), (9, "T")])
def test_a_lowering_in_a_record_move_names_its_rank_by_letter(rank, letter):
    move = {"seat": 0, "type": "meld", "cards": cs("TH JD"), "lowered": {"card": parse_card("TH"), "rank": rank}}
    assert fv.format_move(move)["lowered"] == {"card": "TH", "rank": letter}


def test_a_bad_card_string_in_a_move_names_its_place_and_the_string():
    with pytest.raises(MalformedMove) as e:
        fv.parse_move({"seat": 0, "type": "meld", "cards": ["5H", "6H", "ZZ"]}, 2)
    with pytest.raises(CardError) as bad:
        parse_card("ZZ")
    assert (e.value.field, e.value.reason) == ("cards[2]", str(bad.value)) and "ZZ" in e.value.reason


def test_a_lowering_that_is_not_an_object_is_malformed():
    with pytest.raises(MalformedMove) as e:
        fv.parse_move({"seat": 0, "type": "meld", "cards": ["5H", "6H", "9H"], "face": "JC",
                       "lowered": ["card", "rank"]}, 2)
    assert (e.value.field, e.value.reason) == ("lowered", 'must be {"card": "9H", "rank": "5"} (FV-5.4)')


# -- what an event was: the move it records, its clause, what it shows ---------------------------------------------


@pytest.mark.parametrize("event, move", [
    ({"type": "drew", "seat": 1, "source": "stock", "cards": [4, 5]}, {"seat": 1, "type": "draw", "source": "stock", "count": 2}),
    ({"type": "drew", "seat": 0, "source": "discard", "cards": [7, 8, 9]}, {"seat": 0, "type": "draw", "source": "discard"}),
    ({"type": "drew", "seat": 0, "source": "stock", "cards": [4], "spades": True}, None),  # a spades draw: automatic
    ({"type": "melded", "seat": 0, "cards": (2, 3, 4), "face": 10, "lowered": {"card": 4, "rank": 3}, "force": 1,
      "draw": 2, "points": 9, "owed": 1},
     {"seat": 0, "type": "meld", "cards": [2, 3, 4], "face": 10, "lowered": {"card": 4, "rank": 3}, "force": 1, "draw": 2}),
    ({"type": "melded", "seat": 1, "cards": [2, 3, 4], "face": None, "lowered": None, "points": 9, "owed": 0},
     {"seat": 1, "type": "meld", "cards": [2, 3, 4]}),
    ({"type": "added", "seat": 1, "meld": 2, "cards": (5,)}, {"seat": 1, "type": "add", "meld": 2, "cards": [5]}),
    ({"type": "forced_discarded", "seat": 1, "cards": (5, 6)}, {"seat": 1, "type": "forced_discard", "cards": [5, 6]}),
    ({"type": "discarded", "seat": 0, "cards": (7,)}, {"seat": 0, "type": "discard", "cards": [7]}),
    ({"type": "done", "seat": 0}, {"seat": 0, "type": "done"}),
    ({"type": "said", "seat": 1, "text": "hm"}, {"seat": 1, "type": "say", "text": "hm"}),
    ({"type": "round_ended", "round": 1}, None),
    ({"type": "won", "seats": [0]}, None),
])
def test_each_players_move_is_read_back_from_its_event_and_automatic_steps_are_none(event, move):
    got = fv.move_of(event)
    assert got == move and (got is None or all(type(v) is not tuple for v in got.values()))


@pytest.mark.parametrize("event, clause", [
    ({"type": "drew", "source": "stock"}, "FV-2.2"), ({"type": "drew", "source": "stock", "spades": True}, "FV-3.5"),
    ({"type": "dealt"}, "FV-1.3"), ({"type": "melded"}, "FV-2.3"), ({"type": "added"}, "FV-2.4"),
    ({"type": "forced_discarded"}, "FV-3.4"), ({"type": "discarded"}, "FV-2.1"), ({"type": "done"}, "FV-4.1"),
    ({"type": "round_ended"}, "FV-4.2"), ({"type": "won"}, "FV-4.3"), ({"type": "said"}, "FV-5.4"),
])
def test_each_event_cites_the_clause_that_decided_it(event, clause):
    assert fv.clause_of(event) == clause


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_deal_shows_each_seat_its_ten_cards_the_non_dealer_first_and_everybody_the_up_card(dealer):
    order = list(range(52))
    private, public = fv.disclosed(None, {"type": "dealt", "order": order, "dealer": dealer})
    assert private == {1 - dealer: list(range(0, 20, 2)), dealer: list(range(1, 20, 2))} and public == [20]


@pytest.mark.parametrize("event, shown", [
    ({"type": "drew", "seat": 1, "source": "stock", "cards": [4, 5]}, ({1: [4, 5]}, [])),  # the drawer alone
    ({"type": "drew", "seat": 1, "source": "stock", "cards": [4], "spades": True}, ({1: [4]}, [])),
    ({"type": "drew", "seat": 0, "source": "discard", "cards": [7, 8]}, ({}, [])),  # the pile was face up already
    ({"type": "melded", "seat": 0, "cards": (2, 3, 4), "face": 10}, ({}, [2, 3, 4, 10])),  # the face card too
    ({"type": "melded", "seat": 0, "cards": [2, 3, 4], "face": None}, ({}, [2, 3, 4])),
    ({"type": "added", "seat": 1, "meld": 0, "cards": (5,)}, ({}, [5])),
    ({"type": "forced_discarded", "seat": 1, "cards": (5, 6)}, ({}, [5, 6])),
    ({"type": "discarded", "seat": 0, "cards": (7,)}, ({}, [7])),
    ({"type": "said", "seat": 0, "text": "x"}, ({}, [])), ({"type": "done", "seat": 0}, ({}, [])),
])
def test_what_each_event_shows_and_to_whom(event, shown):
    assert fv.disclosed(None, event) == shown


def test_a_state_equals_only_a_state_with_the_same_fields():
    state, _ = _melding_table()
    assert state == state.clone() and state != fv.dump_state(state) and state != None  # noqa: E711


def test_decide_gives_the_events_of_the_move():
    state, chance = _melding_table()
    move = {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H")}
    events = fv.decide(state, move, chance)
    assert events == fv.step(state, move, chance)[0] == [
        {"type": "melded", "seat": 0, "cards": cs("5H 6H 7H"), "face": None, "lowered": None, "points": 18, "owed": 0}]


def test_a_wrong_recorded_deal_for_the_next_round_refuses_the_move_that_ends_the_round():
    from domain.randomness import Chance
    from tests.unit.test_four_virtues_rules import at_round_end, refusal

    state, chance = at_round_end((0, 0), "AS 2S 3S")
    chance = Chance(chance.seed, {**chance.outcomes, "deal:2": list(range(51))})
    _, state = play(state, chance, 0, "meld", cards=cs("AS 2S 3S"))
    assert refusal(state, chance, 0, "done") == (
        "FV-1.3", "the outcome given for 'deal:2' is not exactly the 52 cards being shuffled")


def test_a_stored_lowering_reads_its_rank_as_a_letter_or_a_number():
    state, chance = _melding_table()
    for rank, index in (("4", 3), (3, 3), ("A", 0), (0, 0)):  # a rank letter (older stored events) or the index
        melded = {"type": "melded", "seat": 0, "cards": cs("2H 3H 9H"), "face": parse_card("JC"),
                  "lowered": {"card": parse_card("9H"), "rank": rank}, "points": 10, "owed": 0}
        assert fv.evolve(state, melded).melds[-1].lowered == (parse_card("9H"), index)


def test_a_diamonds_meld_records_its_points_doubled_for_its_creator():
    state, chance = _melding_table()
    state = state.clone()
    state.hands = (tuple(sorted(state.hands[0] + (parse_card("KD"),))), state.hands[1])
    events, _ = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("KD"))
    assert events[0]["points"] == 2 * (5 + 6 + 7) and events[0]["face"] == parse_card("KD")


def test_a_hearts_meld_that_empties_the_hand_and_wins_leaves_nothing_owed():
    from tests.unit.test_four_virtues_rules import at_round_end

    state, chance = at_round_end((94, 0), "AS 2S 3S")  # seat 0 holds AS 2S 3S KH
    events, state = play(state, chance, 0, "meld", cards=cs("AS 2S 3S"), face=parse_card("KH"), force=1)
    assert [e["type"] for e in events] == ["melded", "round_ended", "won"] and events[0]["owed"] == 0
    assert state.owed is None and fv.dump_state(state)["owed"] is None and fv.to_act(state) == ()


def test_say_is_open_to_either_seat_and_changes_nothing_but_the_record():
    state, chance = _melding_table()  # seat 0 is to play
    for seat in (0, 1):
        events, after = play(state, chance, seat, "say", text="well played")
        assert events == [{"type": "said", "seat": seat, "text": "well played"}] and after == state


def test_an_event_of_an_unknown_type_is_refused_by_the_fold_naming_its_type():
    state, _ = _melding_table()
    with pytest.raises(ValueError, match=r"^unknown Four Virtues event type 'shuffled'$"):
        fv.evolve(state, {"type": "shuffled", "seat": 0})


def test_a_recorded_first_dealer_is_obeyed_and_a_bad_recorded_outcome_is_named():
    """FV-1.2: a record's `dealer` outcome fixes the first dealer, whichever it is; one out of range is refused."""
    from domain.randomness import Chance
    from domain.rules import InvalidSetup

    random_dealer = fv.configure({}, [{"name": "A"}, {"name": "B"}])
    order = list(range(52))
    for dealer in (0, 1):
        assert fv.start(random_dealer, Chance("f00d", {"dealer": dealer, "deal:1": order}))[0]["dealer"] == dealer
    with pytest.raises(InvalidSetup) as e:
        fv.start(random_dealer, Chance("f00d", {"dealer": 2}))
    assert (e.value.field, e.value.reason) == ("outcomes", "the outcome given for 'dealer' must be an integer in 0..1")
