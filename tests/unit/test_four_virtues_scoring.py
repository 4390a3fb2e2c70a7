"""The Four Virtues with stacked decks: each virtue and each scoring rule played out (FV-2 .. FV-4).

Seat 0 is the non-dealer (it plays first), seat 1 deals; `deal` places the hands, the up-card and the
first stock cards at the positions FV-1.3 R gives them.
"""

from __future__ import annotations

import pytest

import domain.four_virtues as fv
from domain.cards import parse_card
from domain.randomness import Chance
from domain.rules import RuleViolation
from projections.four_virtues import describe, table
from projections.viewers import REFEREE


def cs(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def deal(hand0: str, hand1: str, up: str, stock: str = "", target: int = 100):
    h0, h1 = cs(hand0), cs(hand1)
    order = [c for pair in zip(h0, h1) for c in pair] + [parse_card(up)] + cs(stock)
    order += [c for c in range(52) if c not in order]
    setup = fv.configure({"target": target}, [{"name": "North"}, {"name": "South"}], 1, None)
    chance = Chance("f00d", {"deal:1": order})
    state = fv.initial_state(setup)
    for e in fv.start(setup, chance):
        state = fv.evolve(state, e)
    return state, chance


class Table:
    """A game played move by move; `events` keeps every event in order."""

    def __init__(self, state, chance):
        self.state, self.chance, self.events = state, chance, []

    def play(self, seat: int, kind: str, **fields):
        move = {"seat": seat, "type": kind} | fields
        events, self.state = fv.step(self.state, move, self.chance)
        self.events += events
        return events

    def refused(self, seat: int, kind: str, **fields) -> str:
        with pytest.raises(RuleViolation) as refusal:
            fv.step(self.state, {"seat": seat, "type": kind} | fields, self.chance)
        return refusal.value.clause

    def ended(self) -> dict:
        return next(e for e in self.events if e["type"] == "round_ended")


def test_a_club_lowered_card_scores_its_new_rank_and_an_emptied_hand_ends_the_round():
    t = Table(*deal("8C 8S TH JC AS 2S 3S 5H 6H 7H", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "KS", stock="4C"))
    t.play(0, "draw", source="stock", count=1)
    (melded,) = t.play(0, "meld", cards=cs("8C 8S TH"), face=parse_card("JC"), lowered={"card": parse_card("TH"), "rank": 7})
    assert melded["points"] == 8 + 8 + 8  # the ten counts as an eight (FV-3.3)
    t.play(0, "meld", cards=cs("AS 2S 3S"))
    t.play(0, "meld", cards=cs("5H 6H 7H"))
    t.play(0, "discard", cards=cs("4C"))
    ended = t.ended()
    assert ended["by"] == "empty" and ended["points"] == [24 + 6 + 18, 0]
    assert t.state.round == 2 and t.state.scores == (48, 0) and t.state.rounds == ((48, 0),)


def test_a_diamond_meld_doubles_its_creators_additions_but_not_the_opponents():
    t = Table(*deal("5H 6H 7H 8H KD AC 3C 5C 7C 9C", "9H AD 2D 3D 4D 6D 7S 8S 9S TS", "KS"))
    t.play(0, "draw", source="stock", count=1)
    t.play(0, "meld", cards=cs("5H 6H 7H"), face=parse_card("KD"))
    (added,) = t.play(0, "add", meld=0, cards=cs("8H"))
    assert added["points"] == 16
    t.play(0, "discard", cards=cs("AC"))
    t.play(1, "draw", source="stock", count=1)
    (added,) = t.play(1, "add", meld=0, cards=cs("9H"))
    assert added["points"] == 9
    lines = [(ln["card"], ln["seat"], ln["added"], ln["virtue"], ln["points"]) for ln in table(t.state, REFEREE)["melds"][0]["lines"]]
    assert lines == [("5H", 0, False, "diamonds", 10), ("6H", 0, False, "diamonds", 12), ("7H", 0, False, "diamonds", 14),
                     ("8H", 0, True, "diamonds", 16), ("9H", 1, True, "diamonds", 9)]
    assert table(t.state, REFEREE)["melds"][0]["scores"] == [52, 9]


def test_five_of_a_kind_through_clubs_holds_two_cards_of_one_suit():
    t = Table(*deal("8C 8D 8H 8S 9H QC AC 3C 5C 7C", "AD 2D 3D 4D 5D 6D 7D 9D TD KD", "KS"))
    t.play(0, "draw", source="stock", count=1)
    (melded,) = t.play(0, "meld", cards=cs("8C 8D 8H 8S 9H"), face=parse_card("QC"), lowered={"card": parse_card("9H"), "rank": 7})
    assert melded["points"] == 40 and t.state.melds[0].lowered == (parse_card("9H"), 7)
    assert t.refused(0, "meld", cards=cs("AC 3C 5C"), face=None) == "FV-2.3"


def test_a_hearts_force_is_answered_by_the_opponent_in_the_order_given_and_the_melder_plays_on():
    t = Table(*deal("4H 5H 6H JH AC 2C 3C 9C TC 7C", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "KS"))
    t.play(0, "draw", source="stock", count=1)
    (melded,) = t.play(0, "meld", cards=cs("4H 5H 6H"), face=parse_card("JH"), force=3)
    assert melded["owed"] == 3 and fv.to_act(t.state) == (1,)
    assert t.refused(1, "forced_discard", cards=cs("AD 2D")) == "FV-3.4"  # exactly three
    assert t.refused(0, "meld", cards=cs("AC 2C 3C")) == "FV-3.4"  # the melder waits too
    t.play(1, "forced_discard", cards=cs("9D AD 5D"))
    assert t.state.discard[-3:] == tuple(cs("9D AD 5D")) and len(t.state.hands[1]) == 7
    assert fv.to_act(t.state) == (0,)
    t.play(0, "meld", cards=cs("AC 2C 3C"))


def drain(t: Table, leave: int) -> None:
    """Both seats draw two and discard what they drew until the stock holds `leave` (or `leave` + 1) cards."""
    while len(t.state.stock) > leave + 1:
        seat = t.state.turn
        (drew,) = t.play(seat, "draw", source="stock", count=2)
        t.play(seat, "discard", cards=[drew["cards"][0]])


def test_spades_draw_the_last_stock_cards_then_final_melding_and_done_end_the_round():
    t = Table(*deal("7S 8S 9S QS AC 3C 5C 7C 9C JD", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "KS"))
    drain(t, 3)
    seat = t.state.turn
    if seat != 0:
        (drew,) = t.play(1, "draw", source="stock", count=1)
        t.play(1, "discard", cards=drew["cards"])
    assert t.state.turn == 0 and len(t.state.stock) in (2, 3)
    t.play(0, "draw", source="stock", count=1)
    left = list(t.state.stock)
    assert t.refused(0, "meld", cards=cs("7S 8S 9S"), face=parse_card("QS"), draw=len(left) + 1) == "FV-3.5"
    events = t.play(0, "meld", cards=cs("7S 8S 9S"), face=parse_card("QS"), draw=len(left))
    assert events[1] == {"type": "drew", "seat": 0, "source": "stock", "cards": left, "spades": True}
    assert t.state.phase == "final" and not t.state.stock
    assert t.refused(0, "draw", source="stock", count=1) == "FV-2.1"
    t.play(0, "done")
    ended = t.ended()
    assert ended["by"] == "stock" and ended["points"][0] >= 24 and t.state.round == 2


def test_the_player_who_draws_the_last_card_may_meld_then_discard_and_the_opponent_lays_nothing_after():
    t = Table(*deal("7S 8S 9S QS AC 3C 5C 7C 9C JD", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "KS"))
    drain(t, 1)
    seat = t.state.turn
    t.play(seat, "draw", source="stock", count=len(t.state.stock))
    assert t.state.phase == "final"
    t.play(seat, "meld", cards=cs("7S 8S 9S")) if seat == 0 else None
    hand = t.state.hands[seat]
    t.play(seat, "discard", cards=[hand[0]])
    assert [e["type"] for e in t.events[-2:]] == ["round_ended", "dealt"] and t.ended()["by"] == "stock"
    assert t.state.round == 2 and t.state.dealer == 0 and t.state.turn == 1  # the dealer alternates (FV-1.2)


def _at_round_end(scores: tuple[int, int], melds_of: tuple[str, str], target: int = 100):
    """A constructed table in its final melding: seat 0 holds the two melds' cards and has just drawn the last card."""
    state, chance = deal("AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "KS", target=target)
    state = state.clone()
    state.scores, state.stock, state.phase, state.turn = scores, (), "final", 0
    state.hands = (tuple(sorted(cs(melds_of[0]) + cs("KH"))), tuple(sorted(cs(melds_of[1]))))
    return Table(state, chance)


def test_a_tie_at_the_target_deals_another_round():
    t = _at_round_end((95, 101), ("AS 2S 3S", ""))
    t.play(0, "meld", cards=cs("AS 2S 3S"))
    t.play(0, "done")
    assert [e["type"] for e in t.events[-2:]] == ["round_ended", "dealt"]
    assert t.state.scores == (101, 101) and t.state.outcome is None and t.state.round == 2


def test_the_higher_total_wins_when_both_reach_the_target():
    t = _at_round_end((95, 100), ("AS 2S 3S 4S", ""))
    t.play(0, "meld", cards=cs("AS 2S 3S 4S"))
    t.play(0, "done")
    assert t.events[-1]["type"] == "won" and t.events[-1]["seats"] == [0] and t.state.scores == (105, 100)


def test_a_disputed_score_is_explained_card_by_card_in_the_audit_narration():
    t = Table(*deal("5H 6H 7H 8H KD AC 3C 5C 7C 9C", "9H AD 2D 3D 4D 6D 7S 8S 9S TS", "KS"))
    t.play(0, "draw", source="stock", count=1)
    t.play(0, "meld", cards=cs("5H 6H 7H"), face=parse_card("KD"))
    t.play(0, "add", meld=0, cards=cs("8H"))
    names = ["North", "South"]
    text = describe(fv.encode_event(t.events[-1]), names)
    assert text == "North adds 8H to meld 0: 16"
    t.state = t.state.clone()
    t.state.stock, t.state.phase = (), "final"
    t.play(0, "done")
    text = describe(fv.encode_event(t.ended()), names)
    assert "meld 0: 8H added by North under diamonds: 16" in text and "meld 0: 5H laid by North under diamonds: 10" in text
