"""The fair-play rank test's far tail (domain/rank_tail.py, docs/fairplay.md "The far tail"): the exact tail of the sum
of the decisions' shares under independence, checked against enumeration; a valid p-value (never below its level
more often than the level); and the rank test reporting it where the normal tail is too thin."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.fairplay import rank_among, rank_test, rank_test_of
from domain.rank_tail import exact_tail, support_of

PANEL_Z = 4.753424308822899  # 1 in 1,000,000, one-sided


def _support(values: list[int]) -> tuple[int, ...]:
    return rank_among([float(v) for v in values])[2]


def _enumerated_tail(supports) -> Fraction:
    """P(sum >= observed) by listing every outcome (each support's values equally likely), in exact fractions."""
    observed = sum(Fraction(s[0], 2 * len(s)) for s in supports)
    hits, total = Fraction(0), Fraction(0)
    for outcome in itertools.product(*[[Fraction(k, 2 * len(s)) for k in s] for s in supports]):
        weight = Fraction(1, math.prod(len(s) for s in supports))
        total += weight
        if sum(outcome) >= observed:
            hits += weight
    assert total == 1
    return hits


decision_values = st.lists(st.integers(0, 3), min_size=2, max_size=5)  # a decision's W + 1 values (W = 1 .. 4)


@settings(max_examples=150, deadline=None)
@given(st.lists(decision_values, min_size=1, max_size=5))
def test_the_exact_tail_is_the_share_of_every_outcome_at_or_above_the_observed_sum(decisions):
    """Decisions of 1 to 4 worlds each, mixed in one test (their units differ): the convolution equals enumeration."""
    supports = [_support(v) for v in decisions]
    assert exact_tail(supports) == pytest.approx(float(_enumerated_tail(supports)), rel=1e-9, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.lists(decision_values, min_size=1, max_size=4))
def test_the_exact_tail_is_a_valid_p_value_under_honest_play(decisions):
    """When the true state is any of each decision's states with the same chance (honest play), the chance that the
    p-value is at or below a level is at most that level, for every level the test can give."""
    rows = [[_support(values[j:] + values[:j]) for j in range(len(values))] for values in decisions]  # the true state
    outcomes = list(itertools.product(*rows))  # at each position in turn: all equally likely
    p_values = sorted(exact_tail(list(o)) for o in outcomes)
    for level in set(p_values):
        at_or_below = sum(1 for p in p_values if p <= level + 1e-12) / len(p_values)
        assert at_or_below <= level + 1e-9


def test_a_support_lists_every_state_s_share_in_units_of_one_over_twice_the_states_the_true_state_first():
    share, variance, support = rank_among([3.0, 1.0, 3.0, 0.0, 7.0])
    assert support == (6, 3, 6, 1, 9)  # 2 below + 1 tie + 1 = 6; the 7 is above all four: 9 of 10
    assert share == 6 / 10 and support_of([6 / 10, 3 / 10, 6 / 10, 1 / 10, 9 / 10]) == support
    assert variance == pytest.approx(sum((k / 10 - 0.5) ** 2 for k in support) / 5)


def test_decisions_whose_states_all_tie_change_nothing_and_alone_give_one():
    tied = _support([2, 2, 2, 2, 2])
    assert tied == (5, 5, 5, 5, 5)
    assert exact_tail([tied, tied]) == 1.0
    varying = [_support([4, 0, 1, 0, 0]), _support([0, 1, 2, 3, 4])]
    assert exact_tail(varying + [tied] * 3) == exact_tail(varying)


def test_where_one_state_in_five_is_better_the_normal_tail_understates_the_chance_tenfold_at_the_panel_s_threshold():
    """100 decisions, each with one of five states better than the four others (tied): a share of 0.9 with chance 1/5,
    else 0.4. 39 of the true states the better one is 4.75 sigma (normal tail 1.0e-6), and happens by chance with
    probability 9.7e-6 (binomial): the rank test reports the exact one, and does not ask a panel."""
    high, low = _support([1, 0, 0, 0, 0]), _support([0, 1, 0, 0, 0])
    assert (high, low) == ((9, 4, 4, 4, 4), (4, 9, 4, 4, 4))
    supports = [high] * 39 + [low] * 61
    ranks = [s[0] / 10 for s in supports]
    variances = [sum((k / 10 - 0.5) ** 2 for k in s) / 5 for s in supports]
    z = (sum(ranks) - 50) / math.sqrt(sum(variances))
    assert z == pytest.approx(4.75)
    binomial = sum(math.comb(100, k) * 0.2 ** k * 0.8 ** (100 - k) for k in range(39, 101))
    assert exact_tail(supports) == pytest.approx(binomial, rel=1e-9)
    assert 9.6e-6 < binomial < 9.8e-6
    normal = rank_test(ranks, variances)
    assert normal == pytest.approx(1.0e-6, rel=0.02)
    assert rank_test(ranks, variances, None, supports) == pytest.approx(binomial, rel=1e-9)
    verdicts = [{"rank": r, "rank_variance": v, "game": 0, "rank_support": list(s)}
                for r, v, s in zip(ranks, variances, supports)]
    assert rank_test_of(verdicts) == pytest.approx(binomial, rel=1e-9)


def test_the_rank_test_keeps_the_clustered_normal_tail_where_it_is_the_larger():
    """Two games whose decisions all lean one way together: the games' spread makes the normal tail larger than the
    exact tail under independence, and the larger is reported."""
    supports = [_support([1, 0, 0, 0, 0])] * 12 + [_support([0, 1, 0, 0, 0])] * 12
    ranks = [s[0] / 10 for s in supports]
    variances = [0.04] * 24
    games = [0] * 12 + [1] * 12
    clustered = rank_test(ranks, variances, games)
    assert clustered > exact_tail(supports)
    assert rank_test(ranks, variances, games, supports) == clustered


def test_a_verdict_without_a_support_keeps_the_normal_tail():
    """Results kept before supports existed (or made by hand) hold rank and variance only: the normal tail alone."""
    ranks, variances = [0.9] * 30 + [0.4] * 70, [0.04] * 100
    supports = [(9, 4, 4, 4, 4)] * 30 + [None] + [(4, 9, 4, 4, 4)] * 69
    assert rank_test(ranks, variances, None, supports) == rank_test(ranks, variances)


@pytest.mark.parametrize("bad", [(), (0, 3), (1, 4), (5, 5, 5, 5, 5, 12)])
def test_a_support_outside_its_units_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="support"):
        exact_tail([(1, 3), bad])


@pytest.mark.parametrize("states", range(2, 34))
def test_every_share_of_a_decision_of_up_to_32_worlds_is_its_integer_in_the_support(states):
    """Shares are floats (k / (2 (W + 1))): their support is the nearest integer k, never k - 1 by a float's error
    (11 states is the first count where truncating would)."""
    for k in range(1, 2 * states):
        assert support_of([k / (2 * states)] * states) == (k,) * states


def test_a_p_value_is_never_above_one_though_the_float_sum_of_every_outcome_is():
    """76 decisions whose true state is the lowest of two: every outcome is at or above the observed sum, and the
    floats add up to 1.0000000000000002."""
    assert exact_tail([(1, 3)] * 76) == 1.0
