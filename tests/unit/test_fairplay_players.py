"""The fair-play validation's test-only players (tests/fairplay_players.py) and the screen's decision test
(domain/screening.py), for every game with analysis: an honest game is the same whatever the seed of a peek that
never happens, a peeker really cheats, every honest strength finishes its games, and the screen judges decisions the
way the full report's rank test does (shares in (0, 1), forced moves left out)."""

from __future__ import annotations

import math

import pytest

from domain.fairplay import true_states
from domain.games import GAMES, spec_for
from domain.records import parse
from domain.screening import PANEL, REFER, screen_decision, sigmas
from projections.knowledge import seat_knowledge
from tests.fairplay_players import HONEST, Player, final_state, play_game, seats_of

ANALYSED = [g for g in GAMES if spec_for(g).analysis is not None]


@pytest.mark.parametrize("game", ANALYSED)
def test_a_game_between_test_players_is_the_same_for_the_same_seed(game):
    players = [Player("noisy-0.3")] + [Player("heuristic")] * (seats_of(game) - 1)
    assert play_game(game, "same", players) == play_game(game, "same", players)


@pytest.mark.parametrize("game", ANALYSED)
def test_a_player_that_never_peeks_plays_exactly_as_the_honest_player(game):
    honest = [Player("heuristic")] * seats_of(game)
    never = [Player("heuristic", peek=0.0)] + [Player("heuristic")] * (seats_of(game) - 1)
    assert play_game(game, "never", honest)["moves"] == play_game(game, "never", never)["moves"]


@pytest.mark.parametrize("game", ANALYSED)
def test_a_peeker_at_every_decision_plays_differently_from_the_honest_player_in_some_game(game):
    others = [Player("heuristic")] * (seats_of(game) - 1)
    for i in range(6):  # the first 40 moves of a few games, the peeker judging each candidate by 1 rollout
        honest = play_game(game, f"peek-{i}", [Player("heuristic")] + others, max_moves=40)["moves"]
        cheat = play_game(game, f"peek-{i}", [Player("heuristic", 1.0, 1)] + others, max_moves=40)["moves"]
        if honest != cheat:
            return
    pytest.fail("the peeker played as the honest player in every game")


@pytest.mark.parametrize("game", [g for g in ANALYSED if g != "el-royale"])
@pytest.mark.parametrize("kind", HONEST)
def test_every_honest_strength_finishes_its_game(game, kind):
    record = parse(play_game(game, f"finish-{kind}", [Player(kind)] + [Player("heuristic")] * (seats_of(game) - 1)))
    assert record.decider.outcome(final_state(record)).is_over


@pytest.mark.parametrize("game", ANALYSED)
def test_the_screen_judges_a_seat_s_decisions_with_shares_strictly_between_0_and_1(game):
    record = parse(play_game(game, "screen", [Player("heuristic")] * seats_of(game)))
    spec = spec_for(game)
    states = true_states(record, {0})
    seen, decisions = seat_knowledge(record, 0)
    judged = []
    for k, x in enumerate(decisions[:12]):
        r = screen_decision(spec, record.setup, 0, seen[:x.index], x.move, states[x.move_index], "unit", k, worlds=3)
        if r is not None:
            judged.append(r)
    assert judged, "no decision of seat 0 was screened"
    for share, variance, support in judged:
        assert 0 < share < 1 and 0 <= variance <= 0.25
        assert len(support) == 4 and support[0] == round(share * 8) and all(1 <= k <= 7 for k in support)


def test_the_thresholds_are_one_in_a_thousand_and_one_in_a_million():
    assert REFER == 1e-3 and PANEL == 1e-6
    assert sigmas(PANEL) == pytest.approx(4.75, abs=0.01)
    assert sigmas(REFER) == pytest.approx(3.09, abs=0.01)
    assert sigmas(0.5) == pytest.approx(0.0, abs=0.01)
    assert math.isclose(sigmas(0.0228), 2.0, abs_tol=0.01)
