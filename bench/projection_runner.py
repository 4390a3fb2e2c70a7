"""Does the library's ProjectionRunner fit arbiter's read models? The measurements behind service/adapters/view_runner.py.

    python -m bench.projection_runner [--games N] [--reads N] [--postgres URL]

For each store (memory://, a SQLite file, PostgreSQL in a fresh schema of the ``test`` database, dropped at the end)
it asks what a read model on ``eventsourcing.projection.ProjectionRunner`` would meet:

- ``subscribes``   whether the store's recorder can be subscribed to at all (the runner follows a subscription);
- ``runner sees``  how many of the N games a runner's own application object finds (the runner builds its own
                   application from the environment; it cannot be handed the serving one);
and, where the runner can run (PostgreSQL):

- ``read-your-writes``  a game is created, then the lobby is read: the time until the catalogue has that game,
                        with the runner (``runner.wait(notification id)``, the library's way) and with arbiter's
                        catch-up on read (``ViewRunner.catch_up()`` in the reading thread); median and worst of N;
- ``rebuild``      the time to fold every stored event into an empty catalogue: the runner (one transaction per
                   event) against the catch-up (one transaction per batch of 200);
- ``two workers``  two runners on one view, as two gunicorn workers would each start one: how many are still
                   running after one more game (single-row tracking: the slower one fails its tracking insert);
- ``connections``  PostgreSQL sessions the runner opens besides the serving application's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from dataclasses import replace
from pathlib import Path

from eventsourcing.projection import Projection, ProjectionRunner
from service.play.new_games import CreateGame

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def _create(facade, i: int) -> None:
    facade.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"},
                        "players": [{"name": n} for n in NAMES[: 2 + i % 4]], "seed": f"{i:08x}"}))


def _classes(url: str, table: str):
    """A runner application bound to `url`, and a Projection writing the catalogue's fold into `table`."""
    from service.adapters.catalogue_store import CATALOGUE
    from service.adapters.view_stores import PostgresViewStore
    from service.play.referee import Referee

    class RunnerApp(Referee):  # the runner calls application_class(env): the URL must come from elsewhere
        name = Referee.name  # else the library names it after the class, and reads another events table

        def __init__(self, env=None):
            super().__init__(url)

    class RunnerView(PostgresViewStore):
        def __init__(self, datastore, tracking_table_name: str):
            super().__init__(datastore, replace(CATALOGUE, table=table))

    class CatalogueProjection(Projection[RunnerView]):
        name = table

        def process_event(self, domain_event, tracking) -> None:
            self.view.apply(tracking.application_name, [(tracking.notification_id, domain_event)])

    return RunnerApp, RunnerView, CatalogueProjection


def _sessions(url: str) -> int:
    import psycopg

    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()").fetchone()[0]


def postgres(base: str, games: int, reads: int) -> dict:
    import psycopg
    from psycopg import sql

    from service.adapters.catalogue_store import Catalogue
    from service.adapters.stores import persistence_env
    from service.facade import Arbiter

    schema = f"arbiter_bench_runner_{uuid.uuid4().hex[:10]}"
    url = f"{base}{'&' if '?' in base else '?'}schema={schema}"
    out: dict = {}
    try:
        facade = Arbiter(url)
        out["subscribes"] = _subscribes(facade.app)
        for i in range(games):
            _create(facade, i)
        env = persistence_env(url)
        RunnerApp, RunnerView, Probe = _classes(url, "probe_catalogue")
        last = facade.app.recorder.max_notification_id()
        before = _sessions(url)
        started = time.perf_counter()
        runner = ProjectionRunner(application_class=RunnerApp, projection_class=Probe, view_class=RunnerView, env=env)
        runner.wait(last, timeout=600)
        out["rebuild_runner_s"] = round(time.perf_counter() - started, 2)
        out["runner_extra_sessions"] = _sessions(url) - before
        with psycopg.connect(base.split("?")[0], autocommit=True) as conn:
            rows = conn.execute(sql.SQL("SELECT count(*) FROM {}.probe_catalogue").format(sql.Identifier(schema))).fetchone()[0]
        out["runner sees"] = f"{rows} of {games} games"
        catalogue = Catalogue.for_app(facade.app)
        started = time.perf_counter()
        catalogue.catch_up()
        out["rebuild_catch_up_s"] = round(time.perf_counter() - started, 2)
        out["notifications"] = last
        waits, catch_ups = [], []
        for i in range(reads):
            _create(facade, games + 2 * i)
            nid = facade.app.recorder.max_notification_id()
            started = time.perf_counter()
            runner.wait(nid, timeout=10)
            waits.append((time.perf_counter() - started) * 1000)
            _create(facade, games + 2 * i + 1)
            started = time.perf_counter()
            catalogue.catch_up()
            catch_ups.append((time.perf_counter() - started) * 1000)
        out["read_your_writes_runner_ms"] = (round(statistics.median(waits), 1), round(max(waits), 1))
        out["read_your_writes_catch_up_ms"] = (round(statistics.median(catch_ups), 1), round(max(catch_ups), 1))
        second = ProjectionRunner(application_class=RunnerApp, projection_class=Probe, view_class=RunnerView, env=env)
        _create(facade, games + 2 * reads)
        time.sleep(2)
        alive = [r for r in (runner, second) if not r.is_interrupted.is_set()]
        errors = [type(r._thread_error).__name__ for r in (runner, second) if r._thread_error is not None]
        out["two workers"] = f"{len(alive)} of 2 running" + (f" ({', '.join(errors)})" if errors else "")
        for r in (runner, second):
            try:
                r.__exit__(None, None, None)
            except Exception:
                pass
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    return out


def _subscribes(app) -> str:
    try:
        app.recorder.subscribe(gt=None).stop()
        return "yes"
    except NotImplementedError as e:
        return f"no ({e})"


def local(url: str, games: int) -> dict:
    """memory:// and SQLite: can a runner follow the serving application at all?"""
    from service.facade import Arbiter
    from service.play.referee import Referee

    facade = Arbiter(url)
    for i in range(games):
        _create(facade, i)
    own = Referee(url)  # what ProjectionRunner does: its own application object from the environment
    return {"subscribes": _subscribes(facade.app),
            "runner sees": f"{len(own.recorder.select_notifications(start=None, limit=10**6))} of "
                           f"{facade.app.recorder.max_notification_id()} notifications"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    print("memory://", local("memory://", 5))
    with tempfile.TemporaryDirectory() as tmp:
        print("sqlite   ", local(f"sqlite:///{Path(tmp) / 'runner.db'}", 5))
    with tempfile.TemporaryDirectory() as state:
        os.environ["ARBITER_STATE_DIR"] = state  # where the PostgreSQL store's signing key is written
        print("postgres ", postgres(args.postgres, args.games, args.reads))


if __name__ == "__main__":
    main()
