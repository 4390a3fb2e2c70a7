"""Stores for the service's integration tests: a fresh SQLite file or PostgreSQL schema per test, cleaned up after."""

from __future__ import annotations

import os
import uuid

import pytest

from service.play.referee import Referee

POSTGRES_ENV = "ARBITER_TEST_POSTGRES_URL"


class Stores:
    """Hands out database URLs and Referee applications; closes and drops them all at teardown."""

    def __init__(self, tmp_path):
        self._tmp = tmp_path
        self._apps: list[Referee] = []
        self._schemas: list[tuple[str, str]] = []

    def url(self, kind: str) -> str:
        """A fresh store of a kind: `memory`, `sqlite` (a file) or `postgres` (its own schema; skipped without a server)."""
        if kind == "memory":
            return "memory://"
        if kind == "sqlite":
            return f"sqlite:///{self._tmp / f'arbiter-{uuid.uuid4().hex[:8]}.db'}"
        if kind == "postgres":
            base = os.environ.get(POSTGRES_ENV)
            if not base:
                pytest.skip(f"{POSTGRES_ENV} is not set")
            schema = f"arbiter_test_{uuid.uuid4().hex[:12]}"
            self._schemas.append((base, schema))
            return f"{base}{'&' if '?' in base else '?'}schema={schema}"
        raise ValueError(kind)

    def referee(self, url: str) -> Referee:
        """A Referee on a URL, kept referenced (a collected application closes its pool) and closed at teardown."""
        app = Referee(url)
        self._apps.append(app)
        return app

    def close(self) -> None:
        for app in self._apps:
            app.close()
        if self._schemas:
            for base, schema in self._schemas:
                drop_schema(base, schema)


def drop_schema(base: str, schema: str) -> None:
    """Drop a test store's schema with its evidence schema and the evidence's writer role (service.evidence.pg_tables)."""
    import psycopg

    from tests.support import drop_store_schema

    with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
        drop_store_schema(conn, schema)


@pytest.fixture
def stores(tmp_path):
    s = Stores(tmp_path)
    try:
        yield s
    finally:
        s.close()


# ---------------------------------------------------------------- the HTTP API (tests/integration/test_api_*.py)


@pytest.fixture
def app():
    """The arbiter web app on a fresh in-memory store (contract §3: create_app(config))."""
    from api import create_app

    from .api_support import CheckedClient

    app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1, "ANALYSIS_WORKERS": 1})  # analysis in its thread
    app.test_client_class = CheckedClient
    return app


@pytest.fixture
def client(app):
    """A test client of `app` that fails on any response showing a traceback."""
    return app.test_client()


@pytest.fixture
def facades():
    """Arbiter facades on store URLs with their evidence beside them (tests.integration.evidence_support), closed after."""
    from tests.integration.evidence_support import Facades

    made = Facades()
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def feed_game(tmp_path):
    """(arbiter, game): a four-player El Royale game (revised) on a memory store, its process's live feed stopped at
    the end (the feed's tests: test_feed_holds.py, test_feed_rendering.py)."""
    from api import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": "memory://", "KEY_FILE": str(tmp_path / "key"),
                      "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    arbiter = app.extensions["arbiter"]
    players = [{"name": n} for n in ("North", "East", "South", "West")]
    created = app.test_client().post("/api/v1/games", json={"game": "el-royale", "options": {"edition": "revised"},
                                                             "players": players})
    assert created.status_code == 201, created.get_data(as_text=True)
    yield arbiter, created.get_json()
    if arbiter.views.feed is not None:
        arbiter.views.feed.stop()
