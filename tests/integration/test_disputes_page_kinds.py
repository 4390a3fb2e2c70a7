"""The disputes page tells each dispute as what it is (issue 35): the clock's automatic flag reads "clock: <name> out
of time — automatic", against the seat's time (not as if the flagged seat had filed it against the flag itself); the
ruling form says what upheld and rejected mean for that kind; a refused ruling comes back with what the referee
entered and the refusal named beside it."""

from __future__ import annotations

import html
import re
from uuid import UUID

import pytest

from api import create_app
from service.store.server_clock import server_ms


@pytest.fixture
def web():
    app = create_app({"TESTING": True, "DATABASE_URL": "memory://"})
    return app, app.extensions["arbiter"]


def text_of(page: str) -> str:
    inline = re.sub(r"</?(?:strong|a|span|small|time)\b[^>]*>", "", page)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", inline)))


def row_of(page: str, number: int) -> str:
    found = re.search(rf'<tr class="dispute[^"]*" data-number="{number}".*?</tr>', page, re.S)
    assert found, f"no row for dispute {number}"
    return found.group(0)


def flagged_game(app, facade) -> tuple[dict, int]:
    created = app.test_client().post("/api/v1/games", json={
        "game": "el-royale", "players": [{"name": "Ann"}, {"name": "Player36"}],
        "time_control": {"move_seconds": 10}}).get_json()
    gid = created["id"]
    seat = facade.views.view(gid, created["referee_token"])["clock"]["running"][0]
    assert facade.app.check_clocks(UUID(gid), server_ms() + 11_000) == [1]
    return created, seat


def as_referee(app, created: dict):
    client = app.test_client()
    client.get(f"/join/{created['id']}/{created['referee_token']}")
    return client


def test_a_clock_flag_reads_as_the_clock_s_automatic_flag_against_the_seat_s_time(web):
    app, facade = web
    created, seat = flagged_game(app, facade)
    name = ["Ann", "Player36"][seat]
    dispute = app.test_client().get(f"/api/v1/games/{created['id']}").get_json()["disputes"][0]
    assert dispute["kind"] == "clock" and dispute["automatic"] is True
    row = text_of(row_of(as_referee(app, created).get(f"/games/{created['id']}/disputes").text, 1))
    assert f"clock: {name} out of time — automatic" in row, row
    flag_version = dispute["filed_at"]
    assert f"the move at version {flag_version}" not in row and "the move at" not in row, row
    assert f"{name}'s time for one move, on the turn from version {dispute['time_expired']['turn']}" in row, row
    assert re.search(rf"{name} used 1\d\.\d s of the 10\.0 s for one move", row), row
    assert "seat 0" not in row and "seat 1" not in row, row
    audit = text_of(as_referee(app, created).get(f"/games/{created['id']}/audit").text)
    assert f"dispute 1, filed automatically: {name} out of time — 1" in audit, audit[-800:]


def test_the_ruling_form_says_what_upheld_and_rejected_mean_for_a_flag_and_for_a_seat_s_dispute(web):
    app, facade = web
    created, seat = flagged_game(app, facade)
    gid, other = created["id"], 1 - seat
    # the other seat moves... not necessarily its turn: a say is a move of every game, at any time
    client = app.test_client()
    said = client.post(f"/api/v1/games/{gid}/moves", json={"type": "say", "text": "hello"},
                       headers={"Authorization": f"Bearer {created['seats'][other]['token']}"})
    assert said.status_code == 200, said.get_json()
    filed = client.post(f"/api/v1/games/{gid}/disputes", json={"version": said.get_json()["version"], "claim": "rude"},
                        headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"})
    assert filed.status_code == 201, filed.get_json()
    assert filed.get_json()["kind"] == "move" and filed.get_json()["automatic"] is False
    page = as_referee(app, created).get(f"/games/{gid}/disputes").text
    flag, player = row_of(page, 1), row_of(page, 2)
    flag_text, player_text = text_of(flag), text_of(player)
    assert "Upheld: the flag stands" in flag_text and "Rejected: the flag is withdrawn" in flag_text, flag_text
    assert 'name="remedy" value="none"' in flag and "rewind to before the move" not in flag  # a flag rewinds nothing
    assert "Upheld:" in player_text and "was wrong" in player_text and "Rejected: the move stands" in player_text
    assert "rewind to before the move" in player


def test_a_refused_ruling_comes_back_with_the_decision_the_remedy_and_the_note_and_names_the_refusal(web):
    app, facade = web
    created, seat = flagged_game(app, facade)
    gid = created["id"]
    client = app.test_client()
    said = client.post(f"/api/v1/games/{gid}/moves", json={"type": "say", "text": "hello"},
                       headers={"Authorization": f"Bearer {created['seats'][1 - seat]['token']}"}).get_json()
    client.post(f"/api/v1/games/{gid}/disputes", json={"version": said["version"], "claim": "rude"},
                headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"})
    referee = as_referee(app, created)
    refused = referee.post(f"/games/{gid}/disputes/2/ruling",
                           data={"decision": "rejected", "remedy": "rewind", "note": "talk is allowed at any time"})
    assert refused.status_code == 422
    row = row_of(refused.text, 2)
    assert re.search(r'<option value="rejected"\s+selected>', row), row
    assert re.search(r'<option value="rewind"\s+selected>', row), row
    assert 'value="talk is allowed at any time"' in row
    assert "Not ruled: remedy: a rewind needs the dispute upheld" in text_of(row)
    other = row_of(refused.text, 1)  # the flag's form is untouched
    assert "selected>upheld" not in other and "Not ruled" not in other and 'value="talk is allowed' not in other
    unknown = referee.post(f"/games/{gid}/disputes/1/ruling", data={"decision": "maybe", "note": "hm"})
    assert unknown.status_code == 422
    row = row_of(unknown.text, 1)
    assert "Not ruled: decision: must be" in text_of(row) and 'value="hm"' in row
    assert facade.views.view(gid, created["referee_token"])["disputes"][0]["ruling"] is None
