"""FV-2.3's run is in one suit: three or more number cards in sequence *of one suit* (Ace low) make a run; the same
ranks across suits make nothing, as a meld or as an addition to a run (FV-2.4). Through the decider's `decide`,
`step` and `legal_moves` on a stacked deal (issue 34: a broken suit check was caught only by the slow legal-move
cross-checks, with no clause test of its own)."""

from __future__ import annotations

import pytest

import domain.four_virtues as fv
from domain.rules import RuleViolation
from tests.unit.test_four_virtues_scoring import cs, deal

NOT_A_MELD = ("FV-2.3", "a meld is three or more number cards of one rank, or in sequence in one suit (Ace low)")


def _melding():
    """Seat 0 (to play first, seat 1 deals) has drawn KD and is melding: 5H 6H 7H 8H, 6S 8S, 2D 4D, 3C 9C."""
    state, chance = deal("5H 6H 7H 8H 6S 8S 2D 9C 3C 4D", "AD 3D 5D 6D 7D 8D 9D TD 7S 9S", "KS", stock="KD")
    _, state = fv.step(state, {"seat": 0, "type": "draw", "source": "stock", "count": 1}, chance)
    return state, chance


def _refused(state, chance, move) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as e:
        fv.decide(state, {"seat": 0, **move}, chance)
    return e.value.clause, e.value.reason


@pytest.mark.parametrize("cards", ["5H 6S 7H", "6S 7H 8S", "5H 6H 7H 8S", "2D 3C 4D"])
def test_a_sequence_across_suits_is_no_run(cards):
    state, chance = _melding()
    assert _refused(state, chance, {"type": "meld", "cards": cs(cards)}) == NOT_A_MELD


@pytest.mark.parametrize("cards", ["5H 6H 7H", "6H 7H 8H", "5H 6H 7H 8H"])
def test_a_sequence_in_one_suit_is_a_run(cards):
    state, chance = _melding()
    events, _ = fv.step(state, {"seat": 0, "type": "meld", "cards": cs(cards)}, chance)
    assert [e["type"] for e in events][:1] == ["melded"]


def test_a_run_takes_an_addition_of_its_own_suit_only():
    """FV-2.4: the run 5H 6H 7H takes 8H; 8S would leave a sequence across suits."""
    state, chance = _melding()
    _, state = fv.step(state, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H")}, chance)
    assert _refused(state, chance, {"type": "add", "meld": 0, "cards": cs("8S")}) == (
        "FV-2.4", "the meld would no longer be valid")
    fv.decide(state, {"seat": 0, "type": "add", "meld": 0, "cards": cs("8H")}, chance)


def test_the_melds_listed_hold_runs_of_one_suit_only():
    state, chance = _melding()
    melds = [m for m in fv.legal_moves(state) if m["type"] == "meld" and "face" not in m]
    listed = {tuple(sorted(m["cards"])) for m in melds}
    assert listed == {tuple(sorted(cs(c))) for c in ("5H 6H 7H", "6H 7H 8H", "5H 6H 7H 8H")}
