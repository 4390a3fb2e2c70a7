"""Creating a game over HTTP: the answer carries the new game's address and the links a browser opens (docs/api.md)."""

from __future__ import annotations

import json
from pathlib import Path

from .api_support import API, players

RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example3-06-revised.json"


def test_creating_a_game_answers_its_location_and_each_seat_s_and_the_referee_s_private_link(client):
    """201 with `Location: /api/v1/games/{id}`; each seat's `join_url` and the `referee_join_url` are the /join links
    of their own tokens (absolute), `table_url` the spectators' page; the contract's fields are unchanged."""
    response = client.post(f"{API}/games", json={"game": "el-royale", "players": players(3)})
    assert response.status_code == 201
    doc = response.get_json()
    assert response.headers["Location"].endswith(f"{API}/games/{doc['id']}")
    assert client.get(response.headers["Location"]).status_code == 200
    for seat in doc["seats"]:
        assert seat["join_url"] == f"http://localhost/join/{doc['id']}/{seat['token']}"
    assert doc["referee_join_url"] == f"http://localhost/join/{doc['id']}/{doc['referee_token']}"
    assert doc["table_url"] == f"http://localhost/games/{doc['id']}"
    assert {"id", "seats", "referee_token", "commitment"} <= set(doc)
    assert [set(s) >= {"seat", "name", "team", "token"} for s in doc["seats"]] == [True] * 3


def test_a_seat_s_join_link_opens_the_table_as_that_seat(client):
    """Following a seat's join_url keeps its token in the browser and redirects to the table, which shows that seat."""
    doc = client.post(f"{API}/games", json={"game": "el-royale", "players": players(2)}).get_json()
    joined = client.get(doc["seats"][1]["join_url"].removeprefix("http://localhost"))
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/games/{doc['id']}")
    table = client.get(f"/games/{doc['id']}").get_data(as_text=True)
    assert "You are <strong>East</strong>" in table


def test_importing_a_record_answers_its_location_and_links_too(client):
    response = client.post(f"{API}/records", json=json.loads(RECORD.read_text()))
    assert response.status_code == 201
    doc = response.get_json()
    assert response.headers["Location"].endswith(f"{API}/games/{doc['id']}")
    assert all(s["join_url"].endswith(f"/join/{doc['id']}/{s['token']}") for s in doc["seats"])
    assert doc["referee_join_url"].endswith(doc["referee_token"])


def test_a_seat_names_itself_after_joining_and_every_view_log_record_and_the_catalogue_show_the_name(client):
    """POST /games/{id}/name by seat 1: the views, the event log (`player_named`), the catalogue and (once over or for
    the referee) the record carry the new name; a blank or over-long name is 422 naming `name`; the referee has no seat."""
    doc = client.post(f"{API}/games", json={"game": "el-royale", "players": players(2)}).get_json()
    url, seat1 = f"{API}/games/{doc['id']}", {"Authorization": f"Bearer {doc['seats'][1]['token']}"}
    named = client.post(f"{url}/name", json={"name": "  Boreas "}, headers=seat1)
    assert named.status_code == 200 and named.get_json()["name"] == "Boreas"
    assert [p["name"] for p in client.get(url).get_json()["players"]] == ["North", "Boreas"]
    assert client.get(f"{url}/events").get_json()[-1] | {"at": None, "prev": None} == {
        "version": named.get_json()["version"], "at": None, "prev": None, "type": "player_named", "actor": "seat:1",
        "clause": None, "engine_version": None, "data": {"seat": 1, "name": "Boreas"}}
    row = next(g for g in client.get(f"{API}/games").get_json() if g["id"] == doc["id"])
    assert [p["name"] for p in row["players"]] == ["North", "Boreas"]
    referee = {"Authorization": f"Bearer {doc['referee_token']}"}
    assert [p["name"] for p in client.get(f"{url}/record", headers=referee).get_json()["players"]] == ["North", "Boreas"]
    for bad in ("", "   ", "x" * 65):
        response = client.post(f"{url}/name", json={"name": bad}, headers=seat1)
        assert response.status_code == 422 and response.get_json()["field"] == "name", bad
    assert client.post(f"{url}/name", json={"name": "Judge"}, headers=referee).status_code == 403
