"""An imported game is marked in the catalogue (`imported`), on the desk and the lobby and in GET /games; a created
game never is, whatever its set-up (a fixed deck, fixed shuffles, a seed). The mark is the Created event's
`imported`, set by the import paths only (Referee.import_record, `arbiter import`'s bulk writer).

On memory://, a SQLite file and PostgreSQL (tests/integration/conftest.py: skipped without ARBITER_TEST_POSTGRES_URL).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from uuid import UUID

import pytest

from service.adapters.catalogue_store import CATALOGUE, Catalogue
from service.facade import Arbiter
from service.offline.bulk_import import import_files
from tests.integration.service_support import pick, raw_move
from service.play.commands import PlayMove
from service.play.new_games import CreateGame, ImportRecord

RECORD = "tests/records/el-royale/example1-00-classic.json"  # a stacked deck and a seed: a set-up like a record's


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def facade(request, stores, tmp_path):
    arbiter = Arbiter(stores.url(request.param), key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))
    stores._apps.append(arbiter.app)  # closed at teardown
    return arbiter


@pytest.fixture(params=["sqlite", "postgres"])
def durable(request, stores, tmp_path):
    return stores.url(request.param)


def played(facade: Arbiter, moves: int = 4) -> dict:
    created = facade.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"},
                                  "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}))
    rng = random.Random(11)
    for _ in range(moves):
        move = pick(facade.app.game(UUID(created["id"])), rng)
        facade.play.move(created["seats"][move["seat"]]["token"], PlayMove.from_body(created["id"], raw_move(move)))
    return created


def test_an_uploaded_record_is_marked_imported_and_the_game_it_came_from_is_not(facade):
    original = played(facade)
    record = facade.views.record(original["id"], original["referee_token"])
    copy = facade.play.import_record(ImportRecord.from_body(record))
    rows = {r["id"]: r for r in facade.lobby.catalogue()}
    assert rows[copy["id"]]["imported"] is True
    assert rows[original["id"]]["imported"] is False
    # the same game otherwise: what made the desk show two identical rows
    same = ("game", "options", "players", "status", "version")
    assert {k: rows[copy["id"]][k] for k in same} == {k: rows[original["id"]][k] for k in same}


def test_a_created_game_with_a_fixed_deck_shuffles_and_seed_is_not_imported(facade):
    doc = json.loads(open(RECORD).read())
    spec = {k: doc[k] for k in ("game", "options", "players", "seed", "deck", "dealer", "starter")}
    stacked = facade.play.create_game(CreateGame.from_body(spec))
    shuffles = facade.play.create_game(CreateGame.from_body({**spec, "deck": None, "outcomes": {"deal": doc["deck"]}}))
    imported = facade.play.import_record(ImportRecord.from_body(doc))
    rows = {r["id"]: r for r in facade.lobby.catalogue()}
    assert rows[stacked["id"]]["stacked"] is True and rows[stacked["id"]]["imported"] is False
    assert rows[shuffles["id"]]["imported"] is False
    assert rows[imported["id"]]["imported"] is True


def test_arbiter_imports_bulk_rows_are_marked_imported_and_verify_with_their_catalogue_row(facade, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(open(RECORD).read())
    [line] = list(import_files(facade, [str(path)]))
    created = played(facade, 1)
    rows = {r["id"]: r for r in facade.lobby.catalogue()}
    assert rows[str(line["id"])]["imported"] is True and rows[created["id"]]["imported"] is False
    for gid in (line["id"], created["id"]):
        report = facade.verification.verify(gid, full=True)
        assert report["catalogue"]["ok"] is True and report["ok"] is True, report


def test_a_catalogue_row_whose_imported_mark_is_wrong_fails_the_catalogue_check(facade):
    from service.verification.report import catalogue_report

    for made in (facade.play.import_record(ImportRecord.from_body(json.loads(open(RECORD).read()))), played(facade, 1)):
        row = facade.lobby.caught_up().get(made["id"])
        events = list(facade.app.read_events(UUID(made["id"])))
        assert catalogue_report(row, events)["ok"] is True
        wrong = catalogue_report({**row, "imported": not row["imported"]}, events)
        assert wrong["ok"] is False and "column imported" in wrong["problem"]


def test_the_catalogue_of_a_store_made_before_the_mark_is_rebuilt_in_a_new_table_beside_the_old_one(durable, stores, tmp_path):
    """A store whose catalogue is the third layout (no `imported`) at its position: the fourth is folded from the
    first notification, an imported game marked; the old table keeps its rows and its position."""
    arbiter = Arbiter(durable, key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))
    stores._apps.append(arbiter.app)
    original = played(arbiter, 2)
    copy = arbiter.play.import_record(ImportRecord.from_body(arbiter.views.record(original["id"], original["referee_token"])))

    def stored3(key, row):
        return {c.name: row[c.name] for c in third.columns if c.name != "names"} | {"names": "\n"}

    third = replace(CATALOGUE, table="game_catalogue3", columns=tuple(c for c in CATALOGUE.columns if c.name != "imported"),
                    to_stored=stored3)
    from service.adapters.view_runner import store_for

    old = Catalogue(arbiter.app, store_for(arbiter.app, third))
    old.catch_up()
    position = old.position()
    assert position > 0 and {r["id"] for r in old.view.select(_everything(), 10, 0)} == {original["id"], copy["id"]}

    new = Catalogue.for_app(arbiter.app)
    assert new.spec.table == "game_catalogue5" and new.position() == 0
    new.catch_up()
    assert new.position() == position == old.position()
    assert {r["id"]: r["imported"] for r in new.list()} == {original["id"]: False, copy["id"]: True}
    assert len(old.view.select(_everything(), 10, 0)) == 2


def _everything():
    from service.adapters.catalogue_store import Query

    return Query()


@pytest.fixture
def web(tmp_path):
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'imported.db'}"})
    return app.extensions["arbiter"], app.test_client()


def test_the_desk_the_lobby_and_get_games_tag_the_uploaded_record_only(web):
    facade, client = web
    original = played(facade)
    record = client.get(f"/api/v1/games/{original['id']}/record",
                        headers={"Authorization": f"Bearer {original['referee_token']}"})
    assert record.status_code == 200
    upload = client.post("/api/v1/records", json=record.json)
    assert upload.status_code == 201
    copy = upload.json["id"]
    listing = {r["id"]: r for r in client.get("/api/v1/games").json}
    assert listing[copy]["imported"] is True and listing[original["id"]]["imported"] is False
    for gid, imported in ((copy, True), (original["id"], False)):
        [created] = [e for e in client.get(f"/api/v1/games/{gid}/events").json if e["version"] == 1]
        assert created["data"]["imported"] is imported

    desk = client.get("/desk").text
    rows = dict(re.findall(r'<tr class="desk-row[^"]*" data-id="([^"]+)">(.*?)</tr>', desk, re.S))
    assert set(rows) == {copy, original["id"]}
    assert '<span class="tag imported"' in rows[copy] and ">imported</span>" in rows[copy]
    assert "imported" not in rows[original["id"]]
    lobby = client.get("/").text
    assert lobby.count('<span class="tag imported"') == 1
