"""The background jobs' table in real stores (service.jobs.table, service.jobs.runner; docs/analysis.md
"Jobs"): a SQLite file shared by several connections, and a PostgreSQL schema. A job is taken by one worker only,
however many try at once; a job whose lease ran out passes to another worker and the first can no longer write it;
a cancel reaches the running worker at its next heartbeat; the limits hold against askers at once; two runners on one
store run a job once, and a runner that dies leaves its job to the other."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.jobs.table import Refused, jobs_for
from service.jobs.rules import Limits
from service.jobs.runner import JobRunner

KINDS = ["sqlite", "postgres"]
WIDE = Limits(per_asker=1000, per_address=1000, queued=1000)


@pytest.fixture(params=KINDS)
def url(request, stores):
    u = stores.url(request.param)
    stores.referee(u)  # the store made (its file, its schema), as a server's start makes it
    return u


@pytest.fixture
def tables(url):
    made = []

    def make():
        t = jobs_for(url)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def ask(table, job_id: str, owner: str = "o", address: str = "a", limits: Limits = WIDE):
    return table.ask(job_id, "test", "s", "g", {"n": job_id}, owner, address, 10, limits, "job")


def test_workers_claiming_at_once_take_each_job_exactly_once(tables):
    first = tables()
    for n in range(30):
        ask(first, f"job-{n:02d}")
    workers = [tables() for _ in range(4)]
    taken: list[str] = []
    guard = threading.Lock()

    def work(table):
        while (got := table.claim(["test"], 30)) is not None:
            with guard:
                taken.append(got[0].id)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(work, workers))
    assert sorted(taken) == [f"job-{n:02d}" for n in range(30)]  # none twice, none left
    assert first.claim(["test"], 30) is None


def test_a_job_whose_lease_ran_out_passes_to_another_worker_and_the_first_can_no_longer_write_it(tables):
    a, b = tables(), tables()
    ask(a, "j")
    row, holder_a = a.claim(["test"], 0.3)
    assert b.claim(["test"], 5) is None  # held
    assert a.beat("j", holder_a, 3, 10, 0.3) == "go"
    time.sleep(0.5)  # no heartbeat: the host died
    row, holder_b = b.claim(["test"], 5)
    assert row.id == "j" and row.done == 0  # started again from its start
    assert a.beat("j", holder_a, 4, 10, 5) == "lost"
    assert not a.finish("j", holder_a, "done", ["late"])
    assert b.finish("j", holder_b, "done", ["fresh"], done=10)
    stored = a.get("j")
    assert (stored.status, stored.result, stored.done, stored.holder) == ("done", ["fresh"], 10, None)
    assert stored.seconds is not None and stored.seconds >= 0


def test_a_cancel_stops_a_queued_job_at_once_and_reaches_a_running_one_at_its_heartbeat(tables):
    t = tables()
    ask(t, "queued")
    ask(t, "running")
    row, holder = t.claim(["test"], 30)
    assert row.id == "queued"  # the oldest first
    assert t.cancel("running").status == "cancelled"  # still queued: cancelled at once, nobody takes it
    assert t.claim(["test"], 30) is None
    assert t.cancel("queued").status == "running"  # running: asked to stop
    assert t.beat("queued", holder, 1, 10, 30) == "cancel"
    assert t.finish("queued", holder, "cancelled", error="cancelled")
    assert t.get("queued").status == "cancelled"
    assert ask(t, "queued")[1] and t.get("queued").status == "queued"  # asked again: queued again


def test_a_cancelled_job_whose_worker_died_ends_cancelled_rather_than_restarting(tables):
    t = tables()
    ask(t, "j")
    t.claim(["test"], 0.2)
    t.cancel("j")
    time.sleep(0.4)
    assert t.claim(["test"], 30) is None and t.get("j").status == "cancelled"


def test_askers_at_once_cannot_pass_a_limit_together(tables):
    limits = Limits(per_asker=1, per_address=100, queued=100)
    askers = [tables() for _ in range(4)]
    outcomes: list[str] = []

    def try_ask(n_table):
        n, table = n_table
        try:
            ask(table, f"j{n}", owner="same", limits=limits)
            outcomes.append("queued")
        except Refused:
            outcomes.append("refused")

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(try_ask, enumerate(askers)))
    assert sorted(outcomes) == ["queued", "refused", "refused", "refused"]


def runner(url: str, counts: dict, lease: float = 1.0, slow: float = 0.0) -> JobRunner:
    r = JobRunner(url)
    r.configure(workers=1, lease=lease)

    def work(row, step, executor):
        counts[row.id] = counts.get(row.id, 0) + 1
        for k in range(10):
            time.sleep(slow)
            step(k + 1, 10)
        return {"made by": id(r)}

    r.register("test", work, what="test job")
    return r


def wait_for(table, job_id: str, status: str, seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while (row := table.get(job_id)).status != status:
        assert time.monotonic() < end, row
        time.sleep(0.05)


def test_two_runners_on_one_store_run_a_job_asked_of_both_once(url, tables):
    counts: dict = {}
    one, two = runner(url, counts, slow=0.02), runner(url, counts, slow=0.02)
    try:
        assert one.ask("j", "test", "s", "g", {}, "o", "a", 10)[1]
        assert not two.ask("j", "test", "s", "g", {}, "o2", "a2", 10)[1]  # the same job
        two.start()
        wait_for(tables(), "j", "done")
        assert counts == {"j": 1} and one.get("j").result == two.get("j").result
    finally:
        one.close()
        two.close()


def test_a_runner_that_dies_leaves_its_job_to_another_once_its_lease_runs_out(url, tables):
    counts: dict = {}
    dying, other = runner(url, counts, lease=1.0, slow=0.3), runner(url, counts, lease=1.0, slow=0.01)
    try:
        dying.ask("j", "test", "s", "g", {}, "o", "a", 10)
        wait_for(tables(), "j", "running")
        dying.abandon()  # no more heartbeats, nothing written: as a killed host
        other.start()
        died = time.monotonic()
        wait_for(tables(), "j", "done", seconds=20)
        assert counts["j"] == 2 and time.monotonic() - died < 1.0 + 3.0
        assert other.get("j").result == {"made by": id(other)}
    finally:
        dying.close()
        other.close()


def test_a_queued_job_s_estimate_is_priced_by_the_measured_cost_of_past_jobs_of_its_game(url, tables):
    t = tables()
    r = JobRunner(url)
    r.register("test", lambda row, step, executor: None)
    ask(t, "past")
    _, holder = t.claim(["test"], 30)
    # the job's seconds are the difference of two wall-clock epoch times (floats good to some 2e-7 s, on a clock the
    # system may slew), not of a monotonic clock: after a 0.2 s sleep they differed by 0.1999989 once, so the job
    # sleeps a little longer than the bound it is held to
    time.sleep(0.21)
    t.finish("past", holder, "done", [], done=4, total=4)
    past = t.get("past")
    ask(t, "next")  # 10 units expected, of the same game
    view = r.view(t.get("next"))
    assert view.position == 1
    assert view.estimate == pytest.approx(past.seconds / 4 * 10)
    assert past.seconds >= 0.2
