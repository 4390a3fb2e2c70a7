"""A player's accuracy from its analysis (docs/analysis.md "Accuracy"): lichess's curve on the loss, scaled by the
game's blunder threshold, averaged over the analysed decisions."""

from __future__ import annotations

from domain.accuracy import accuracy, move_accuracy


def test_the_best_move_is_100_and_the_thresholds_fall_on_the_curve():
    assert move_accuracy(0.0, 20.0) == 100.0
    assert 79 < move_accuracy(5.0, 20.0) < 81  # inaccuracy
    assert 63 < move_accuracy(10.0, 20.0) < 65  # mistake
    assert 39 < move_accuracy(20.0, 20.0) < 41  # blunder
    assert move_accuracy(1000.0, 20.0) == 0.0


def test_a_score_game_is_put_on_the_win_scale_by_its_blunder_threshold():
    # Batallion: a blunder is 2 chips, so a 2-chip loss rates like a 20-point loss of win chance
    assert move_accuracy(2.0, 2.0) == move_accuracy(20.0, 20.0)


def test_a_players_accuracy_is_the_mean_over_its_analysed_decisions():
    lines = [{"loss": 0.0}, {"loss": 20.0}]
    assert accuracy(lines, (5.0, 10.0, 20.0)) == round((100 + move_accuracy(20.0, 20.0)) / 2, 1)
    assert accuracy([], (5.0, 10.0, 20.0)) is None
