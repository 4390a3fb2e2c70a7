"""The generic read-model stores (service/adapters/view_stores.py) on memory://, a SQLite file and PostgreSQL, with a
toy table: a running total per key and two marks. The catalogue and the standings tests cover the real folds; these
hold the stores to one behaviour whatever the table.

PostgreSQL runs when ARBITER_TEST_POSTGRES_URL is set; each test gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid

import pytest
from eventsourcing.persistence import IntegrityError

from service.adapters.view_runner import store_for
from service.adapters.view_table import Column, ViewTable
from service.play.referee import Referee
from tests.support import drop_store_schema


class Poison(Exception):
    pass


def fold(batch, load, before_each):
    """(key, amount) events add to the key's total; ("boom", 0) fails the fold."""
    rows = {}
    for nid, (key, amount) in batch:
        before_each(nid)
        if key == "boom":
            raise Poison(nid)
        old = rows[key] if key in rows else load(key)
        rows[key] = {"key": key, "seq": nid if old is None else old["seq"], "total": amount + (old or {"total": 0})["total"],
                     "parts": [*(old or {"parts": []})["parts"], amount]}
    return rows


TOY = ViewTable(
    table="toy_totals", fold=fold,
    columns=(Column("key", "text"), Column("seq", "int"), Column("total", "int"), Column("parts", "json")),
    marks=(Column("flag", "bool", default=False), Column("note", "json", null=True)),
    indexes=(("total_idx", "total"),),
    to_stored=lambda key, row: {c: row[c] for c in ("key", "seq", "total", "parts")}, from_stored=dict)


class ByTotal:
    def sql(self, mark):
        return f" WHERE total >= {mark} ORDER BY total DESC", [2]

    def matches(self, stored):
        return stored["total"] >= 2

    def sort(self, rows):
        return sorted(rows, key=lambda r: -r["total"])


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request, tmp_path):
    if request.param != "postgres":  # the application is kept: a collected one closes its connection pool
        app = Referee("memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'toy.db'}")
        yield store_for(app, TOY)
        return
    import psycopg
    from psycopg import sql

    base = os.environ.get("ARBITER_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("ARBITER_TEST_POSTGRES_URL is not set")
    schema = f"arbiter_test_{uuid.uuid4().hex[:12]}"
    app = Referee(f"{base}{'&' if '?' in base else '?'}schema={schema}")
    try:
        yield store_for(app, TOY)
    finally:
        app.close()
        with psycopg.connect(base, autocommit=True) as conn:
            drop_store_schema(conn, schema)


def test_rows_round_trip_and_a_mark_survives_the_fold_rewriting_its_row(store):
    store.apply("t", [(1, ("a", 1)), (2, ("b", 3))])
    assert store.update("a", {"flag": True, "note": {"why": ["x"]}})
    assert not store.update("missing", {"flag": True})
    store.apply("t", [(3, ("a", 4))])

    assert store.get("a") == {"key": "a", "seq": 1, "total": 5, "parts": [1, 4], "flag": True, "note": {"why": ["x"]}}
    assert store.get("b") == {"key": "b", "seq": 2, "total": 3, "parts": [3], "flag": False, "note": None}
    assert store.get("missing") is None
    assert set(store.get_many(["a", "b", "missing"])) == {"a", "b"}
    assert [r["key"] for r in store.select(ByTotal())] == ["a", "b"]
    assert [r["key"] for r in store.select(ByTotal(), limit=1, offset=1)] == ["b"]
    store.update_many([("a", {"flag": False}), ("b", {"note": [1]})])
    assert (store.get("a")["flag"], store.get("b")["note"]) == (False, [1])
    assert store.max_tracking_id("t") == 3


def test_a_batch_whose_fold_fails_changes_neither_rows_nor_position(store):
    store.apply("t", [(1, ("a", 1))])
    with pytest.raises(Poison):
        store.apply("t", [(2, ("a", 10)), (3, ("boom", 0))])
    assert store.max_tracking_id("t") == 1
    assert store.get("a")["total"] == 1


def test_a_tracked_notification_is_refused_and_the_batch_rolled_back(store):
    store.apply("t", [(1, ("a", 1)), (2, ("a", 1))])
    with pytest.raises(IntegrityError):
        store.apply("t", [(3, ("b", 1)), (2, ("a", 1))])
    assert store.get("b") is None and store.get("a")["total"] == 2
    assert store.max_tracking_id("t") == 2
