"""The game catalogue read model (projections/catalogue.py) on memory://, a SQLite file and PostgreSQL.

PostgreSQL runs when ARBITER_TEST_POSTGRES_URL is set (e.g. postgresql://postgres@127.0.0.1:5432/test);
each test gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError

from domain.cards import format_cards
from domain.el_royale import legal_moves
from service.play.referee import Referee
from service.adapters.catalogue_store import Catalogue
from tests.conftest import RECORDS
from service.play.new_games import CreateGame

ROOT = Path(__file__).resolve().parents[2]
WIN_RECORD = RECORDS / "el-royale" / "example1-00-classic.json"  # a stacked deck: seat 2 wins in 5 moves


def _postgres_url() -> str:
    url = os.environ.get("ARBITER_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("ARBITER_TEST_POSTGRES_URL is not set")
    return url


def _drop_schema(url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request, tmp_path):
    """A database URL; memory:// is one store per Referee object, the others are shared by URL."""
    if request.param == "memory":
        yield "memory://"
    elif request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'arbiter.db'}"
    else:
        base = _postgres_url()
        schema = f"arbiter_test_{uuid.uuid4().hex[:12]}"
        try:
            yield f"{base}{'&' if '?' in base else '?'}schema={schema}"
        finally:
            _drop_schema(base, schema)


@pytest.fixture(params=["sqlite", "postgres"])
def durable_store(request, tmp_path):
    """A store that outlives its Referee object (for restarts and other processes)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'arbiter.db'}"
        return
    base = _postgres_url()
    schema = f"arbiter_test_{uuid.uuid4().hex[:12]}"
    try:
        yield f"{base}{'&' if '?' in base else '?'}schema={schema}"
    finally:
        _drop_schema(base, schema)


# -- helpers -------------------------------------------------------------------------------------


def new_game(app: Referee, edition: str = "revised", players=("Ann", "Bob", "Cy"), **extra) -> str:
    spec = {"game": "el-royale", "options": {"edition": edition}, "players": [{"name": n} for n in players], **extra}
    return app.create_game(CreateGame.from_body(spec))["id"]


def play(app: Referee, game_id: str, moves: int, rng: random.Random) -> int:
    """Play up to `moves` legal moves chosen by `rng`; returns how many were played."""
    gid = uuid.UUID(game_id)
    for i in range(moves):
        options = list(legal_moves(app.game(gid).state))
        if not options:
            return i
        move = rng.choice(options)
        raw = {"type": move["type"]}
        if "cards" in move:
            raw["cards"] = format_cards(move["cards"])
        app.submit_move(gid, move["seat"], raw)
    return moves


def won_game(app: Referee) -> str:
    """The stacked-deck record: 3 players, classic, seat 2 wins by its 5th move."""
    doc = json.loads(WIN_RECORD.read_text())
    spec = {k: doc[k] for k in ("game", "options", "players", "seed", "deck", "dealer", "starter")}
    game_id = app.create_game(CreateGame.from_body(spec))["id"]
    for move in doc["moves"]:
        move = dict(move)
        app.submit_move(uuid.UUID(game_id), move.pop("seat"), move)
    return game_id


def last_notification_id(app: Referee) -> int:
    return app.recorder.max_notification_id() or 0


def assert_row_matches_game(catalogue: Catalogue, app: Referee, game_id: str) -> dict:
    row = catalogue.get(game_id)
    game = app.game(uuid.UUID(game_id))
    assert row is not None
    assert row["id"] == game_id
    assert row["version"] == game.version
    assert row["chain_head"] == game.chain_head
    outcome = game.outcome
    assert row["status"] == ("finished" if outcome.is_over else "in_progress")
    assert row["result"] == outcome.result
    assert row["winner"] == outcome.winner_json()
    return row


# -- rows ----------------------------------------------------------------------------------------


def test_created_and_played_games_appear_with_status_version_and_chain_head(store):
    app = Referee(store)
    catalogue = Catalogue.for_app(app)
    assert catalogue.position() == 0
    assert catalogue.catch_up() == 0
    assert catalogue.list() == []

    rng = random.Random(7)
    first = new_game(app, "revised", ("Ann", "Bob"))
    second = new_game(app, "classic", ("Ann", "Bob", "Cy", "Di"))
    play(app, first, 6, rng)
    play(app, second, 3, rng)

    assert catalogue.get(first) is None  # nothing until it catches up
    applied = catalogue.catch_up()
    assert applied == last_notification_id(app)
    assert catalogue.position() == last_notification_id(app)

    row = assert_row_matches_game(catalogue, app, first)
    assert row["game"] == "el-royale"
    assert row["options"] == {"edition": "revised"}
    assert row["players"] == [{"name": "Ann"}, {"name": "Bob"}]
    assert row["stacked"] is False
    assert row["status"] == "in_progress" and row["result"] is None and row["winner"] is None
    assert row["finished_at"] is None
    created = datetime.fromisoformat(row["created_at"])
    assert created.utcoffset().total_seconds() == 0
    assert abs((datetime.now(timezone.utc) - created).total_seconds()) < 600
    second_row = assert_row_matches_game(catalogue, app, second)
    assert second_row["options"] == {"edition": "classic"} and len(second_row["players"]) == 4

    assert [r["id"] for r in catalogue.list()] == [first, second]  # creation order
    assert [r["id"] for r in catalogue.list(status="in_progress", game="el-royale")] == [first, second]
    assert catalogue.list(status="finished") == []
    assert catalogue.list(game="batallion") == []
    assert [r["id"] for r in catalogue.list(limit=1, offset=1)] == [second]
    assert catalogue.get(str(uuid.uuid4())) is None
    assert catalogue.get("not-a-uuid") is None

    # More moves: only the new notifications are applied, and the row follows the game.
    before = catalogue.position()
    play(app, first, 3, rng)
    assert catalogue.catch_up() == last_notification_id(app) - before
    assert_row_matches_game(catalogue, app, first)


def test_a_won_game_shows_finished_win_winner_and_finished_at(store):
    app = Referee(store)
    catalogue = Catalogue.for_app(app)
    playing = new_game(app)
    game_id = won_game(app)
    catalogue.catch_up()

    row = assert_row_matches_game(catalogue, app, game_id)
    assert row["status"] == "finished"
    assert row["result"] == "win"
    assert row["winner"] == {"seats": [2], "team": None}
    assert row["stacked"] is True
    assert row["options"] == {"edition": "classic"}
    assert row["players"] == [{"name": "P0"}, {"name": "P1"}, {"name": "P2"}]
    assert row["version"] == 12  # ... won, then SeedRevealed
    finished = datetime.fromisoformat(row["finished_at"])
    assert finished.utcoffset().total_seconds() == 0
    assert finished >= datetime.fromisoformat(row["created_at"])

    assert [r["id"] for r in catalogue.list(status="finished")] == [game_id]
    assert [r["id"] for r in catalogue.list(status="in_progress")] == [playing]


def test_a_rewind_puts_a_finished_game_back_in_progress(store):
    app = Referee(store)
    catalogue = Catalogue.for_app(app)
    game_id = won_game(app)
    catalogue.catch_up()
    assert catalogue.get(game_id)["status"] == "finished"

    gid = uuid.UUID(game_id)
    winning_move = app.game(gid).move_versions[-1]
    number = app.file_dispute(gid, 1, winning_move, "seat 2 never had four nines")["number"]
    app.rule_dispute(gid, number, "upheld", "rewind", "replay from before the attack")
    catalogue.catch_up()

    row = assert_row_matches_game(catalogue, app, game_id)
    assert row["status"] == "in_progress"
    assert row["result"] is None and row["winner"] is None and row["finished_at"] is None


def test_list_rejects_bad_arguments(store):
    catalogue = Catalogue.for_app(Referee(store))
    with pytest.raises(ValueError):
        catalogue.list(status="over")
    with pytest.raises(ValueError):
        catalogue.list(limit=-1)
    with pytest.raises(ValueError):
        catalogue.catch_up(limit=-1)


# -- tracking ------------------------------------------------------------------------------------


def test_catch_up_twice_and_from_two_catalogues_applies_each_notification_once(store):
    app = Referee(store)
    one, two = Catalogue.for_app(app), Catalogue.for_app(app)
    game_id = new_game(app)
    play(app, game_id, 4, random.Random(1))
    total = last_notification_id(app)

    assert one.catch_up() == total
    assert one.catch_up() == 0
    assert two.catch_up() == 0  # the same view and position: nothing left for the second object
    assert two.position() == one.position() == total
    assert two.get(game_id) == one.get(game_id)
    assert len(two.list()) == 1


def test_catch_up_with_a_limit_goes_step_by_step(store):
    app = Referee(store)
    catalogue = Catalogue.for_app(app)
    game_id = new_game(app)
    play(app, game_id, 2, random.Random(2))
    total = last_notification_id(app)

    assert catalogue.catch_up(limit=0) == 0
    assert catalogue.catch_up(limit=2) == 2
    assert catalogue.position() == 2
    assert catalogue.get(game_id)["version"] == 2
    assert catalogue.catch_up(limit=1) == 1
    assert catalogue.catch_up() == total - 3
    assert_row_matches_game(catalogue, app, game_id)


def test_an_already_tracked_notification_is_refused_and_changes_nothing(store):
    app = Referee(store)
    catalogue = Catalogue.for_app(app)
    game_id = new_game(app)
    catalogue.catch_up()
    row, position = catalogue.get(game_id), catalogue.position()

    # Re-apply the Created event (as a brand-new game id, so the row fold itself would accept it).
    notification = app.recorder.select_notifications(start=1, limit=1)[0]
    event = app.mapper.to_domain_event(notification)
    object.__setattr__(event, "originator_id", uuid.uuid4())
    with pytest.raises(IntegrityError):
        catalogue.view.apply(catalogue.tracking_name, [(notification.id, event)])
    assert catalogue.position() == position
    assert catalogue.get(str(event.originator_id)) is None
    assert catalogue.get(game_id) == row
    assert len(catalogue.list()) == 1


def test_a_catch_up_that_loses_the_race_skips_what_the_winner_applied(store):
    """A stale position (another catch-up committed in between) makes the batch fail on tracking: it is skipped."""
    app = Referee(store)
    slow, fast = Catalogue.for_app(app), Catalogue.for_app(app)
    new_game(app)
    total = last_notification_id(app)

    real_position = slow.position
    calls = []

    def stale_position() -> int:
        calls.append(1)
        if len(calls) == 1:
            assert fast.catch_up() == total  # the winner commits after `slow` read its position
            return 0
        return real_position()

    slow.position = stale_position
    assert slow.catch_up() == 0
    assert real_position() == total
    assert len(slow.list()) == 1


def test_concurrent_catch_ups_in_threads_apply_everything_exactly_once(store):
    app = Referee(store)
    rng = random.Random(3)
    games = [new_game(app) for _ in range(3)]
    for game_id in games:
        play(app, game_id, 5, rng)
    total = last_notification_id(app)

    catalogues = [Catalogue.for_app(app) for _ in range(4)]
    counts: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(catalogues))

    def run(catalogue: Catalogue) -> None:
        try:
            barrier.wait()
            n = 0
            while True:
                step = catalogue.catch_up(limit=3)
                n += step
                if step == 0 and catalogue.position() == total:
                    break
            counts.append(n)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(c,)) for c in catalogues]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sum(counts) == total
    assert catalogues[0].position() == total
    for game_id in games:
        assert_row_matches_game(catalogues[0], app, game_id)


# -- restarts and other processes ----------------------------------------------------------------


def test_after_a_restart_only_new_notifications_are_processed(durable_store):
    app = Referee(durable_store)
    catalogue = Catalogue.for_app(app)
    rng = random.Random(4)
    first = new_game(app)
    play(app, first, 4, rng)
    assert catalogue.catch_up() == last_notification_id(app)
    position = catalogue.position()
    del catalogue, app  # the "process" ends

    app = Referee(durable_store)
    catalogue = Catalogue.for_app(app)
    assert catalogue.position() == position  # the position persisted with the rows
    assert catalogue.get(first)["version"] == app.game(uuid.UUID(first)).version
    assert catalogue.catch_up() == 0

    second = won_game(app)
    play(app, first, 2, rng)
    assert catalogue.catch_up() == last_notification_id(app) - position
    assert_row_matches_game(catalogue, app, first)
    assert catalogue.get(second)["status"] == "finished"
    assert [r["id"] for r in catalogue.list()] == [first, second]


def test_a_catalogue_in_a_new_table_starts_from_the_first_notification_beside_the_old_one(durable_store):
    """The tracking key names the table: a renamed table (a new layout) is rebuilt from the events, even where read
    models share one tracking table (SQLite), and the old table's position does not move."""
    app = Referee(durable_store)
    old = Catalogue.for_app(app)
    first = new_game(app)
    play(app, first, 3, random.Random(5))
    old.catch_up()
    position = old.position()

    renamed = Catalogue.for_app(app, table="game_catalogue_renamed")
    assert renamed.position() == 0
    assert renamed.catch_up() == position
    assert renamed.list() == old.list() and len(old.list()) == 1
    assert old.position() == position


_WORKER = """
import sys
from service.play.referee import Referee
from service.adapters.catalogue_store import Catalogue
catalogue = Catalogue.for_app(Referee(sys.argv[1]))
total = 0
while True:
    n = catalogue.catch_up(limit=int(sys.argv[2]))
    total += n
    if n == 0 and catalogue.position() >= int(sys.argv[3]):
        break
print(total)
"""


def test_catch_ups_in_several_processes_apply_everything_exactly_once(durable_store):
    app = Referee(durable_store)
    rng = random.Random(5)
    games = [new_game(app) for _ in range(4)]
    for game_id in games:
        play(app, game_id, 6, rng)
    won = won_game(app)
    total = last_notification_id(app)
    Catalogue.for_app(app)  # create the tables once: concurrent first-time creation is not what this tests

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    workers = [subprocess.Popen([sys.executable, "-c", _WORKER, durable_store, "2", str(total)], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [w.communicate(timeout=120) for w in workers]
    for w, (out, err) in zip(workers, outputs):
        assert w.returncode == 0, err
    assert sum(int(out) for out, _ in outputs) == total

    catalogue = Catalogue.for_app(app)
    assert catalogue.position() == total
    for game_id in games + [won]:
        assert_row_matches_game(catalogue, app, game_id)
