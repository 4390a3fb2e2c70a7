"""auto_pass through the service: the pass is made in the same command as the move that forced it, answered to the
mover, shown to everyone marked automatic, kept in the exported record, and the record replays (`arbiter replay`)
to the stored game's verdict. The position is tests/unit/test_auto_pass.py's: seat 0 empties its hand by a
throw-in that makes no fourth nine, and the reinforce window must ask it again."""

from __future__ import annotations

import json
from uuid import UUID

import pytest
from click.testing import CliRunner

from service.facade import Arbiter
from service.play.facade import verdict_of
from tests.support import stacked_deck
from tests.unit.test_auto_pass import EMPTYING
from service.play.commands import PlayMove
from service.play.new_games import CreateGame

HANDS = [["7C", "7D", "9C", "9S"], ["9D", "2C", "JH", "KS"]]


@pytest.fixture
def played(tmp_path):
    facade = Arbiter("memory://", key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))
    created = facade.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised", "auto_pass": True},
                                  "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": "00ff",
                                  "deck": stacked_deck(HANDS), "dealer": 0, "starter": 0}))
    answers = []
    for seat, kind, cards in EMPTYING:
        body = {"type": kind} | ({"cards": cards} if cards else {})
        answers.append(facade.play.move(created["seats"][seat]["token"], PlayMove.from_body(created["id"], body)))
    return facade, created, answers


def test_the_move_that_forces_a_pass_is_answered_with_the_automatic_pass_after_it(played):
    facade, created, answers = played
    last = answers[-1]["events"]
    assert [(e["type"], e["actor"], e.get("automatic", False)) for e in last[:2]] == [
        ("passed", "seat:1", False), ("passed", "seat:0", True)]
    assert last[1]["clause"] == "ER-3.3"
    assert all("automatic" not in e for a in answers[:-1] for e in a["events"])  # seat 0's earlier pass was its own
    view = facade.views.view(created["id"], created["seats"][1]["token"])
    assert view["table"]["to_act"] == 1 and view["table"]["phase"] == "claim"


def test_everyone_sees_the_pass_marked_automatic_and_nothing_else_changes_for_them(played):
    facade, created, _ = played
    for token in (None, created["seats"][0]["token"], created["seats"][1]["token"], created["referee_token"]):
        automatic = [e for e in facade.views.events(created["id"], token) if e.get("automatic")]
        assert [(e["type"], e["data"], e["actor"]) for e in automatic] == [("passed", {"seat": 0}, "seat:0")]


def test_the_exported_record_holds_the_pass_as_a_move_and_replays_to_the_stored_verdict(played, tmp_path):
    from api.cli.main import main

    facade, created, _ = played
    game = facade.app.game(UUID(created["id"]))
    doc = facade.views.record(created["id"], created["referee_token"])
    assert doc["options"]["auto_pass"] is True
    assert doc["moves"][-1] == {"seat": 0, "type": "pass"} and len(doc["moves"]) == len(EMPTYING) + 1
    path = tmp_path / "auto-pass.json"
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["final"] == verdict_of(game, None)["final"]
    assert (verdict["status"], verdict["moves_applied"]) == ("in_progress", len(EMPTYING) + 1)


def test_the_audit_page_marks_the_pass_automatic(tmp_path):
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"})
    facade = app.extensions["arbiter"]
    created = facade.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised", "auto_pass": True},
                                  "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": "00ff",
                                  "deck": stacked_deck(HANDS), "dealer": 0, "starter": 0}))
    for seat, kind, cards in EMPTYING:
        facade.play.move(created["seats"][seat]["token"], PlayMove.from_body(created["id"], {"type": kind} | ({"cards": cards} if cards else {})))
    client = app.test_client()
    client.get(f"/join/{created['id']}/{created['referee_token']}")
    page = client.get(f"/games/{created['id']}/audit")
    assert page.status_code == 200
    assert page.text.count('class="tag automatic"') == 1


def test_the_lobby_s_auto_pass_box_creates_a_table_with_the_option(tmp_path):
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}"})
    client = app.test_client()
    form = {"game": "el-royale", "el-royale.edition": "revised", "el-royale.auto_pass": "true", "name": ["Ann", "Bob"]}
    assert client.post("/", data=form).status_code == 303
    unticked = {k: v for k, v in form.items() if k != "el-royale.auto_pass"}
    assert client.post("/", data=unticked).status_code == 303
    rows = app.extensions["arbiter"].lobby.catalogue()
    assert [r["options"].get("auto_pass") for r in rows] == [True, None]
