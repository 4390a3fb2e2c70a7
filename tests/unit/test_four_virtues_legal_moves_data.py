"""The Four Virtues' legal moves at fixed positions, listed exactly and in order: what mutation testing showed the
few random games of test_four_virtues_legal_moves.py can miss (a hand with no face card and more than one meld, a
run extended two cards down or by its ten, each step of a turn's whole listing; docs/mutation.md)."""

from __future__ import annotations

import domain.four_virtues as fv
from domain.four_virtues.clauses import Meld
from tests.unit.test_four_virtues_rules import _melding_table
from tests.unit.test_four_virtues_scoring import cs


def test_a_hand_without_a_face_card_is_offered_every_meld_it_holds_in_order():
    """FV-2.3: with no face card each set and run is listed once, plain: the sets, then the runs by suit and low card."""
    state, _ = _melding_table()
    state = state.clone()
    state.hands = (tuple(sorted(cs("9C 9D 9S AD 2D 3D 4D 8S TS 5H"))), state.hands[1])
    melds = [m["cards"] for m in fv.legal_moves(state) if m["type"] == "meld"]
    assert melds == [cs("9C 9D 9S"), cs("AD 2D 3D"), cs("AD 2D 3D 4D"), cs("2D 3D 4D"),
                     cs("8S 9S TS")]
    assert all(set(m) == {"seat", "type", "cards"} for m in fv.legal_moves(state) if m["type"] == "meld")


def test_a_run_is_offered_every_extension_at_both_ends_and_a_set_more_of_its_rank():
    """FV-2.4: a run takes the suit's next cards below and above it, as many as held in sequence, at either end or
    both; a set takes more of its rank. Each group is listed once, in order: fewer below first, then fewer above."""
    state, _ = _melding_table()
    state = state.clone()
    state.melds = (Meld(tuple(cs("5H 6H 7H")), None, 1, (1, 1, 1), None, 3),
                   Meld(tuple(cs("8C 8D 8S")), None, 1, (1, 1, 1), None, 3))
    state.hands = (tuple(sorted(cs("3H 4H 8H 9H 2C"))), state.hands[1])
    adds = [m for m in fv.legal_moves(state) if m["type"] == "add"]
    assert adds == [{"seat": 0, "type": "add", "meld": k, "cards": cs(cards)} for k, cards in [
        (0, "8H"), (0, "8H 9H"), (0, "4H"), (0, "4H 8H"), (0, "4H 8H 9H"), (0, "3H 4H"), (0, "3H 4H 8H"),
        (0, "3H 4H 8H 9H"), (1, "8H")]]


def test_a_run_ending_at_nine_is_extended_by_the_ten_and_no_further():
    """FV-2.4, FV-1.1: the ten is the highest number card; the jack above it is a face card, never added."""
    state, _ = _melding_table()
    state = state.clone()
    state.melds = (Meld(tuple(cs("7S 8S 9S")), None, 1, (1, 1, 1), None, 3),)
    state.hands = (tuple(sorted(cs("TS JS 6S 2C"))), state.hands[1])
    adds = [m["cards"] for m in fv.legal_moves(state) if m["type"] == "add"]
    assert adds == [cs("TS"), cs("6S"), cs("6S TS")]


def test_each_step_of_a_turn_lists_exactly_its_moves_in_order():
    """FV-2.1, FV-2.2, FV-3.4, FV-4.1: the three draws open a turn; then melds, additions and each discard; `done`
    only once the stock ran out; a forced discard owed is the only move, of the seat that owes it, each combination once."""
    state, _ = _melding_table()
    state = state.clone()
    state.hands = (tuple(cs("2C 5D")), tuple(cs("9C AD 6D")))
    state.phase = "draw"
    assert list(fv.legal_moves(state)) == [{"seat": 0, "type": "draw", "source": "stock", "count": 1},
                                           {"seat": 0, "type": "draw", "source": "stock", "count": 2},
                                           {"seat": 0, "type": "draw", "source": "discard"}]
    state.phase = "play"
    discards = [{"seat": 0, "type": "discard", "cards": [c]} for c in cs("2C 5D")]
    assert list(fv.legal_moves(state)) == discards
    state.phase, state.stock = "final", ()
    assert list(fv.legal_moves(state)) == discards + [{"seat": 0, "type": "done"}]
    state.phase, state.owed = "play", (1, 2)
    assert list(fv.legal_moves(state)) == [{"seat": 1, "type": "forced_discard", "cards": cs(cards)}
                                           for cards in ("9C AD", "9C 6D", "AD 6D")]
