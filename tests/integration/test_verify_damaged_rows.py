"""`arbiter verify --all` never crashes on a damaged store: each damaged game is reported at its version, the others intact.

Each test stores three El Royale games (one finished, two in progress), damages one stored row of
the middle game behind the service's back (a SQLite file, a PostgreSQL schema), and runs
`arbiter verify --all --json` in process: one JSON line per game, the damaged one not ok with the
version and what is wrong, the untouched ones ok, exit 1, and no traceback. A row that decodes
but is damaged (a wrong type, a missing field) is named at its own version among the chain's
`problems`, even where the hash chain first breaks at the next event.
"""

from __future__ import annotations

import json
import re
from uuid import UUID

import pytest
from click.testing import CliRunner

from api.cli.main import main
from service.adapters.catalogue_store import TABLE as CATALOGUE_TABLE, Catalogue
from tests.integration.service_support import RawEvents, new_game, play, play_to_end

STORES = ["sqlite", "postgres"]


@pytest.fixture(params=STORES)
def store(request, stores):
    """(kind, url, [finished, damaged, other] game ids) of a store holding three games."""
    url = stores.url(request.param)
    app = stores.referee(url)
    finished = new_game(app, n=3, seed=None, options={"edition": "revised", "battle_limit": 3})
    play_to_end(app, finished)
    damaged = new_game(app, n=3, seed=None)
    play(app, damaged, 30)
    other = new_game(app, n=4, seed=None)
    play(app, other, 20)
    return request.param, url, [finished, damaged, other]


def verify_all(url: str) -> tuple[int, dict[str, dict]]:
    """`arbiter verify --all --json`: the exit code and each game's report by id (no traceback allowed)."""
    result = CliRunner().invoke(main, ["verify", "--all", "--json", "--database-url", url])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    reports = {r["id"]: r for r in map(json.loads, lines)}
    assert len(reports) == len(lines)
    return result.exit_code, reports


def assert_reported_at(url: str, ids: list[UUID], version: int | None, *words: str) -> dict:
    """Exit 1; the damaged game (ids[1]) is not ok and names `version` and `words`; the two others are ok."""
    code, reports = verify_all(url)
    assert code == 1
    assert set(reports) == {str(g) for g in ids}
    finished, damaged, other = (reports[str(g)] for g in ids)
    assert finished["ok"] is True and other["ok"] is True, (finished, other)
    assert damaged["ok"] is False
    problems = damaged["chain"]["problems"]
    found = [p for p in problems if p["version"] == version and all(w in p["problem"] for w in words)]
    assert found, problems
    return damaged


def happened_row(raw: RawEvents, gid: UUID, least: int = 10) -> int:
    """A version from `least` on whose row is a seat's move (a Game.Happened event with cards)."""
    for version in raw.versions(gid):
        if version >= least and raw.topic(gid, version).endswith("Game.Happened"):
            state = raw.json(gid, version)
            if state["actor"].startswith("seat:") and state["data"].get("cards"):
                return version
    raise AssertionError("no move with cards")


def edit(store, change) -> int:
    """Apply `change(state bytes) -> bytes` to a move row of the damaged game; returns its version."""
    kind, url, ids = store
    raw = RawEvents(kind, url)
    try:
        version = happened_row(raw, ids[1])
        raw.set_state(ids[1], version, change(raw.state(ids[1], version)))
        return version
    finally:
        raw.close()


def test_an_untouched_store_verifies_every_game_with_exit_0(store):
    _, url, ids = store
    code, reports = verify_all(url)
    assert code == 0 and all(r["ok"] for r in reports.values()) and len(reports) == 3


def test_a_flipped_byte_that_makes_a_row_invalid_json_is_reported_at_its_version(store):
    version = edit(store, lambda s: s.replace(b'"kind":"', b'"kind"\x00"', 1))
    damaged = assert_reported_at(store[1], store[2], version, f"stored event {version} cannot be read", "not valid JSON")
    assert damaged["chain"]["broken_at"] == version and damaged["engine"] is None


def test_a_cut_row_is_reported_at_its_version(store):
    version = edit(store, lambda s: s[: len(s) // 2])
    assert_reported_at(store[1], store[2], version, "cannot be read")


@pytest.mark.parametrize("field, change", [
    ("actor", lambda s: re.sub(rb'"actor":"seat:(\d)"', rb'"actor":\1', s, count=1)),
    ("data", lambda s: s.replace(b'"data":{', b'"data":[{', 1).replace(b'},"actor"', b'}],"actor"', 1)),
    ("kind", lambda s: re.sub(rb'"kind":"[a-z_]+"', b'"kind":null', s, count=1)),
])
def test_a_field_of_the_wrong_type_is_reported_at_its_version(store, field, change):
    version = edit(store, change)
    assert_reported_at(store[1], store[2], version, f"stored event {version} is damaged", f"field {field!r}")


def test_a_removed_field_is_reported_at_its_version(store):
    version = edit(store, lambda s: re.sub(rb'"clause":"[^"]*",', b"", s, count=1))
    assert_reported_at(store[1], store[2], version, f"stored event {version}", "field 'clause' is missing")


def test_a_card_that_is_no_card_is_reported_where_the_event_cannot_be_applied(store):
    version = edit(store, lambda s: re.sub(rb'"cards":\["[^"]+"', b'"cards":[12345', s, count=1))
    assert_reported_at(store[1], store[2], version, f"stored event {version} cannot be applied")


def test_an_event_of_an_unknown_topic_is_reported_at_its_version(store):
    kind, url, ids = store
    raw = RawEvents(kind, url)
    try:
        version = happened_row(raw, ids[1])
        placeholder = "?" if kind == "sqlite" else "%s"
        raw._conn.execute(f"UPDATE {raw.table} SET topic = {placeholder} WHERE originator_id = {placeholder} "
                          f"AND originator_version = {placeholder}", ("os:system", raw._id(ids[1]), version))
    finally:
        raw.close()
    assert_reported_at(url, ids, version, "not a known event")


def test_a_damaged_last_event_is_reported_though_the_chain_has_no_successor_to_break(store):
    kind, url, ids = store
    raw = RawEvents(kind, url)
    try:
        version = raw.versions(ids[1])[-1]
        state = raw.state(ids[1], version)
        raw.set_state(ids[1], version, re.sub(rb'"actor":"([a-z:0-9]+)"', rb'"actor":["\1"]', state, count=1))
    finally:
        raw.close()
    assert_reported_at(url, ids, version, "field 'actor'")


@pytest.mark.parametrize("kind", STORES)
def test_an_edited_or_unreadable_snapshot_is_reported_at_its_version(stores, kind):
    url = stores.url(kind)
    app = stores.referee(url)
    long_game = new_game(app, n=3)
    play(app, long_game, 200, max_version=130)
    intact = new_game(app, n=3, seed=None)
    play(app, intact, 10)
    snapshots = RawEvents(kind, url, table="snapshots")
    try:
        (version,) = snapshots.versions(long_game)
        doc = snapshots.json(long_game, version)
        hands = doc["state"]["state"]["_data_"]["hands"]
        hands[0], hands[1] = hands[1], hands[0]
        snapshots.set_state(long_game, version, json.dumps(doc, separators=(",", ":")).encode())
        code, reports = verify_all(url)
        assert code == 1 and reports[str(intact)]["ok"] is True
        problems = reports[str(long_game)]["chain"]["problems"]
        assert {"version": version, "problem": f"the snapshot at version {version} differs from the events it summarises"} in problems

        snapshots.set_state(long_game, version, b'{"state": ')
        code, reports = verify_all(url)
        assert code == 1 and reports[str(intact)]["ok"] is True
        assert any(p["version"] == version and "cannot be read" in p["problem"] for p in reports[str(long_game)]["chain"]["problems"])
    finally:
        snapshots.close()


def _catalogue_sql(kind: str, url: str, statement: str, *params):
    if kind == "sqlite":
        import sqlite3

        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            conn.execute(statement.replace("%s", "?").replace("{table}", CATALOGUE_TABLE), params)
    else:
        import psycopg
        from urllib.parse import parse_qs, urlparse

        schema = parse_qs(urlparse(url).query)["schema"][0]
        with psycopg.connect(url.split("?", 1)[0], autocommit=True) as conn:
            conn.execute(statement.replace("{table}", f'"{schema}".{CATALOGUE_TABLE}'), params)


@pytest.mark.parametrize("column, value", [("status", "finished"), ("version", 3), ("players", '[{"name": "Mallory"}]')])
def test_an_edited_catalogue_row_is_reported_for_its_game(stores, store, column, value):
    kind, url, ids = store
    Catalogue.for_app(stores.referee(url)).catch_up()  # as the lobby does on first use
    if column == "players" and kind == "postgres":
        _catalogue_sql(kind, url, f"UPDATE {{table}} SET {column} = %s::jsonb WHERE id = %s", value, str(ids[1]))
    else:
        _catalogue_sql(kind, url, f"UPDATE {{table}} SET {column} = %s WHERE id = %s", value, str(ids[1]))

    code, reports = verify_all(url)

    assert code == 1
    damaged = reports[str(ids[1])]
    assert damaged["ok"] is False and damaged["chain"]["ok"] is True
    assert damaged["catalogue"]["ok"] is False and column in damaged["catalogue"]["problem"], damaged["catalogue"]
    assert reports[str(ids[0])]["ok"] is True and reports[str(ids[2])]["ok"] is True


def test_a_damaged_row_neither_stops_the_catalogue_nor_hides_the_game_s_public_verification(store):
    """The lobby's catalogue skips a row it cannot decode; GET /audit/verify reports the damage (200), no 500."""
    from api import create_app
    from tests.integration.api_support import API, CheckedClient

    kind, url, ids = store
    version = edit(store, lambda s: s[: len(s) // 2])
    app = create_app({"DATABASE_URL": url})
    app.test_client_class = CheckedClient
    client = app.test_client()
    try:
        listed = client.get(f"{API}/games?limit=500")
        assert listed.status_code == 200 and {r["id"] for r in listed.get_json()} == {str(g) for g in ids}
        answer = client.get(f"{API}/games/{ids[1]}/audit/verify")
        assert answer.status_code == 200, answer.get_data(as_text=True)
        report = answer.get_json()
        assert report["ok"] is False and report["chain"]["broken_at"] == version
        assert client.get(f"{API}/games/{ids[0]}/audit/verify").get_json()["ok"] is True
    finally:
        app.extensions["arbiter"].app.close()


def test_a_damaged_game_answers_a_clear_problem_naming_the_damage_and_other_games_play_on(store):
    """Its view, page and moves get "Stored game damaged" pointing at `arbiter verify` (no traceback, no stored value);
    a move on it changes nothing, and the other games answer as before."""
    from api import create_app
    from tests.integration.api_support import API, PROBLEM, CheckedClient, bearer

    kind, url, ids = store
    edit(store, lambda s: s[: len(s) // 2])
    app = create_app({"DATABASE_URL": url})
    app.test_client_class = CheckedClient
    client = app.test_client()
    try:
        for path in (f"{API}/games/{ids[1]}", f"{API}/games/{ids[1]}/events"):
            answer = client.get(path)
            assert answer.status_code == 500 and answer.mimetype == PROBLEM, answer.get_data(as_text=True)
            problem = answer.get_json()
            assert problem["title"] == "Stored game damaged" and f"arbiter verify {ids[1]}" in problem["detail"]
        assert client.post(f"{API}/games/{ids[1]}/moves", json={"type": "pass"}, headers=bearer("x")).status_code in (401, 500)
        page = client.get(f"/games/{ids[1]}")
        assert page.status_code == 500 and "Stored game damaged" in page.get_data(as_text=True)
        assert client.get(f"{API}/games/{ids[2]}").status_code == 200
    finally:
        app.extensions["arbiter"].app.close()
