"""The Four Virtues' clauses (rules/four-virtues.md): melds, virtues and scoring as named predicates, and the
hearts forced discard that holds up both seats."""

from __future__ import annotations

import pytest

import domain.four_virtues as fv
from domain.cards import parse_card
from domain.four_virtues.clauses import Meld, meld_kind, meld_points
from domain.randomness import Chance
from domain.rules import RuleViolation


def cs(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


@pytest.mark.parametrize("cards, kind", [("7C 7D 7H", "set"), ("AH 2H 3H", "run"), ("8S 9S TS", "run"),
                                         ("9S TS AS", None), ("7C 7D", None), ("4H 5H 7H", None), ("JC QC KC", None)])
def test_a_meld_is_three_or_more_of_one_rank_or_a_run_in_one_suit_ace_low(cards, kind):
    assert meld_kind(cs(cards)) == kind


def test_clubs_lowers_one_card_to_fit_and_it_keeps_its_new_rank():
    assert meld_kind(cs("8C 8D TH"), (parse_card("TH"), 7)) == "set"  # 8-8-10 as three eights
    assert meld_kind(cs("4H 6H 9H"), (parse_card("9H"), 4)) == "run"  # 4-6-9 as 4-5-6
    assert meld_kind(cs("4H 6H 9H 7H"), (parse_card("9H"), 4)) == "run"  # an addition to the lowered run


def test_diamonds_double_the_creators_cards_only():
    meld = Meld(tuple(cs("5C 5D 5H 5S")), parse_card("KD"), 0, (0, 0, 0, 1), None, 3)
    assert meld_points(meld, 0) == 2 * 15 and meld_points(meld, 1) == 5


def _game(deck_hands: tuple[str, str], up: str = "KS"):
    """Seat 0 (non-dealer) and seat 1 (dealer 1) with the given ten cards each, the up-card, the rest in pack order."""
    h0, h1 = cs(deck_hands[0]), cs(deck_hands[1])
    order = [c for pair in zip(h0, h1) for c in pair] + [parse_card(up)]
    order += [c for c in range(52) if c not in order]
    setup = fv.configure({"target": 100}, [{"name": "A"}, {"name": "B"}], 1, None)
    chance = Chance("f0", {"deal:1": order})
    state = fv.initial_state(setup)
    for e in fv.start(setup, chance):
        state = fv.evolve(state, e)
    return state, chance


def test_a_hearts_force_holds_up_every_other_move_until_the_opponent_discards():
    state, chance = _game(("4H 5H 6H JH AC 2C 3C 4C 5C 6C", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"))
    _, state = fv.step(state, {"seat": 0, "type": "draw", "source": "stock", "count": 1}, chance)
    _, state = fv.step(state, {"seat": 0, "type": "meld", "cards": cs("4H 5H 6H"), "face": parse_card("JH"), "force": 2}, chance)
    assert state.owed == (1, 2)
    for move in ({"seat": 0, "type": "discard", "cards": cs("AC")}, {"seat": 1, "type": "draw", "source": "discard"}):
        with pytest.raises(RuleViolation) as refused:
            fv.step(state, move, chance)
        assert refused.value.clause == "FV-3.4"
    _, state = fv.step(state, {"seat": 1, "type": "forced_discard", "cards": cs("AD 2D")}, chance)
    assert state.owed is None and state.discard[-2:] == tuple(cs("AD 2D"))


def test_virtue_fields_belong_to_their_face_suit_only():
    state, chance = _game(("4H 5H 6H JS AC 2C 3C 4C 5C 6C", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"))
    _, state = fv.step(state, {"seat": 0, "type": "draw", "source": "stock", "count": 1}, chance)
    with pytest.raises(RuleViolation) as refused:
        fv.step(state, {"seat": 0, "type": "meld", "cards": cs("4H 5H 6H"), "face": parse_card("JS"), "force": 0}, chance)
    assert refused.value.clause == "FV-3.4"


def test_done_only_after_the_stock_ran_out_this_turn():
    state, chance = _game(("4H 5H 6H JS AC 2C 3C 4C 5C 6C", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"))
    _, state = fv.step(state, {"seat": 0, "type": "draw", "source": "stock", "count": 1}, chance)
    with pytest.raises(RuleViolation) as refused:
        fv.step(state, {"seat": 0, "type": "done"}, chance)
    assert refused.value.clause == "FV-4.1"
