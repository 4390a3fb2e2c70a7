"""The mark a move earns (domain/marks.py, docs/analysis.md "Marks"): from what it surely lost, the 95% lower bound
of the paired loss, never from the point estimate alone."""

from __future__ import annotations

import math
from types import SimpleNamespace

from domain.analysis import _report, _Stats
from domain.marks import mark_of, paired_loss, surely_lost

WIN = SimpleNamespace(unit="win", scale=100.0, marks=(5.0, 10.0, 20.0))


def _stats(values: list[float]) -> _Stats:
    st = _Stats()
    st.values = list(values)
    return st


def _line(best: list[float], played: list[float]) -> dict:
    moves = [{"type": "a"}, {"type": "b"}]
    return _report(WIN, lambda m: m, moves, [_stats(best), _stats(played)], {"type": "b"})


def test_a_mark_is_the_highest_threshold_the_loss_reaches():
    assert [mark_of((5, 10, 20), x) for x in (0, 4.99, 5, 9.99, 10, 19.99, 20, 80)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_the_paired_loss_is_the_mean_difference_less_1_96_standard_errors_over_the_shared_samples():
    best, played = [1, 1, 0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0, 0, 1, 1, 1]  # the played move's 2 extra samples unused
    diffs = [1, 0, 0, 1, 0, 0, 1, 0]
    mean = 3 / 8
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 7)
    got_mean, low = paired_loss(best, played)
    assert got_mean == mean and abs(low - (mean - 1.959963984540054 * sd / math.sqrt(8))) < 1e-12
    assert paired_loss([1.0], [0.0]) == (1.0, -math.inf)  # one sample: nothing is sure


def test_what_surely_was_lost_lies_between_0_and_the_loss_shown():
    assert surely_lost(30.0, [1.0] * 40, [0.0] * 40, 100.0) == 30.0  # no noise: the bound is the loss, capped at it
    assert surely_lost(5.0, [1, 0] * 20, [0, 1] * 20, 100.0) == 0.0  # a negative bound is shown as 0
    assert surely_lost(12.0, [0.5], [0.3], 100.0) == 0.0


def test_a_loss_over_the_blunder_threshold_by_noise_alone_is_not_marked_blunder():
    """32 win/lose samples: the played move's mean is 25 points below the best's, but the paired differences vary
    so much that it surely lost only some 4 points: an inaccuracy at most... here none, as 4 < 5."""
    best = [1, 0, 1, 1, 0, 1, 1, 0] * 4
    played = [0, 1, 1, 0, 0, 1, 0, 0] * 4
    line = _line(best, played)
    assert line["loss"] == 25.0 and mark_of(WIN.marks, line["loss"]) == "blunder"  # the point rule's mark
    assert line["loss_low"] < 5.0 and line["mark"] is None


def test_a_loss_the_paired_samples_make_sure_of_is_marked_by_its_lower_bound():
    best = [1] * 16 + [1] * 24 + [0] * 24  # the best wins 16 deals the played move loses, and no other differs
    played = [0] * 16 + [1] * 24 + [0] * 24
    line = _line(best, played)
    assert line["loss"] == 25.0
    low = line["loss_low"]
    assert 10.0 <= low < 20.0 <= line["loss"]
    assert line["mark"] == "mistake" == mark_of(WIN.marks, low)


def test_the_best_move_played_loses_nothing_and_earns_no_mark():
    line = _report(WIN, lambda m: m, [{"type": "a"}, {"type": "b"}], [_stats([1, 0] * 20), _stats([0, 0] * 20)],
                   {"type": "a"})
    assert (line["loss"], line["loss_low"], line["mark"]) == (0.0, 0.0, None)
