"""The Four Virtues' legal moves at fixed positions, listed exactly and in order (what mutation testing showed the
random games of test_four_virtues_legal_moves.py may miss: a hand with no face card and more than one meld)."""

from __future__ import annotations

import domain.four_virtues as fv
from tests.unit.test_four_virtues_rules import _melding_table
from tests.unit.test_four_virtues_scoring import cs


def test_a_hand_without_a_face_card_is_offered_every_meld_it_holds_in_order():
    """FV-2.3: with no face card each set and run is listed once, plain: sets by rank, then runs by suit and low card."""
    state, _ = _melding_table()
    state = state.clone()
    state.hands = (tuple(sorted(cs("9C 9D 9S AD 2D 3D 4D 8S TS 5H"))), state.hands[1])
    melds = [m["cards"] for m in fv.legal_moves(state) if m["type"] == "meld"]
    assert melds == [cs("9C 9D 9S"), cs("AD 2D 3D"), cs("AD 2D 3D 4D"), cs("2D 3D 4D"),
                     cs("8S 9S TS")]
    assert all(set(m) == {"seat", "type", "cards"} for m in fv.legal_moves(state) if m["type"] == "meld")
