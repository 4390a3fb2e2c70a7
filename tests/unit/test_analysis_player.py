"""The analysis as a player (domain/analysis_player.py, bench.strength): `best_move` plays the best mean, and
`guarded_move` keeps a prior move (a bot's) unless the paired samples show, 95% sure, that the best candidate does
better than it. Pinned on a seeded Batallion game of the random bot, whose moves the analysis marks from "best" to
"blunder" (64 samples a candidate, the seat's knowledge only)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain.analysis import BATCH, MIN_SAMPLES, Z95_ONE_SIDED, analyse_decision, same_move
from domain.analysis_player import best_move, guarded_move
from domain.games import SPECS
from projections.knowledge import seat_knowledge
from tests.unit.test_analysis_samplers import random_record, tables

SPEC = SPECS["batallion"]
SAMPLES = 64


@pytest.fixture(scope="module")
def game():
    options, players = tables("batallion")[0]
    record, _ = random_record("batallion", options, players, "00aa", random.Random(5), limit=80)
    return record, {seat: seat_knowledge(record, seat) for seat in range(record.setup.n)}


def _line(game, seat: int, ordinal: int):
    """The seat's decision: the set-up, its knowledge before it, the move it made, and the analysis' line of it."""
    record, knowledge = game
    seen, decisions = knowledge[seat]
    k = decisions[ordinal]
    seen = seen[:k.index]
    return record.setup, seen, k.move, analyse_decision(SPEC, record.setup, seat, seen, k.move, "g", ordinal, SAMPLES)


def _guarded(setup, seat, seen, ordinal, prior):
    """The guarded player on the very samples of the line (the analysis' batches and first stop)."""
    return guarded_move(SPEC, setup, seat, seen, "g", ordinal, SAMPLES, prior, True, None, MIN_SAMPLES, BATCH)


def test_a_prior_the_samples_show_surely_worse_is_replaced_by_the_best_candidate(game):
    """Seat 1's defence at its 11th decision is marked blunder (it surely lost 4 chips): the guarded player plays the
    analysis' best instead."""
    setup, seen, move, line = _line(game, 1, 10)
    assert line["mark"] == "blunder" and line["loss_low"] > 0
    chosen = _guarded(setup, 1, seen, 10, move)
    assert not same_move(chosen, move)
    assert SPEC.codec.format_move(chosen)["cards"] == line["best"]["cards"]


@pytest.mark.parametrize("seat, ordinal", [(1, 2), (2, 1)])
def test_a_prior_the_samples_cannot_show_worse_is_kept_though_another_move_has_the_best_mean(game, seat, ordinal):
    """Seat 1's 3rd decision (a draw) and seat 2's 2nd (a discard): another move has the best mean, but the played
    move's paired loss is not surely above 0, so the guarded player keeps it where `best_move` would not."""
    setup, seen, move, line = _line(game, seat, ordinal)
    assert line["loss"] > 0 and line["loss_low"] == 0 and line["best"] != line["played"]
    assert same_move(_guarded(setup, seat, seen, ordinal, move), move)
    assert not same_move(best_move(SPEC, setup, seat, seen, "g", ordinal, SAMPLES, True, None, MIN_SAMPLES, BATCH), move)


def test_the_guarded_player_plays_the_best_when_the_prior_is_the_best(game):
    setup, seen, move, line = _line(game, 1, 5)
    assert line["best"] == line["played"]
    assert same_move(_guarded(setup, 1, seen, 5, move), move)


def test_the_guarded_player_judges_no_decision_the_analysis_does_not(game):
    """A decision with one candidate (or none analysed) gives None: the caller plays its prior."""
    record, knowledge = game
    seen, decisions = knowledge[0]
    for ordinal, k in enumerate(decisions[:14]):
        if analyse_decision(SPEC, record.setup, 0, seen[:k.index], k.move, "g", ordinal, 4) is None:
            assert guarded_move(SPEC, record.setup, 0, seen[:k.index], "g", ordinal, 4, k.move) is None
            return
    pytest.fail("no unanalysed decision among seat 0's first 14")


@pytest.mark.parametrize("seat, ordinal", [(1, 2), (2, 1)])
def test_a_guard_of_zero_standard_errors_replaces_any_prior_with_a_worse_mean(game, seat, ordinal):
    """The same two decisions with the bound at 0 standard errors (`z`): a better mean is enough, so the guarded
    player plays the analysis' best, as `best_move` does."""
    setup, seen, move, line = _line(game, seat, ordinal)
    chosen = guarded_move(SPEC, setup, seat, seen, "g", ordinal, SAMPLES, move, True, None, MIN_SAMPLES, BATCH, z=0.0)
    assert not same_move(chosen, move)
    assert SPEC.codec.format_move(chosen) | {"seat": seat} == SPEC.codec.format_move(
        best_move(SPEC, setup, seat, seen, "g", ordinal, SAMPLES, True, None, MIN_SAMPLES, BATCH)) | {"seat": seat}


def test_without_a_bound_the_guarded_player_takes_its_game_s_own_from_the_spec(game):
    """`z` None reads the spec's `analysis.guard`: the same decision with a spec whose guard is 0 plays as `z=0`, and
    Small Battle, where plain sampling beats the bot, declares 0 while the others keep 95%."""
    setup, seen, move, _ = _line(game, 1, 2)
    lax = dataclasses.replace(SPEC, analysis=dataclasses.replace(SPEC.analysis, guard=0.0))
    chosen = guarded_move(lax, setup, 1, seen, "g", 2, SAMPLES, move, True, None, MIN_SAMPLES, BATCH)
    assert not same_move(chosen, move)
    assert same_move(guarded_move(SPEC, setup, 1, seen, "g", 2, SAMPLES, move, True, None, MIN_SAMPLES, BATCH), move)
    assert SPECS["small-battle"].analysis.guard == 0.0
    assert {SPECS[g].analysis.guard for g in ("batallion", "el-royale", "four-virtues")} == {Z95_ONE_SIDED}
