"""The desk's rows say where and who (issue 35): the tournament table a game is played at (name, round, table), who is
to act and the time left on their clock, as the tournament page tells them; a game outside any tournament has no
tournament line, a finished game nobody to act."""

from __future__ import annotations

import html
import json
import re
from uuid import UUID

import pytest

from api.app import create_app
from projections.time_left import time_left
from tests.clock_support import fake_time
from tests.integration.api_support import bearer


@pytest.fixture
def web(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'desk-rows.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    return app, app.extensions["arbiter"], app.test_client()


def desk_row(page: str, gid: str) -> str:
    found = re.search(rf'<tr class="desk-row[^"]*" data-id="{gid}".*?</tr>', page, re.S)
    assert found, f"no desk row for {gid}"
    inline = re.sub(r"</?(?:strong|a|span|small|time)\b[^>]*>", "", found.group(0))
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", inline)))


def test_a_tournament_game_s_desk_row_names_its_tournament_round_and_table_who_is_to_act_and_their_time_left(web):
    _, facade, client = web
    with fake_time() as clock:
        created = client.post("/api/v1/tournaments", json={
            "name": "Autumn Swiss", "game": "el-royale", "format": "round-robin",
            "players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")],
            "time_control": {"game_seconds": 600, "start": "created"}}).get_json()
        assert client.post(f"/api/v1/tournaments/{created['id']}/rounds",
                           headers=bearer(created["director_token"])).status_code == 201
        tables = client.get(f"/api/v1/tournaments/{created['id']}").get_json()["rounds"][0]["tables"]
        assert len(tables) == 2
        alone = client.post("/api/v1/games", json={"game": "el-royale", "players": [{"name": "Eve"}, {"name": "Fay"}]}).get_json()
        clock.advance(75)
        page = client.get("/desk").text
        for table in tables:
            game = table["games"][0]
            row = desk_row(page, game["game_id"])
            assert f"Autumn Swiss · round 1 · table {table['table'] + 1}" in row, row
            acting = [table["players"][s]["name"] for s in game["to_act"]]
            assert len(acting) == 1, game
            assert f"to act: {acting[0]} 8:45 left" in row, row  # 600 s of game time, 75 s thinking so far
        row = desk_row(page, alone["id"])
        assert "round" not in row and "to act:" in row and "left" not in row  # no time control: nobody's time runs out
        assert f'href="/tournaments/{created["id"]}"' in page


def test_a_seat_past_its_time_reads_out_of_time_and_a_finished_game_has_nobody_to_act(web):
    _, facade, client = web
    with fake_time() as clock:
        game = client.post("/api/v1/games", json={"game": "small-battle", "players": [{"name": "Ann"}, {"name": "Bob"}],
                                                  "time_control": {"move_seconds": 30}}).get_json()
        clock.advance(31)
        row = desk_row(client.get("/desk").text, game["id"])
        assert re.search(r"to act: (Ann|Bob) out of time", row), row
    with open("tests/records/el-royale/example1-00-classic.json") as f:  # a whole game: it ends
        finished = client.post("/api/v1/records", json=json.load(f)).get_json()
    assert finished["verdict"]["status"] == "finished"
    row = desk_row(client.get("/desk").text, finished["id"])
    assert "finished" in row and "to act" not in row, row


def test_time_left_is_the_nearer_limit_less_the_turn_so_far_and_a_frozen_clock_is_read_at_its_moment():
    clock = {"seats": [
        {"seat": 0, "running": True, "since": "2030-01-01T12:00:00+00:00", "remaining_ms": 50_000, "move_limit_ms": 30_000},
        {"seat": 1, "running": False, "since": None, "remaining_ms": 60_000, "move_limit_ms": 30_000},
        {"seat": 2, "running": True, "since": "2030-01-01T12:00:00+00:00", "remaining_ms": 20_000, "move_limit_ms": None}]}
    now = int(1_893_499_200_000 + 10_000)  # 12:00:10
    assert time_left(clock, now) == [{"seat": 0, "left_ms": 20_000, "limit": "move", "thinking_ms": 10_000},
                                     {"seat": 2, "left_ms": 10_000, "limit": "game", "thinking_ms": 10_000}]
    frozen = {**clock, "frozen": True, "as_of": "2030-01-01T12:00:25+00:00"}
    assert [x["left_ms"] for x in time_left(frozen, now)] == [5_000, -5_000]
    assert time_left(None, now) == [] and time_left({"seats": [{"seat": 0, "running": True, "since": clock["seats"][0]["since"],
                                                                "remaining_ms": None, "move_limit_ms": None}]}, now)[0]["left_ms"] is None


def test_a_game_whose_events_cannot_be_read_is_still_listed_and_the_desk_still_answers(tmp_path):
    """The desk now loads the games of its page (who is to act): one that cannot be read must not take the page down."""
    from tests.integration.service_support import RawEvents

    url = f"sqlite:///{tmp_path / 'damaged.db'}"
    config = {"TESTING": True, "DATABASE_URL": url, "KEY_FILE": str(tmp_path / "key"),
              "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")}
    client = create_app(config).test_client()
    games = [client.post("/api/v1/games", json={"game": "el-royale", "players": [{"name": a}, {"name": b}]}).get_json()
             for a, b in (("Ann", "Bob"), ("Cy", "Dee"))]
    raw = RawEvents("sqlite", url)
    try:
        raw.set_state(UUID(games[0]["id"]), 2, b"not json at all")
    finally:
        raw.close()
    page = create_app(config).test_client().get("/desk")  # a new process: nothing cached
    assert page.status_code == 200
    assert "cannot be read" in desk_row(page.text, games[0]["id"])
    assert "to act:" in desk_row(page.text, games[1]["id"])
