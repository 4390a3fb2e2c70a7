"""The game aggregate in durable stores: a SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import os
import uuid

import pytest
from eventsourcing.application import Application

from domain.game import Game
from domain.records import load
from tests.conftest import RECORDS

SAMPLE = RECORDS / "el-royale" / "random-04-5p-revised.json"


def sqlite_env(tmp_path) -> dict:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "games.db")}


def postgres_env() -> dict:
    url = os.environ.get("ARBITER_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("ARBITER_TEST_POSTGRES_URL is not set")
    from urllib.parse import urlparse

    u = urlparse(url)
    schema = f"arbiter_test_{uuid.uuid4().hex[:10]}"
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": u.path.lstrip("/"),
            "POSTGRES_HOST": u.hostname or "127.0.0.1", "POSTGRES_PORT": str(u.port or 5432),
            "POSTGRES_USER": u.username or "postgres", "POSTGRES_PASSWORD": u.password or "",
            "POSTGRES_SCHEMA": schema, "CREATE_TABLE": "y"}


def _drop_schema(env: dict) -> None:
    import psycopg

    with psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                         dbname=env["POSTGRES_DBNAME"], autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{env["POSTGRES_SCHEMA"]}" CASCADE')


def _create_schema(env: dict) -> None:
    import psycopg

    with psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                         dbname=env["POSTGRES_DBNAME"], autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{env["POSTGRES_SCHEMA"]}"')


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request, tmp_path):
    if request.param == "sqlite":
        yield sqlite_env(tmp_path)
        return
    env = postgres_env()
    _create_schema(env)
    try:
        yield env
    finally:
        _drop_schema(env)


def test_a_stored_game_reloads_to_the_same_state_and_record(store_env):
    """Every event survives the store: reloading in a new application gives the same state, moves and record."""
    record = load(str(SAMPLE))
    game = Game.start(record)
    for move in record.moves:
        game.play(move)
    app = Application(env=store_env)
    app.save(game)
    reader = Application(env=store_env)  # keep a reference: a collected application closes its pool
    again = reader.repository.get(game.id)
    assert again.state == game.state
    assert again.version == game.version
    assert again.to_record() == game.to_record()


def test_a_stored_game_loads_as_it_was_at_an_earlier_version(store_env):
    """Replay: the aggregate at version k is the fold of its first k events."""
    record = load(str(SAMPLE))
    game = Game.start(record)
    states = {game.version: game.state}
    for move in record.moves[:40]:
        game.play(move)
        states[game.version] = game.state
    app = Application(env=store_env)
    app.save(game)
    for version, state in list(states.items())[::7]:
        assert app.repository.get(game.id, version=version).state == state
