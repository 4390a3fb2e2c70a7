"""A fifth game added by its own package and one registry line (tests/toy_game, issue 24): arbiter's API, pages,
records, verification and catalogue take it from its spec alone, with no line of generic code about it."""

from __future__ import annotations

import pytest

from tests.toy_game import register

from .api_support import API, CheckedClient, bearer


@pytest.fixture
def toy_app():
    """An app on a fresh store with High Card registered (before the app: its snapshot transcoding is registered)."""
    from api import create_app

    with register():
        app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1})
        app.test_client_class = CheckedClient
        yield app


def browser(app, token: str, game_id: str):
    client = app.test_client()
    assert client.get(f"/join/{game_id}/{token}").status_code == 302
    return client


def play_out(client, gid: str, tokens: list[str]) -> list[dict]:
    """Every seat plays its first legal move until the game is over; the moves made."""
    made = []
    for _ in range(40):
        views = [client.get(f"{API}/games/{gid}/view", headers=bearer(t)).get_json() for t in tokens]
        if views[0]["status"] == "finished":
            return made
        seat = next(s for s, v in enumerate(views) if v["table"].get("legal_moves"))
        move = views[seat]["table"]["legal_moves"][0]
        answer = client.post(f"{API}/games/{gid}/moves", json=move, headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.get_json()
        made.append(move)
    raise AssertionError("the game did not end")


def test_high_card_is_created_played_viewed_and_verified_through_the_api(toy_app):
    client = toy_app.test_client()
    assert "high-card" in client.get(f"{API}/health").get_json()["games"]
    created = client.post(f"{API}/games", json={"game": "high-card", "options": {"rounds": 2},
                                                "players": [{"name": "North"}, {"name": "South"}]})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    gid, tokens = body["id"], [s["token"] for s in body["seats"]]
    north = client.get(f"{API}/games/{gid}/view", headers=bearer(tokens[0])).get_json()
    assert north["title"] == "High Card" and len(north["table"]["hand"]) == 2
    assert "hand" not in client.get(f"{API}/games/{gid}").get_json()["table"]["seats"][0], "a spectator sees no hand"
    illegal = client.post(f"{API}/games/{gid}/moves", json={"type": "play", "cards": ["AC"]}, headers=bearer(tokens[1]))
    assert illegal.status_code == 422 and illegal.get_json()["rule"] == "HC-2.1"
    moves = play_out(client, gid, tokens)
    assert len(moves) == 4
    done = client.get(f"{API}/games/{gid}").get_json()
    assert done["status"] == "finished" and done["result"] in ("win", "draw")
    events = client.get(f"{API}/games/{gid}/events", headers=bearer(body["referee_token"])).get_json()
    assert [e["type"] for e in events if e["type"] == "round_ended"] == ["round_ended"] * 2
    assert client.get(f"{API}/games/{gid}/audit/verify", headers=bearer(body["referee_token"])).get_json()["ok"] is True
    record = client.get(f"{API}/games/{gid}/record", headers=bearer(body["referee_token"])).get_json()
    verdict = client.post(f"{API}/records", json=record).get_json()["verdict"]
    assert verdict["status"] == "finished" and verdict["moves_applied"] == 4
    assert any(g["game"] == "high-card" for g in client.get(f"{API}/games").get_json()), "the catalogue"


def test_high_card_s_pages_draw_its_own_partial_and_the_lobby_its_options(toy_app):
    client = toy_app.test_client()
    lobby = client.get("/").get_data(as_text=True)
    assert 'name="high-card.rounds"' in lobby and "High Card options" in lobby
    created = client.post("/", data={"game": "high-card", "high-card.rounds": "1", "name": ["Ann", "Bob"]})
    assert created.status_code == 303
    body = client.post(f"{API}/games", json={"game": "high-card", "players": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    gid, tokens, referee = body["id"], [s["token"] for s in body["seats"]], body["referee_token"]
    table = browser(toy_app, tokens[0], gid).get(f"/games/{gid}")
    assert table.status_code == 200
    page = table.get_data(as_text=True)
    assert 'id="trick"' in page and "Round 1 of 3" in page, "the partial its spec names"
    play_out(client, gid, tokens)
    as_referee = browser(toy_app, referee, gid)
    for path in (f"/games/{gid}", f"/games/{gid}/replay", f"/games/{gid}/audit", f"/games/{gid}/replay?version=3"):
        response = as_referee.get(path)
        assert response.status_code == 200, path
    assert "plays" in as_referee.get(f"/games/{gid}/replay").get_data(as_text=True), "its own narration"
