"""The screen's glance (domain.spec Analysis.glance, docs/fairplay.md "The glance"): a game may judge a candidate move
at once instead of by a rollout; Small Battle's glance is whether a strike removed a card. The screen judges by it
where a game declares one, the full test never does, and the test-only peeker uses it first."""

from __future__ import annotations

import random

import pytest

from domain.fairplay import perfect_information_decision, true_states
from domain.games import GAMES, spec_for
from domain.randomness import Chance
from domain.records import parse
from domain.screening import screen_decision, screen_judge
from domain.small_battle.clauses import removes, strike_value
from projections.knowledge import seat_knowledge
from tests.fairplay_players import Player, play_game

SPEC = spec_for("small-battle")


def strikes(record, seat: int = 0):
    """(state before, move) of each of `seat`'s strikes with a number drawn (not an Ace)."""
    states = true_states(record, {seat})
    _, decisions = seat_knowledge(record, seat)
    for x in decisions:
        state = states.get(x.move_index)
        if state is not None and x.move["type"] == "strike" and state.drawn is not None and \
                strike_value(state.drawn) is not None:
            yield state, x.move


def below(state, seat: int) -> list[int]:
    """The enemy positions whose card is below the number drawn."""
    return [p for p in state.remaining(1 - seat) if removes(state.drawn, state.formations[1 - seat][p])]


def test_a_small_battle_strike_s_glance_is_1_when_it_removes_a_card_and_0_when_it_holds():
    record = parse(play_game("small-battle", "glance", [Player("heuristic"), Player("heuristic")]))
    seen = {0: 0, 1: 0}
    glance = SPEC.analysis.glance
    for state, move in strikes(record):
        hit = set(below(state, 0))
        for p in state.remaining(1):
            after = SPEC.decider.step(state, {"seat": 0, "type": "strike", "position": p}, Chance("0" * 64))[1]
            value = glance(after, 0, random.Random(0), Chance("0" * 64), state)
            assert value == (1.0 if p in hit else 0.0)
            seen[int(value)] += 1
    assert seen[0] and seen[1]  # both kinds were met


def test_the_screen_judges_small_battle_by_the_glance_and_the_full_test_by_rollouts():
    record = parse(play_game("small-battle", "glance-rows", [Player("heuristic"), Player("heuristic")]))
    quick, rolled = set(), set()
    for k, (state, move) in enumerate(strikes(record)):
        rows = perfect_information_decision(SPEC, state, 0, move, "s", k, 1, glance=True)
        if rows is None:
            continue
        hit = set(below(state, 0))
        assert {r["move"]["position"] for r in rows if r["value"] == 100.0} == hit
        quick |= {r["value"] for r in rows}
        rolled |= {r["value"] for r in perfect_information_decision(SPEC, state, 0, move, "s", k, 1)}
    assert quick == {0.0, 100.0} and rolled == {0.0, 100.0}  # both 0/1, but not the same judge:
    record_rows = [(perfect_information_decision(SPEC, s, 0, m, "s", k, 1, glance=True),
                    perfect_information_decision(SPEC, s, 0, m, "s", k, 1)) for k, (s, m) in enumerate(strikes(record))]
    assert any(a != b for a, b in record_rows if a is not None)


def test_a_peeker_at_every_decision_strikes_a_card_below_the_number_whenever_one_remains():
    record = parse(play_game("small-battle", "peek-glance", [Player("heuristic", 1.0, 1), Player("heuristic")]))
    met = 0
    for state, move in strikes(record):
        options = below(state, 0)
        if options and len(state.remaining(1)) > 1:
            assert move["position"] in options
            met += 1
    assert met >= 3


def test_a_peeker_by_rollouts_alone_misses_strikes_the_glance_would_make():
    missed = 0
    for i in range(3):
        record = parse(play_game("small-battle", f"peek-rollouts-{i}",
                                 [Player("heuristic", 1.0, 1, peek_glance=False), Player("heuristic")]))
        missed += sum(1 for state, move in strikes(record)
                      if below(state, 0) and move["position"] not in below(state, 0))
    assert missed > 0


def test_a_peeker_s_screen_ranks_above_one_half_on_average_and_an_honest_player_s_near_it():
    def mean_share(player: Player, label: str) -> float:
        shares = []
        for i in range(3):
            record = parse(play_game("small-battle", f"{label}-{i}", [player, Player("heuristic")]))
            states = true_states(record, {0})
            seen, decisions = seat_knowledge(record, 0)
            for k, x in enumerate(decisions):
                if x.move_index in states:
                    r = screen_decision(SPEC, record.setup, 0, seen[:x.index], x.move, states[x.move_index], label, k)
                    if r is not None:
                        shares.append(r[0])
        return sum(shares) / len(shares)

    assert mean_share(Player("heuristic", 1.0, 1), "peek") > 0.6
    assert abs(mean_share(Player("heuristic"), "honest") - 0.5) < 0.1


@pytest.mark.parametrize("game", [g for g in GAMES if spec_for(g).analysis is not None])
def test_a_glance_is_declared_only_with_a_note_of_what_it_sees(game):
    glance = spec_for(game).analysis.glance
    assert glance is None or (glance.__doc__ and "screen" in glance.__doc__)


def test_the_reports_say_how_the_screen_judged_a_game():
    assert screen_judge(SPEC) == "its glance: whether the strike removed a card (SB-2.2)"
    assert screen_judge(spec_for("batallion"), 2) == "2 rollouts a candidate"



def test_a_report_stored_before_the_glance_says_its_screen_judged_by_its_rollouts():
    from service.fairplay.stages import screen_judge_of

    old = {"settings": {"screen_samples": 3}}
    assert screen_judge_of(old) == "3 rollouts a candidate"
    assert screen_judge_of({**old, "screen_judge": screen_judge(SPEC)}) == screen_judge(SPEC)
