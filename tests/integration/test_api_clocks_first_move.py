"""When the clocks start, over HTTP and through the pages' forms (docs/clocks.md): POST /games keeps starting them
with the game unless its time control says `"start": "first_move"`; the lobby's and the tournaments' forms start
them at the first move unless the form's select says otherwise; the watcher flags nobody while they wait."""

from __future__ import annotations

import re
from uuid import UUID

from tests.clock_support import fake_time
from tests.integration.test_api_clocks import PLAYERS, create, play


def clock_of(client, gid: str) -> dict:
    return client.get(f"/api/v1/games/{gid}").get_json()["clock"]


def test_the_api_starts_the_clocks_with_the_game_unless_asked_to_wait_for_the_first_move(client):
    for control in (None, {"move_seconds": 60}, {"start": "created"}):
        game = create(client, **({} if control is None else {"time_control": control}))
        clock = clock_of(client, game["id"])
        assert clock["running"] and clock["waiting"] is False and clock["start"] == "created"
    waiting = create(client, time_control={"start": "first_move", "move_seconds": 60})
    clock = clock_of(client, waiting["id"])
    assert clock["running"] == [] and clock["waiting"] is True and clock["start"] == "first_move"
    assert clock["time_control"] == {"start": "first_move", "move_seconds": 60}
    assert clock["waiting_for"] and not any(s["running"] for s in clock["seats"])


def test_a_bad_start_is_refused_naming_the_field_and_creates_nothing(client):
    for start in ("later", 1, None, True):
        response = client.post("/api/v1/games", json={"game": "el-royale", "players": PLAYERS,
                                                      "time_control": {"start": start}})
        assert response.status_code == 422 and response.get_json()["field"] == "time_control.start", start
    assert client.get("/api/v1/games").get_json() == []


def test_the_watcher_flags_nobody_while_the_clocks_wait_and_times_the_first_move_from_it(client, app):
    from service.play.clocks import ClockWatch

    with fake_time() as clock:
        game = create(client, time_control={"start": "first_move", "move_seconds": 30})
        gid, facade = game["id"], app.extensions["arbiter"]
        watch = ClockWatch(facade.app, now=lambda: clock.ms)
        watch.tick()
        clock.advance(3600)
        assert watch.tick() == 1.0  # nothing to wait for: the idle poll
        facade.app.check_clocks(UUID(gid), clock.ms)
        assert client.get(f"/api/v1/games/{gid}").get_json()["disputes"] == []
        play(client, app, game, 1, clock, seconds=5)
        after = clock_of(client, gid)
        assert after["waiting"] is False and all(s["used_ms"] == 0 for s in after["seats"])  # the wait was not counted
        watch.tick()
        clock.advance(31)
        watch.tick()
        disputes = client.get(f"/api/v1/games/{gid}").get_json()["disputes"]
        assert len(disputes) == 1 and disputes[0]["time_expired"]["used_ms"] == 31000


def test_a_game_from_the_lobby_form_waits_for_the_first_move_unless_the_form_says_created(client):
    page = client.get("/").get_data(as_text=True)
    select = re.search(r'<select name="clock_start">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'value="(\w+)"', select) == ["first_move", "created"]  # the default first
    made = []
    for data in ({}, {"clock_start": "first_move"}, {"clock_start": "created"}):
        response = client.post("/", data={"game": "small-battle", "name": ["Ann", "Bob"], **data})
        assert response.status_code == 303
        made.append(response.headers["Location"].split("/games/")[1].split("/")[0])
    starts = [(clock_of(client, gid)["start"], clock_of(client, gid)["waiting"]) for gid in made]
    assert starts == [("first_move", True), ("first_move", True), ("created", False)]
    bad = client.post("/", data={"game": "small-battle", "name": ["Ann", "Bob"], "clock_start": "whenever"})
    assert bad.status_code == 422 and "time_control.start" in bad.get_data(as_text=True)


def test_the_table_page_says_the_clocks_wait_and_runs_none_and_small_battle_names_both_seats_to_act(client):
    response = client.post("/", data={"game": "small-battle", "name": ["Ann", "Bob"]})
    gid = response.headers["Location"].split("/games/")[1].split("/")[0]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="clocks-waiting"' in page and "wait for the first move" in page
    assert 'class="clock-list waiting"' in page
    assert not re.search(r'class="clock running', page) and "thinking</span>" not in page
    turn = re.sub(r"<[^>]+>|\s+", " ", re.search(r'<p class="turn[^"]*" id="turn">(.*?)</p>', page, re.S).group(1))
    assert "Ann and Bob to act" in turn, turn


def test_a_tournament_from_the_form_starts_its_games_clocks_at_the_first_move(client):
    response = client.post("/tournaments", data={"name": "Club", "game": "small-battle", "format": "round-robin",
                                                 "players": "Ann\nBob", "auto_rounds": "on", "move_seconds": "60"})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    tid = response.headers["Location"].split("/tournaments/")[1].split("?")[0]
    assert client.get(f"/api/v1/tournaments/{tid}").get_json()["time_control"] == {"move_seconds": 60, "start": "first_move"}
    form = client.get("/tournaments").get_data(as_text=True)
    assert re.findall(r'value="(\w+)"', re.search(r'<select name="clock_start">(.*?)</select>', form, re.S).group(1)) \
        == ["first_move", "created"]


def test_a_tournament_s_games_carry_its_start_and_its_page_says_the_clocks_wait(client):
    created = client.post("/api/v1/tournaments", json={
        "name": "Blitz", "game": "small-battle", "players": [{"name": "Ann"}, {"name": "Bob"}], "format": "round-robin",
        "time_control": {"game_seconds": 300, "start": "first_move"}}).get_json()
    started = client.post(f"/api/v1/tournaments/{created['id']}/rounds",
                          headers={"Authorization": f"Bearer {created['director_token']}"})
    assert started.status_code == 201, started.get_json()
    game = client.get(f"/api/v1/tournaments/{created['id']}").get_json()["rounds"][0]["tables"][0]["games"][0]
    clock = clock_of(client, game["game_id"])
    assert clock["waiting"] is True and clock["time_control"] == {"game_seconds": 300, "start": "first_move"}
    page = client.get(f"/tournaments/{created['id']}").get_data(as_text=True)
    assert "waiting for the first move" in page and "(thinking)" not in page
    bad = client.post("/api/v1/tournaments", json={
        "name": "Bad", "game": "small-battle", "players": [{"name": "Ann"}, {"name": "Bob"}], "format": "round-robin",
        "time_control": {"start": "soon"}})
    assert bad.status_code == 422 and bad.get_json()["field"] == "time_control.start"
