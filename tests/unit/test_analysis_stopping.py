"""When a decision's sampling stops (issue 36 part 5, docs/analysis.md "The method"): a candidate other than the
best stops once it is, 95% sure, not better than the best by the tolerance (the indifference zone); the best samples
on, resuming if it had stopped, until its interval is within the tolerance, or within `SETTLED` times it once it
alone still samples. The rule reads the sampled values only, so the hidden-card property holds with it acting."""

from __future__ import annotations

import json
import random

import domain.analysis as analysis
from domain.analysis import SETTLED, _Stats, evaluate, still_moving
from domain.games import spec_for
from projections.knowledge import seat_knowledge
from service.analysis.facade import Plan, analyse, plan
from tests.unit.test_analysis_hidden import _altered, _cut, _game

TOL = 0.05


def _stats(*columns: list[float]) -> list[_Stats]:
    out = []
    for values in columns:
        st = _Stats()
        st.values = list(values)
        out.append(st)
    return out


def _alternating(n: int) -> list[float]:
    return [float(k % 2) for k in range(n)]  # mean 0.5, interval +-0.12 at 64 samples: wider than the tolerance


def _flipped(best: list[float], worse: int, better: int = 0) -> list[float]:
    """`best` with `worse` of its 1s made 0 and `better` of its 0s made 1 (paired differences of -1 and +1)."""
    out = list(best)
    ones = [k for k, v in enumerate(best) if v == 1.0]
    zeros = [k for k, v in enumerate(best) if v == 0.0]
    for k in ones[:worse]:
        out[k] = 0.0
    for k in zeros[:better]:
        out[k] = 1.0
    return out


def test_a_candidate_surely_within_the_tolerance_below_the_best_stops_though_not_clearly_worse():
    best = _alternating(64)
    near = _flipped(best, worse=2)  # 2 samples of 64 lost: mean difference -3.1 points, upper bound +0.5 points
    other = _alternating(64)[::-1]  # keeps the decision open (equal mean, opposite samples: not within)
    stats = _stats(best, near, other)
    assert analysis.paired_upper_bound(near, best) > 0  # not clearly worse: the old rule would sample it on
    assert stats[1].half_width() > TOL  # nor narrow enough on its own
    assert 1 not in still_moving(stats, {0, 1, 2}, TOL)


def test_a_candidate_that_may_still_be_better_than_the_best_by_the_tolerance_samples_on():
    best = _alternating(64)
    noisy = _flipped(best, worse=20, better=16)  # mean difference -6.25 points; upper bound +9.2 points
    assert 1 in still_moving(_stats(best, noisy), {0, 1}, TOL)
    # with twice the samples of the same pattern its upper bound falls to +4.7 points, below the tolerance (and
    # above 0: not clearly worse; its own interval, +-8.6, is still wide), and it stops
    twice = _stats(best * 2, noisy * 2)
    assert twice[1].half_width() > TOL
    assert 1 not in still_moving(twice, {0, 1}, TOL)


def test_the_best_samples_until_its_interval_is_within_the_tolerance():
    best = _alternating(64)
    worse = [0.0] * 64
    assert still_moving(_stats(best, worse, _alternating(64)[::-1]), {0, 1, 2}, TOL) == {0, 2}
    assert still_moving(_stats([1.0] * 64, worse), {0, 1}, TOL) == set()  # both intervals within: done


def test_a_stopped_candidate_that_has_become_the_best_resumes():
    stats = _stats(_flipped(_alternating(64), worse=20), _alternating(64), _alternating(64)[::-1])
    assert 1 in still_moving(stats, {0, 2}, TOL)  # 1 had stopped; its mean is now the highest (first among equals)


def test_a_settled_decision_stops_once_the_best_is_within_settled_times_the_tolerance_and_not_before():
    worse = [0.0] * 128
    wide = [1.0 if k % 5 == 0 else 0.0 for k in range(64)]  # +-9.8 points: over 1.5 times the tolerance
    assert still_moving(_stats(wide, worse[:64]), {0, 1}, TOL) == {0}
    within = [1.0 if k % 5 == 0 else 0.0 for k in range(128)]  # +-7.0 points: within 1.5 x 5
    st = _stats(within, worse)
    assert TOL < st[0].half_width() <= SETTLED * TOL
    assert still_moving(st, {0, 1}, TOL) == set()
    # the same best with another candidate still open is not settled: it samples on to the tolerance
    assert 0 in still_moving(_stats(within, worse, within[::-1]), {0, 1, 2}, TOL)


def _small_battle_decision():
    record = _game("small-battle", 2, {})
    seen, decisions = seat_knowledge(record, 0)
    spec = spec_for("small-battle")
    for k, x in enumerate(decisions):
        out = evaluate(spec, record.setup, 0, seen[:x.index], "stop", k, 8, x.move)
        if out is not None and len(out[0]) >= 3:
            return spec, record, seen[:x.index], x.move, k
    raise AssertionError("no decision with three candidates")


def test_a_resumed_candidate_catches_up_on_the_very_samples_it_missed(monkeypatch):
    """Sample k of a candidate is the same value whether it was drawn in turn or caught up on after a stop."""
    spec, record, seen, move, k = _small_battle_decision()
    monkeypatch.setattr(analysis, "still_moving", lambda stats, active, tol: set(active))  # never stops
    full = evaluate(spec, record.setup, 0, seen, "stop", k, 96, move, min_samples=8, batch_size=8)
    checks = []

    def stop_then_resume(stats, active, tol):  # candidate 1 stops at the first check, comes back at the fourth
        checks.append(1)
        return set(active) - {1} if len(checks) < 4 else set(range(len(stats)))

    monkeypatch.setattr(analysis, "still_moving", stop_then_resume)
    resumed = evaluate(spec, record.setup, 0, seen, "stop", k, 96, move, min_samples=8, batch_size=8)
    assert len(checks) >= 4 and all(s.n == 96 for s in resumed[1])
    assert [s.values for s in resumed[1]] == [s.values for s in full[1]]


def test_the_stopping_rule_acting_reads_no_card_the_seat_had_not_seen():
    """With enough samples for the rule to stop some candidates early (and not others), altering cards the seat had
    not seen leaves the analysis byte-identical."""
    record = _game("el-royale", 4, {"edition": "revised"})
    rng = random.Random(5)
    seat = 1
    _, decisions = seat_knowledge(record, seat)
    checked = 0
    for k in rng.sample(range(len(decisions)), len(decisions)):
        upto = decisions[k].move_index + 1
        p = plan(_cut(record, upto), seat)
        one = Plan(p.game, p.setup, p.seat, p.seen, p.decisions[k:k + 1])
        lines = list(analyse(one, "stopping", 160))
        if not lines or len({m["samples"] for m in lines[0]["moves"]}) < 2:
            continue  # not analysed, or the rule did not tell the candidates apart
        altered = _altered(record, seat, upto, rng)
        if altered is None:
            continue
        p2 = plan(altered, seat)
        again = list(analyse(Plan(p2.game, p2.setup, p2.seat, p2.seen, p2.decisions[k:k + 1]), "stopping", 160))
        assert json.dumps(again, sort_keys=True) == json.dumps(lines, sort_keys=True)
        checked += 1
        if checked == 2:
            break
    assert checked >= 1
