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
                    lowered={"card": parse_card("9H"), "rank": 3})
    _, state = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"))
    final = fv.final(state)
    assert final == {
        "hands": {"0": ["8H", "QH", "QS"], "1": [fv.format_card(x) for x in state.hands[1]]},
        "scores": {"0": 0, "1": 0}, "round": 1,
        "melds": [{"cards": ["2H", "3H", "9H"], "face": "JC", "owner": 0, "contributors": [0, 0, 0],
                   "lowered": {"card": "9H", "rank": "4"}},
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
