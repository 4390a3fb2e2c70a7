"""Small Battle's clauses on stacked piles (rules/small-battle.md), and its honesty check (SB-1.3, SB-3.2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.small_battle as sb
from domain.cards import parse_card
from domain.randomness import Chance
from domain.rules import RuleViolation

SEED = "5b"
SETUP = sb.configure({}, [{"name": "Ann"}, {"name": "Bob"}], None, 0)  # seat 0 strikes first


class Table:
    def __init__(self, pile: str, f0="23456789", f1="23456789"):
        order = [parse_card(c) for c in pile.split()]
        rest = [c for c in sb.codec.PILE if c not in order]
        self.chance = Chance(SEED, {"pile": order + rest})
        self.state = sb.initial_state(SETUP)
        for e in sb.start(SETUP, self.chance):
            self.state = sb.evolve(self.state, e)
        self.events: list[dict] = []
        self.play(0, "arrange", formation=list(f0))
        self.play(1, "arrange", formation=list(f1))

    def play(self, seat, kind, **fields):
        events, self.state = sb.step(self.state, {"seat": seat, "type": kind, **fields}, self.chance)
        self.events += events
        return events

    def refused(self, seat, kind, **fields) -> str:
        with pytest.raises(RuleViolation) as e:
            self.play(seat, kind, **fields)
        return e.value.clause


def test_a_removal_continues_the_turn_and_the_drawn_card_goes_to_the_bottom():
    t = Table("5D 3D")
    assert t.state.drawn == parse_card("5D")
    t.play(0, "strike", position=0)  # 5 beats the 2 at position 0
    assert 0 in t.state.removed[1] and t.state.to_act == 0
    assert t.state.pile[-1] == parse_card("5D") and len(t.state.pile) + 1 == 18


def test_an_equal_number_does_not_remove_and_the_turn_passes():
    t = Table("5D")
    t.play(0, "strike", position=3)  # the 5 at position 3
    assert t.state.removed[1] == () and t.state.to_act == 1


def test_an_ace_reveals_the_named_card_to_both_and_the_turn_passes():
    t = Table("AD")
    events = t.play(0, "strike", position=7)
    assert events[0]["result"] == "revealed" and t.state.revealed[1] == (7,) and t.state.to_act == 1
    assert sb.final(t.state)["revealed"] == {"0": [], "1": [7]}


def test_a_nine_only_falls_to_a_ten():
    t = Table("9D TD", f1="98765432")  # the 9 at position 0
    t.play(0, "strike", position=0)
    assert t.state.removed[1] == () and t.state.to_act == 1
    t2 = Table("TD", f1="98765432")
    t2.play(0, "strike", position=0)
    assert t2.state.removed[1] == (0,)


def test_the_pile_always_holds_eighteen_cards():
    rng = random.Random(3)
    t = Table("")
    while not sb.outcome(t.state).is_over:
        assert len(t.state.pile) + (t.state.drawn is not None) == 18
        move = rng.choice(list(sb.legal_moves(t.state)))
        t.play(move["seat"], "strike", position=move["position"])
    assert sb.final(t.state)["drawn"] is None  # no card is drawn after the winning strike


def test_strikes_wait_for_both_formations_and_for_the_seat_to_move_and_a_remaining_position():
    chance = Chance(SEED)
    state = sb.initial_state(SETUP)
    for e in sb.start(SETUP, chance):
        state = sb.evolve(state, e)
    _, state = sb.step(state, {"seat": 1, "type": "arrange", "formation": list("23456789")}, chance)  # either seat first
    with pytest.raises(RuleViolation) as e:
        sb.step(state, {"seat": 0, "type": "strike", "position": 0}, chance)
    assert e.value.clause == "SB-2.1"
    t = Table("5D 3D")
    assert t.refused(1, "strike", position=0) == "SB-2.1"  # not its turn
    assert t.refused(0, "strike", position=8) == "SB-2.1"
    t.play(0, "strike", position=0)
    assert t.refused(0, "strike", position=0) == "SB-2.1"  # removed already
    assert t.refused(0, "arrange", formation=list("23456789")) == "SB-1.3"  # once


@pytest.mark.parametrize("formation", [list("2345678"), list("23456782"), ["2", "3", "4", "5", "6", "7", "8", "10"]])
def test_a_formation_is_exactly_one_each_of_two_to_nine(formation):
    chance = Chance(SEED)
    state = sb.initial_state(SETUP)
    with pytest.raises(RuleViolation) as e:
        sb.step(state, {"seat": 0, "type": "arrange", "formation": formation}, chance)
    assert e.value.clause == "SB-1.3"


def test_the_high_card_goes_first_ace_highest_and_ties_draw_again():
    pack = [parse_card(c) for c in "7C 7D AS 2H".split()]
    assert sb.codec.first_player(pack + [c for c in range(52) if c not in pack]) == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=2, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False))
def test_the_commitments_and_every_strike_check_and_a_changed_formation_does_not(seed, rng):
    setup = sb.configure({}, [{"name": "A"}, {"name": "B"}], None, None)
    chance = Chance(seed)
    state = sb.initial_state(setup)
    events = sb.start(setup, chance)
    for e in events:
        state = sb.evolve(state, e)
    while not sb.outcome(state).is_over:
        if state.arranged:
            move = rng.choice(list(sb.legal_moves(state)))
        else:
            seat = next(s for s in range(2) if state.formations[s] is None)
            move = {"seat": seat, "type": "arrange", "formation": rng.sample(list("23456789"), 8)}
        new, state = sb.step(state, move, chance)
        events += new
        # no seat's view of the game ever holds an unrevealed card of the opponent's formation (checked in views)
    report = sb.honesty(events, seed)
    assert report["ok"] and report["commitments"] == 16 and report["strikes"] > 0
    arranged = next(e for e in events if e["type"] == "arranged")
    changed = list(arranged["formation"])
    changed[0], changed[1] = changed[1], changed[0]  # the seat claims another formation afterwards
    forged = [dict(e, formation=changed) if e is arranged else e for e in events]
    assert not sb.honesty(forged, seed)["ok"]


@settings(max_examples=20, deadline=None)
@given(seed=st.binary(min_size=2, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False))
def test_no_view_of_a_seat_holds_an_unrevealed_card_of_the_opponents_formation(seed, rng):
    import json

    from projections.small_battle import redact, table
    from projections.viewers import SPECTATOR, Viewer

    setup = sb.configure({}, [{"name": "A"}, {"name": "B"}], None, None)
    chance = Chance(seed)
    state = sb.initial_state(setup)
    for e in sb.start(setup, chance):
        state = sb.evolve(state, e)
    log: list[dict] = []
    while not sb.outcome(state).is_over:
        if state.arranged:
            move = rng.choice(list(sb.legal_moves(state)))
        else:
            seat = next(s for s in range(2) if state.formations[s] is None)
            move = {"seat": seat, "type": "arrange", "formation": rng.sample(list("23456789"), 8)}
        new, state = sb.step(state, move, chance)
        log += [sb.encode_event(e) for e in new]
        if sb.outcome(state).is_over:
            break
        for seat in range(2):
            other = 1 - seat
            f = state.formations[other]
            if f is None:
                continue
            viewer = Viewer.of_seat(seat)
            seen = json.dumps(table(state, viewer)) + json.dumps([redact(e["type"], e, viewer, 2) for e in log])
            for p in range(8):
                card = sb.format_card(sb.formation_card(other, f[p]))
                if p not in state.revealed[other]:
                    assert f'"{card}"' not in seen, f"seat {seat} sees {card} at unrevealed position {p}"
            for e in log:  # a strike on the opponent tells the striker only removed or not, never the rank
                if e["type"] == "struck" and e["seat"] == seat and e["result"] != "revealed":
                    assert "rank" not in redact("struck", e, viewer, 2)
            spectator = json.dumps(table(state, SPECTATOR))
            assert not any(f'"{sb.format_card(sb.formation_card(other, f[p]))}"' in spectator
                           for p in range(8) if p not in state.revealed[other])


@settings(max_examples=15, deadline=None)
@given(seed=st.binary(min_size=2, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False))
def test_strikes_listed_are_exactly_the_strikes_decide_accepts(seed, rng):
    """Brute force through decide: every seat, every position from -1 to 8, against legal_moves, both ways."""
    setup = sb.configure({}, [{"name": "A"}, {"name": "B"}], None, None)
    chance = Chance(seed)
    state = sb.initial_state(setup)
    for e in sb.start(setup, chance):
        state = sb.evolve(state, e)
    for seat in (0, 1):
        _, state = sb.step(state, {"seat": seat, "type": "arrange", "formation": rng.sample(list("23456789"), 8)}, chance)
    while not sb.outcome(state).is_over:
        accepted = set()
        for seat in (0, 1):
            for position in range(-1, 9):
                try:
                    sb.decide(state, {"seat": seat, "type": "strike", "position": position}, chance)
                except RuleViolation:
                    continue
                accepted.add((seat, position))
        assert accepted == {(m["seat"], m["position"]) for m in sb.legal_moves(state)}
        move = rng.choice(list(sb.legal_moves(state)))
        _, state = sb.step(state, move, chance)
