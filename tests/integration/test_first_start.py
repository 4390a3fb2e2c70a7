"""First start (issue 23): several processes, each with several threads, opening one NEW store at the same moment.

Every gunicorn worker builds its own Referee and, on its first requests, its own catalogue and standings read
models, all of which create their tables (and the tracking table's migration record) if missing. Here PROCESSES
spawned processes open fresh stores in ROUNDS rounds, in step (a barrier before the Referee, another before the
read models), THREADS threads a process opening the read models at once, each thread creating one game: nothing
may raise, and afterwards the catalogue holds every game created.

SQLite: files in the test's directory. PostgreSQL (when ARBITER_TEST_POSTGRES_URL is set): one new schema a round,
all dropped afterwards. On PostgreSQL, a creation that meets one from a session outside the schema's lock is run
again (service.adapters.store_tables.retried).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import uuid
from collections import Counter

import pytest

from service.adapters.catalogue_store import Catalogue
from service.adapters.standings_store import Standings
from service.play.referee import Referee
from tests.support import drop_store_schema

POSTGRES_ENV = "ARBITER_TEST_POSTGRES_URL"
PROCESSES = 4
THREADS = 3
ROUNDS = 5


def _postgres_base() -> str:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    return base


@pytest.fixture(params=["sqlite", "postgres"])
def fresh_urls(request, tmp_path):
    """ROUNDS URLs of stores that do not exist yet."""
    if request.param == "sqlite":
        yield [f"sqlite:///{tmp_path / f'round-{n}.db'}" for n in range(ROUNDS)]
        return
    base = _postgres_base()
    schemas = [f"arbiter_first_{uuid.uuid4().hex[:12]}" for _ in range(ROUNDS)]
    try:
        yield [f"{base}{'&' if '?' in base else '?'}schema={schema}" for schema in schemas]
    finally:
        import psycopg
        from psycopg import sql

        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            for schema in schemas:
                drop_store_schema(conn, schema)


def test_processes_and_threads_opening_a_new_store_at_once_all_succeed(fresh_urls):
    from tests.integration.first_start_worker import open_at_once

    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(PROCESSES), ctx.Queue()
    procs = [ctx.Process(target=open_at_once, args=(fresh_urls, THREADS, barrier, results, f"p{i}"))
             for i in range(PROCESSES)]
    for p in procs:
        p.start()
    reports = {}
    try:
        for _ in procs:
            name, errors = results.get(timeout=300)
            reports[name] = errors
    except queue.Empty:
        pass
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    assert len(reports) == PROCESSES, f"only {sorted(reports)} reported"
    failures = [e for errors in reports.values() for e in errors]
    kinds = Counter(e.strip().splitlines()[-1] for e in failures)
    assert not failures, f"{len(failures)} openings failed: {dict(kinds)}; the first:\n{failures[0]}"

    for url in fresh_urls:  # every game every thread created is in the catalogue, once
        app = Referee(url)
        try:
            catalogue = Catalogue.for_app(app)
            catalogue.catch_up()
            rows = catalogue.list(limit=1000)
            assert len(rows) == PROCESSES * THREADS, url
            assert len({r["id"] for r in rows}) == PROCESSES * THREADS
            Standings.for_app(app).catch_up()
        finally:
            app.close()


def test_a_creation_meeting_one_from_outside_the_lock_is_run_again_on_postgres():
    """A session that does not take the schema's lock (an older arbiter, another tool) creating the catalogue's tables
    at the same moment: ours waits on its uncommitted pg_type row, fails with a unique violation once it commits, and
    is run again, which finds the tables there. Made deterministic by holding the other session's transaction open
    until ours is seen waiting."""
    import psycopg
    from psycopg import sql

    from service.adapters.catalogue_store import CATALOGUE
    from service.adapters.view_stores import PostgresViewStore

    base = _postgres_base()
    schema = f"arbiter_first_{uuid.uuid4().hex[:12]}"
    app = Referee(f"{base}{'&' if '?' in base else '?'}schema={schema}")
    opened: dict = {}

    def open_catalogue() -> None:
        try:
            opened["catalogue"] = Catalogue.for_app(app)
        except Exception as e:  # noqa: BLE001 - the test reports whatever stopped it
            opened["error"] = e

    try:
        outsider = PostgresViewStore(app.recorder.datastore, CATALOGUE)
        dsn = base.split("?", 1)[0]
        with psycopg.connect(dsn) as holder, psycopg.connect(dsn, autocommit=True) as watch:
            for statement in outsider.sql_create_statements:
                holder.execute(statement)
            holder.execute(outsider.insert_tracking_statement, {"application_name": "__migration__", "notification_id": 1})
            opener = threading.Thread(target=open_catalogue)
            opener.start()
            waiting = 0
            for _ in range(100_000):
                waiting = watch.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                        "AND query LIKE 'CREATE TABLE%%'").fetchone()[0]
                if waiting or not opener.is_alive():
                    break
            holder.commit()
            opener.join(timeout=30)
        assert waiting == 1, "the catalogue's creation never waited on the other session's"
        assert "error" not in opened, repr(opened.get("error"))
        assert opened["catalogue"].list() == []
    finally:
        app.close()
        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            drop_store_schema(conn, schema)
