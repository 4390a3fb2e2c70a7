"""The background jobs' rules (service.jobs.rules, docs/analysis.md "Jobs"), on rows made by hand: who may take a
job, who may add one, where a queued job stands, how long it should take, who may cancel it."""

from __future__ import annotations

from service.jobs.rules import (DEFAULT_COST, JobRow, Limits, claimable, cost_per_unit, estimate, may_cancel,
                                position, queue, refusal, requeued_on_ask)


def row(job_id: str, status: str = "queued", **kw) -> JobRow:
    return JobRow(id=job_id, kind=kw.pop("kind", "analysis"), game=kw.pop("game", "el-royale"), status=status, **kw)


def test_a_queued_job_may_be_taken_and_a_running_one_only_once_its_lease_ran_out():
    assert claimable(row("a"), now=100)
    assert not claimable(row("a", cancel=True), now=100)  # cancelled while queued: nobody starts it
    assert not claimable(row("a", "running", lease_until=101.0), now=100)
    assert claimable(row("a", "running", lease_until=99.0), now=100)  # its worker is gone
    assert not any(claimable(row("a", s, lease_until=0.0), now=100) for s in ("done", "failed", "cancelled"))


def test_asking_again_queues_a_failed_or_cancelled_job_and_answers_the_others_as_they_are():
    assert requeued_on_ask("failed") and requeued_on_ask("cancelled")
    assert not any(requeued_on_ask(s) for s in ("queued", "running", "done"))


def test_the_limits_count_one_asker_then_one_address_then_the_queue():
    limits = Limits(per_asker=2, per_address=3, queued=4)
    mine = [row("a", owner="me", address="1.2.3.4"), row("b", "running", owner="me", address="1.2.3.4")]
    assert "one asker" in refusal(mine, "me", "1.2.3.4", limits, "analysis")
    assert refusal(mine, "you", "1.2.3.4", limits, "analysis") is None  # another browser of the same address
    third = mine + [row("c", owner="you", address="1.2.3.4")]
    assert "one address" in refusal(third, "them", "1.2.3.4", limits, "analysis")
    assert refusal(third, "them", "5.6.7.8", limits, "analysis") is None
    full = [row(str(n), owner=f"o{n}", address=f"a{n}") for n in range(4)]
    assert "queue" in refusal(full, "new", "new", limits, "analysis")
    ended = [row(str(n), "done", owner="me", address="1.2.3.4") for n in range(9)]
    assert refusal(ended, "me", "1.2.3.4", limits, "analysis") is None  # finished jobs count for nothing


def test_the_queue_is_oldest_first_and_a_position_is_one_based():
    rows = [row("late", created=3.0), row("run", "running", created=0.0), row("early", created=1.0),
            row("gone", created=0.5, cancel=True), row("mid", created=2.0)]
    assert [r.id for r in queue(rows)] == ["early", "mid", "late"]
    assert (position(rows, "early"), position(rows, "late"), position(rows, "run")) == (1, 3, None)


def test_the_cost_of_a_unit_is_measured_from_finished_jobs_or_the_kind_s_guess():
    history = [row("a", "done", seconds=30.0, total=100), row("b", "done", seconds=10.0, total=100),
               row("c", "failed", seconds=99.0, total=1)]
    assert cost_per_unit(history, "analysis") == 0.2
    assert cost_per_unit([], "analysis") == DEFAULT_COST["analysis"]


def test_an_estimate_adds_the_jobs_before_it_at_their_own_game_s_cost():
    costs = {"run": 0.5, "first": 0.1, "me": 0.5}  # each job's measured cost a unit (its game's)
    rows = [row("run", "running", created=0.0, done=20, total=100),  # 80 left at 0.5
            row("first", created=1.0, units=50, game="batallion"),  # 50 at 0.1
            row("me", created=2.0, units=10),  # 10 at 0.5
            row("after", created=3.0, units=1000)]
    assert estimate(rows, "after", {}) == (80 + 50 + 10 + 1000) * DEFAULT_COST["analysis"]  # nothing measured yet
    assert estimate(rows, "run", costs) == 40.0
    assert estimate(rows, "me", costs) == 40.0 + 5.0 + 5.0
    assert estimate([row("x", "done")], "x", costs) is None


def test_whoever_started_a_job_or_the_referee_may_cancel_it():
    job = row("a", owner="token abc")
    assert may_cancel(job, "token abc", False) and may_cancel(job, "token other", True)
    assert not may_cancel(job, "token other", False) and not may_cancel(row("b", owner=""), "", False)
