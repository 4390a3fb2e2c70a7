"""service.adapters.pg_recorder: the one-round-trip insert keeps the library's guarantees on PostgreSQL (table lock,
notification order, NOTIFY, the version check)."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from service.adapters.pg_recorder import LockedInsertRecorder


def _referee(stores):
    app = stores.referee(stores.url("postgres"))
    assert isinstance(app.recorder, LockedInsertRecorder)
    return app


def _events(originator_id, first: int, n: int) -> list[StoredEvent]:
    return [StoredEvent(originator_id=originator_id, originator_version=v, topic="test:Event",
                        state=f'{{"v": {v}}}'.encode()) for v in range(first, first + n)]


def _insert(app, events):
    """The recorder's own insert (the Referee wraps it in its group commit)."""
    return LockedInsertRecorder.insert_events(app.recorder, events)


def _connect(app):
    from service.adapters.stores import connect, persistence_env

    return connect(persistence_env(app.database_url))


def _table(app):
    from psycopg import sql

    return sql.SQL("{}.{}").format(sql.Identifier(app.recorder.datastore.schema),
                                   sql.Identifier(app.recorder.events_table_name))


def test_an_insert_stores_its_events_and_returns_their_notification_ids_in_order(stores):
    app = _referee(stores)
    for n in (1, 3, 8, 9, 40):  # up to 8: one parameter per value; more: four arrays
        gid = uuid.uuid4()
        ids = _insert(app, _events(gid, 1, n))
        assert len(ids) == n and ids == sorted(ids) and ids[-1] - ids[0] == n - 1
        stored = app.recorder.select_notifications(start=ids[0], limit=100)
        assert [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in stored] == \
            [(i, gid, v, "test:Event", f'{{"v": {v}}}'.encode()) for i, v in zip(ids, range(1, n + 1))]


def test_a_stale_version_fails_the_whole_insert_and_stores_none_of_it(stores):
    app = _referee(stores)
    gid = uuid.uuid4()
    _insert(app, _events(gid, 1, 2))
    with pytest.raises(IntegrityError):
        _insert(app, [*_events(uuid.uuid4(), 1, 1), *_events(gid, 2, 1)])  # version 2 is taken
    assert [e.originator_version for e in app.recorder.select_events(gid)] == [1, 2]
    assert len(app.recorder.select_notifications(start=None, limit=10)) == 2


def test_an_insert_waits_for_a_plain_inserter_so_it_takes_the_table_lock(stores):
    """A writer that only INSERTs holds ROW EXCLUSIVE, which does not block another INSERT; the EXCLUSIVE table
    lock does. So the insert must wait for the other transaction: proof that it locks the table before it draws
    notification ids (the order a follower of the notification log relies on)."""
    app = _referee(stores)
    _insert(app, _events(uuid.uuid4(), 1, 1))  # the function exists, the connection is warm
    done = threading.Event()
    with _connect(app) as other:
        other.autocommit = False
        other.execute("BEGIN")
        from psycopg import sql

        other.execute(sql.SQL("LOCK TABLE {} IN ROW EXCLUSIVE MODE").format(_table(app)))
        worker = threading.Thread(target=lambda: (_insert(app, _events(uuid.uuid4(), 1, 1)), done.set()))
        worker.start()
        try:
            assert not done.wait(0.5), "the insert did not wait for the table lock"
        finally:
            other.execute("ROLLBACK")
        worker.join(5)
    assert done.is_set()


def test_an_insert_notifies_the_library_channel_at_its_commit(stores):
    from psycopg import sql

    app = _referee(stores)
    with _connect(app) as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(app.recorder.channel_name)))
        _insert(app, _events(uuid.uuid4(), 1, 1))
        got = [n.channel for n in listener.notifies(timeout=5, stop_after=1)]
    assert got == [app.recorder.channel_name]


def test_a_follower_reading_during_concurrent_inserts_sees_every_notification_once_in_order(stores):
    """Six threads insert (each on its own pooled connection) while a follower reads after its position, as
    service.views.feed and service.play.clocks do: it must never pass over an id that commits later."""
    app = _referee(stores)
    per_thread, threads = 40, 6
    seen: list[int] = []
    stop = threading.Event()

    def follow():
        position = None
        while True:
            last = stop.is_set()
            batch = app.recorder.select_notifications(start=position, limit=100, inclusive_of_start=position is None)
            seen.extend(n.id for n in batch)
            if batch:
                position = batch[-1].id
            if last and not batch:
                return

    def write_distinct():  # one game per thread, inserts of 1 and 2 events in turn
        gid = uuid.uuid4()
        v = 1
        for i in range(per_thread):
            n = 1 + i % 2
            _insert(app, _events(gid, v, n))
            v += n

    follower = threading.Thread(target=follow)
    follower.start()
    writers = [threading.Thread(target=write_distinct) for _ in range(threads)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    stop.set()
    follower.join(30)
    stored = [n.id for n in app.recorder.select_notifications(start=None, limit=10_000)]
    assert len(stored) == threads * sum(1 + i % 2 for i in range(per_thread))
    assert seen == stored  # every id once, in order, none skipped


def test_select_events_gives_what_the_library_gives_for_every_shape_of_arguments(stores):
    from eventsourcing.postgres import PostgresApplicationRecorder

    app = _referee(stores)
    gid = uuid.uuid4()
    _insert(app, _events(gid, 1, 7))
    _insert(app, _events(uuid.uuid4(), 1, 3))
    for gt in (None, 0, 3, 7):
        for lte in (None, 2, 5, 9):
            for desc in (False, True):
                for limit in (None, 1, 4):
                    kw = dict(gt=gt, lte=lte, desc=desc, limit=limit)
                    mine = app.recorder.select_events(gid, **kw)
                    theirs = PostgresApplicationRecorder.select_events(app.recorder, gid, **kw)
                    assert mine == theirs, kw
                    assert all(isinstance(e.state, bytes) for e in mine)
    assert app.recorder.select_events(uuid.uuid4()) == []
