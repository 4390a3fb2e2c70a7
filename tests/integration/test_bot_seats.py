"""Bots at live tables (issue 16): a seat handed to a bot with the seat's own token is played by the server."""

from __future__ import annotations

import random
import re
import time

import pytest

import service.duty
from bots import SeatView, make_bot

from .api_support import bearer

API = "/api/v1"


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    monkeypatch.setattr(service.duty, "ROUND_SECONDS", 0.01)


def create(client, game="small-battle", players=2) -> dict:
    response = client.post(f"{API}/games", json={"game": game, "players": [{"name": f"P{i}"} for i in range(players)],
                                                 "seed": "b0b0"})
    assert response.status_code == 201
    return response.get_json()


def play_as_person(client, gid: str, person: str, seconds: float = 30) -> None:
    """Seat 0's person plays a random legal move whenever it has one, until the game is over (or `seconds` pass)."""
    me = make_bot("random", "small-battle", 0, random.Random(1))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = client.get(f"{API}/games/{gid}/view", headers=bearer(person)).get_json()
        if view["status"] == "finished":
            return
        if view["table"]["legal_moves"]:
            move = {k: v for k, v in me.choose(SeatView.from_http(view)).items() if k != "seat"}
            client.post(f"{API}/games/{gid}/moves", json={**move, "expected_version": view["version"]},
                        headers=bearer(person))
        else:
            time.sleep(0.01)


def test_a_person_plays_a_whole_game_against_a_bot_seated_on_the_server(client):
    created = create(client)
    gid, person, bot_token = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    seated = client.post(f"{API}/games/{gid}/bot", json={"bot": "heuristic"}, headers=bearer(bot_token))
    assert seated.status_code == 201 and seated.get_json() == {"id": gid, "seat": 1, "bot": "heuristic"}
    play_as_person(client, gid, person)
    record = client.get(f"{API}/games/{gid}/record").get_json()
    assert record["moves"], "the game was played"
    assert {m["seat"] for m in record["moves"]} == {0, 1}, "the bot played its seat"
    assert client.get(f"{API}/games/{gid}").get_json()["status"] == "finished"


def test_only_a_seat_token_hands_its_seat_to_a_known_bot_once(client):
    created = create(client, "el-royale", 3)
    gid, seat = created["id"], created["seats"][2]["token"]
    assert client.post(f"{API}/games/{gid}/bot", json={}, headers=bearer(created["referee_token"])).status_code == 403
    assert client.post(f"{API}/games/{gid}/bot", json={}).status_code == 401
    bad = client.post(f"{API}/games/{gid}/bot", json={"bot": "oracle"}, headers=bearer(seat))
    assert bad.status_code == 422 and "oracle" in bad.get_json()["detail"]
    assert client.post(f"{API}/games/{gid}/bot", json={}, headers=bearer(seat)).status_code == 201
    assert client.post(f"{API}/games/{gid}/bot", json={}, headers=bearer(seat)).status_code == 409


def test_the_created_page_offers_a_bot_for_each_seat_and_its_form_seats_one(client):
    created = create(client)
    gid, token = created["id"], created["seats"][1]["token"]
    client.get(f"/join/{gid}/{created['referee_token']}")
    links = client.get(f"/games/{gid}/links").get_data(as_text=True)
    assert all(f'action="/join/{gid}/{seat["token"]}/bot"' in links for seat in created["seats"])
    response = client.post(f"/join/{gid}/{token}/bot", data={"bot": "random"})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/games/{gid}")
    assert client.post(f"{API}/games/{gid}/bot", json={}, headers=bearer(token)).status_code == 409


@pytest.mark.parametrize("bot", ["random", "oracle"], ids=["seat-already-a-bot", "unknown-bot"])
def test_a_refused_bot_form_is_an_error_page_with_a_way_back_and_no_token(client, bot):
    created = create(client)
    gid, token = created["id"], created["seats"][1]["token"]
    assert client.post(f"/join/{gid}/{token}/bot", data={"bot": "random"}).status_code == 302
    page = client.post(f"/join/{gid}/{token}/bot", data={"bot": bot})
    assert page.status_code == (409 if bot == "random" else 422) and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert 'id="back-to-table"' in text and token not in text and token.split(".", 1)[1] not in text


def test_the_seats_own_token_takes_it_back_and_the_bot_plays_no_more(client):
    created = create(client)
    gid, person, token = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    assert client.delete(f"{API}/games/{gid}/bot", headers=bearer(token)).status_code == 404, "no bot plays it yet"
    assert client.post(f"{API}/games/{gid}/bot", json={"bot": "random"}, headers=bearer(token)).status_code == 201
    assert client.delete(f"{API}/games/{gid}/bot", headers=bearer(created["referee_token"])).status_code == 403
    assert client.delete(f"{API}/games/{gid}/bot", headers=bearer(person)).status_code == 404, "another seat's bot: none"
    assert client.delete(f"{API}/games/{gid}/bot?seat=1", headers=bearer(person)).status_code == 403, "not its seat"
    taken = client.delete(f"{API}/games/{gid}/bot", headers=bearer(token))
    assert taken.status_code == 200 and taken.get_json() == {"id": gid, "seat": 1, "bot": "random", "released": True}
    me = make_bot("random", "small-battle", 0, random.Random(1))
    for _ in range(3):  # the person plays until the taken-back seat has a move to make
        view = client.get(f"{API}/games/{gid}/view", headers=bearer(person)).get_json()
        if view["table"]["legal_moves"]:
            move = {k: v for k, v in me.choose(SeatView.from_http(view)).items() if k != "seat"}
            client.post(f"{API}/games/{gid}/moves", json={**move, "expected_version": view["version"]}, headers=bearer(person))
        time.sleep(0.1)
    seat = client.get(f"{API}/games/{gid}/view", headers=bearer(token)).get_json()
    assert seat["table"]["legal_moves"], "the seat has a move to make"
    time.sleep(0.3)
    assert client.get(f"{API}/games/{gid}/view", headers=bearer(token)).get_json()["version"] == seat["version"], \
        "nobody made it: the seat waits for its player"
    assert client.post(f"{API}/games/{gid}/bot", json={}, headers=bearer(token)).status_code == 201, "and may be handed over again"


def _bot_duty(client):
    return client.application.extensions["arbiter"].play.bot_duty


def _released(client, gid: str) -> list[int]:
    arbiter = client.application.extensions["arbiter"]
    return [s for s in range(2) if s not in arbiter.play.bot_seats.seats(gid)]


def test_an_all_bot_table_past_its_budget_is_slowed_then_its_bots_stop_and_say_why(client, caplog):
    from service.play.bot_budget import Limits

    _bot_duty(client).limits = Limits(slow_after=6, stop_after=14, wait=0.3)
    created = create(client, game="el-royale", players=2)
    gid = created["id"]
    for seat in created["seats"]:
        assert client.post(f"{API}/games/{gid}/bot", json={"bot": "random"}, headers=bearer(seat["token"])).status_code == 201
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and _released(client, gid) != [0, 1]:
        time.sleep(0.05)
    assert _released(client, gid) == [0, 1], "both bots left their seats"
    view = client.get(f"{API}/games/{gid}/view", headers=bearer(created["referee_token"])).get_json()
    assert view["status"] != "finished" and 14 <= view["version"] < 14 + 10, view["version"]
    stamps = [e["at"] for e in client.get(f"{API}/games/{gid}/events",
                                          headers=bearer(created["referee_token"])).get_json()]
    from datetime import datetime

    times = [datetime.fromisoformat(t) for t in stamps]
    assert (times[-1] - times[6]).total_seconds() >= 0.3 * 2, "past the slow mark the bots moved at most once per 0.3 s"
    assert any("versions made by bots alone" in r.getMessage() for r in caplog.records), "the log says why they stopped"
    time.sleep(0.3)
    again = client.get(f"{API}/games/{gid}/view", headers=bearer(created["referee_token"])).get_json()
    assert again["version"] == view["version"], "no bot moves any more"


def test_a_table_with_a_person_at_it_is_never_slowed_by_the_bot_budget(client):
    from service.play.bot_budget import Limits

    _bot_duty(client).limits = Limits(slow_after=1, stop_after=2, wait=5.0)
    created = create(client)
    gid, person, bot_token = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    assert client.post(f"{API}/games/{gid}/bot", json={"bot": "heuristic"}, headers=bearer(bot_token)).status_code == 201
    play_as_person(client, gid, person)
    assert client.get(f"{API}/games/{gid}").get_json()["status"] == "finished", "the bot played the game to its end"


def test_the_referee_takes_a_bot_seat_back_by_naming_it_and_no_other_token_may(client):
    created = create(client, "el-royale", 3)
    gid, referee, seats = created["id"], created["referee_token"], [s["token"] for s in created["seats"]]
    assert client.post(f"{API}/games/{gid}/bot", json={"bot": "random"}, headers=bearer(seats[1])).status_code == 201
    assert client.delete(f"{API}/games/{gid}/bot", headers=bearer(referee)).status_code == 403, "the referee names a seat"
    assert client.delete(f"{API}/games/{gid}/bot?seat=1", headers=bearer(seats[2])).status_code == 403, "another seat's"
    assert client.delete(f"{API}/games/{gid}/bot?seat=1").status_code == 401
    assert client.delete(f"{API}/games/{gid}/bot?seat=7", headers=bearer(referee)).status_code == 404, "no seat 7"
    assert client.delete(f"{API}/games/{gid}/bot?seat=2", headers=bearer(referee)).status_code == 404, "no bot plays it"
    taken = client.delete(f"{API}/games/{gid}/bot?seat=1", headers=bearer(referee))
    assert taken.status_code == 200 and taken.get_json() == {"id": gid, "seat": 1, "bot": "random", "released": True}
    assert client.application.extensions["arbiter"].play.bots_at(gid) == {}
    assert client.post(f"{API}/games/{gid}/bot", json={}, headers=bearer(seats[1])).status_code == 201, "its own again"


def test_the_links_page_the_table_and_the_lobby_say_which_seats_a_bot_plays_and_offer_no_second_bot(client):
    created = create(client, "el-royale", 3)
    gid, referee, seats = created["id"], created["referee_token"], [s["token"] for s in created["seats"]]
    client.post(f"{API}/games/{gid}/bot", json={"bot": "random"}, headers=bearer(seats[1]))
    client.get(f"/join/{gid}/{referee}")
    links = client.get(f"/games/{gid}/links").get_data(as_text=True)
    assert f'action="/join/{gid}/{seats[1]}/bot"' not in links and f'action="/join/{gid}/{seats[0]}/bot"' in links
    assert "played by the random bot" in links and f"/games/{gid}/bots/1/release" in links
    watcher = client.application.test_client()
    assert "P1 is played by the random bot" in watcher.get(f"/games/{gid}/panel").get_data(as_text=True)
    assert "Take the seat back" not in watcher.get(f"/games/{gid}/panel").get_data(as_text=True)
    lobby = watcher.get("/").get_data(as_text=True)
    assert re.search(r"P0, P1 <span class=\"tag bot-tag\" title=\"a random bot plays this seat\">bot</span>, P2", lobby)
    back = client.post(f"/games/{gid}/bots/1/release?as=referee", data={"back": "links"})
    assert back.status_code == 303 and back.headers["Location"].endswith(f"/games/{gid}/links")
    assert f'action="/join/{gid}/{seats[1]}/bot"' in client.get(f"/games/{gid}/links").get_data(as_text=True)
