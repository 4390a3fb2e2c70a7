"""The Small Battle floor (bench/fairplay_floor.py): the likelihood-ratio test's noncentrality of a peeker's strikes,
and the strikes' chances read from the seat's own knowledge."""

from __future__ import annotations

import pytest

from bench.fairplay_floor import game_strikes, noncentrality


def test_a_strike_that_removes_a_card_half_the_time_and_always_could_carries_the_square_of_the_peek_rate():
    assert noncentrality([(0.5, 1.0)], 0.25) == pytest.approx(0.0625)
    assert noncentrality([(0.5, 1.0)] * 4, 1.0) == pytest.approx(4.0)


def test_a_strike_the_peeker_could_not_improve_carries_no_evidence():
    assert noncentrality([(0.3, 0.3), (0.9, 0.9)], 1.0) == 0.0


def test_rarer_honest_hits_carry_more_evidence():
    assert noncentrality([(0.2, 1.0)], 0.25) > noncentrality([(0.6, 1.0)], 0.25)


def test_each_strike_s_chance_of_some_card_below_is_at_least_its_own_chance():
    strikes = game_strikes("floor-test", 8)
    assert strikes and all(1 / 9 <= q <= a <= 1 for q, a in strikes)
