"""service.adapters.group_commit: concurrent saves share a transaction; each caller still gets its own ids or its own error."""

from __future__ import annotations

import threading

import pytest

from service.adapters.group_commit import GroupCommit


class Stale(Exception):
    pass


class FakeStore:
    """An insert_events that numbers rows, refuses a whole transaction holding a 'stale' row, and can be held."""

    def __init__(self):
        self.rows: list[str] = []
        self.transactions: list[list[str]] = []
        self.hold = threading.Event()
        self.entered = threading.Event()
        self.hold.set()

    def insert(self, events, **kwargs):
        self.entered.set()
        self.hold.wait(5)
        if any(e.startswith("stale") for e in events):
            raise Stale(f"refused: {events}")
        start = len(self.rows)
        self.rows.extend(events)
        self.transactions.append(list(events))
        return list(range(start + 1, start + 1 + len(events)))


def _callers(commit: GroupCommit, batches: list[list[str]]) -> list:
    results: list = [None] * len(batches)

    def call(i: int) -> None:
        try:
            results[i] = commit(batches[i])
        except Exception as e:  # noqa: BLE001
            results[i] = e

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(batches))]
    return results, threads


def _queue_behind_a_held_writer(store: FakeStore, commit: GroupCommit, batches: list[list[str]]):
    """The first batch's insert is held open while the others queue; then everything is released."""
    store.hold.clear()
    results, threads = _callers(commit, batches)
    threads[0].start()
    assert store.entered.wait(5)
    for t in threads[1:]:
        t.start()
    while len(commit._queue) < len(batches) - 1:  # every other caller has queued behind the writer
        threading.Event().wait(0.001)
    store.hold.set()
    for t in threads:
        t.join(5)
    return results


def test_callers_arriving_during_a_write_share_the_next_transaction_and_get_their_own_ids():
    store = FakeStore()
    commit = GroupCommit(store.insert)
    batches = [["a1"], ["b1", "b2"], ["c1"], ["d1", "d2", "d3"]]
    results = _queue_behind_a_held_writer(store, commit, batches)
    assert store.transactions[0] == ["a1"]
    assert len(store.transactions) == 2 and sorted(store.transactions[1]) == sorted(["b1", "b2", "c1", "d1", "d2", "d3"])
    for batch, ids in zip(batches, results):  # each caller's ids are the rows of its own events
        assert [store.rows[i - 1] for i in ids] == batch


def test_one_stale_caller_fails_alone_and_the_others_are_stored():
    store = FakeStore()
    commit = GroupCommit(store.insert)
    batches = [["a1"], ["b1"], ["stale-c1"], ["d1"]]
    results = _queue_behind_a_held_writer(store, commit, batches)
    assert isinstance(results[2], Stale)
    assert sorted(store.rows) == ["a1", "b1", "d1"]
    for i in (0, 1, 3):
        assert [store.rows[n - 1] for n in results[i]] == batches[i]


def test_a_lone_caller_writes_at_once_and_sees_its_error():
    store = FakeStore()
    commit = GroupCommit(store.insert)
    assert commit(["x"]) == [1]
    with pytest.raises(Stale):
        commit(["stale-y"])
    assert store.rows == ["x"]


def test_inserts_with_tracking_arguments_are_never_grouped():
    seen = []
    commit = GroupCommit(lambda events, **kw: seen.append((list(events), kw)) or None)
    commit(["x"], tracking="t")
    assert seen == [(["x"], {"tracking": "t"})]


def test_the_librarys_empty_tracking_argument_does_not_stop_grouping():
    store = FakeStore()
    commit = GroupCommit(store.insert)
    store.hold.clear()
    results: list = [None] * 3
    wrapped = [threading.Thread(target=lambda i=i: results.__setitem__(i, commit([f"{'abc'[i]}1"], tracking=None)))
               for i in range(3)]
    wrapped[0].start()
    assert store.entered.wait(5)
    for t in wrapped[1:]:
        t.start()
    while len(commit._queue) < 2:
        threading.Event().wait(0.001)
    store.hold.set()
    for t in wrapped:
        t.join(5)
    assert len(store.transactions) == 2 and sorted(store.transactions[1]) == ["b1", "c1"]


def test_a_write_lock_on_a_file_keeps_out_another_holder_until_released(tmp_path):
    from service.adapters.group_commit import WriteLock

    path = str(tmp_path / "db.write-lock")
    first, second = WriteLock(path), WriteLock(path)  # two opens of the file, as two processes have
    order: list[str] = []

    def other():
        with second():
            order.append("second")

    with first():
        t = threading.Thread(target=other)
        t.start()
        t.join(0.2)
        assert t.is_alive(), "the second holder got in while the first held the lock"
        order.append("first released")
    t.join(5)
    assert order == ["first released", "second"]


def test_many_threads_each_get_their_own_ids_and_every_event_is_stored_once():
    import random
    import time

    store = FakeStore()
    real = store.insert

    def slow_insert(events, **kwargs):  # a commit that takes a while, so that callers pile up behind it
        time.sleep(random.random() / 1000)
        return real(events, **kwargs)

    commit = GroupCommit(slow_insert)
    batches = [[f"t{i}-{k}" for k in range(1 + i % 3)] for i in range(200)]
    results, threads = _callers(commit, batches)
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(store.rows) == sorted(e for b in batches for e in b)
    for batch, ids in zip(batches, results):
        assert [store.rows[i - 1] for i in ids] == batch
    assert len(store.transactions) < 200  # some were shared
    assert not commit._queue and not commit._batches._writing


def test_a_write_that_cannot_start_fails_its_caller_and_leaves_nothing_queued():
    class Broken(Exception):
        pass

    def broken_lock():
        raise Broken("no lock")

    store = FakeStore()
    commit = GroupCommit(store.insert, broken_lock)
    with pytest.raises(Broken):
        commit(["x"])
    assert store.rows == [] and not commit._queue and not commit._batches._writing
