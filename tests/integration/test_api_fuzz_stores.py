"""schemathesis against the API on a SQLite file and on PostgreSQL, where a number out of range reaches a database driver.

The in-memory run (test_api_schema.py) cannot see an integer that overflows SQLite's or PostgreSQL's
integer columns (`offset`, `after`, `version` of 2^63 used to be 500s; so was a U+0000 in a player
name or a query on PostgreSQL). `make test` runs 50 examples per operation (about 650 requests, some
25 seconds a store); `make fuzz` runs ARBITER_FUZZ_EXAMPLES=500 with fresh random cases. PostgreSQL
runs when ARBITER_TEST_POSTGRES_URL is set (its own schema, dropped at exit).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid

import pytest
from hypothesis import HealthCheck, settings

from .conftest import POSTGRES_ENV
from .fuzz_support import FuzzTarget, examples
from tests.support import drop_store_schema

FUZZ = settings(max_examples=examples(50), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _sqlite_url() -> str:
    folder = tempfile.mkdtemp(prefix="arbiter-fuzz-")
    atexit.register(shutil.rmtree, folder, True)
    return f"sqlite:///{folder}/fuzz.db"


def _postgres_url(base: str) -> str:
    schema = f"arbiter_fuzz_{uuid.uuid4().hex[:12]}"

    def drop() -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            drop_store_schema(conn, schema)

    atexit.register(drop)
    return f"{base}{'&' if '?' in base else '?'}schema={schema}"


SQLITE = FuzzTarget(_sqlite_url())


@SQLITE.schema.parametrize()
@FUZZ
def test_every_operation_on_a_sqlite_file_answers_as_documented(case):
    case.call_and_validate()


if os.environ.get(POSTGRES_ENV):
    POSTGRES = FuzzTarget(_postgres_url(os.environ[POSTGRES_ENV]))

    @POSTGRES.schema.parametrize()
    @FUZZ
    def test_every_operation_on_postgresql_answers_as_documented(case):
        case.call_and_validate()
else:
    def test_every_operation_on_postgresql_answers_as_documented():
        pytest.skip(f"{POSTGRES_ENV} is not set")
