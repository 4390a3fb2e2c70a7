"""Spectator delay and clocks over HTTP (issue 15 parts 4 and 5): POST /games takes both settings; a delayed
spectator's view, events, replay page and catalogue row stand at the cut while seats and the referee see now;
thinking time is measured from the server's timestamps; running out is recorded once, for the referee to rule."""

from __future__ import annotations

import random
from uuid import UUID

from tests.clock_support import fake_time, random_move
from tests.integration.api_support import bearer

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}]


def create(client, **settings) -> dict:
    response = client.post("/api/v1/games", json={"game": "el-royale", "players": PLAYERS, **settings})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play(client, app, created: dict, moves: int, clock=None, seconds: float = 1.0, seed: int = 7) -> list[int]:
    """Random legal moves over HTTP; returns the version before each."""
    facade, rng, before = app.extensions["arbiter"], random.Random(seed), []
    for _ in range(moves):
        seat, body = random_move(facade, created["id"], rng)
        if clock is not None:
            clock.advance(seconds)
        before.append(client.get(f"/api/v1/games/{created['id']}/view", headers=bearer(created["referee_token"])).get_json()["version"])
        response = client.post(f"/api/v1/games/{created['id']}/moves", json=body, headers=bearer(created["seats"][seat]["token"]))
        assert response.status_code == 200, response.get_json()
    return before


def test_a_spectator_two_moves_behind_sees_the_table_and_events_as_they_were_two_moves_ago(client, app):
    game = create(client, spectator_delay={"moves": 2})
    before = play(client, app, game, 5)
    gid, referee = game["id"], bearer(game["referee_token"])
    seen = client.get(f"/api/v1/games/{gid}").get_json()
    assert seen["delayed"] is True and seen["spectator_delay"]["moves"] == 2
    assert seen["version"] == before[3]  # before the 4th of 5 moves: moves 4 and 5 are not shown yet
    assert seen["table"] == app.extensions["arbiter"].views.public_replay(gid, before[3])["table"]
    events = client.get(f"/api/v1/games/{gid}/events").get_json()
    assert max(e["version"] for e in events) == before[3]
    assert client.get(f"/api/v1/games/{gid}/view", headers=referee).get_json()["version"] > before[3] + 1
    seat_view = client.get(f"/api/v1/games/{gid}/view", headers=bearer(game["seats"][0]["token"])).get_json()
    assert "delayed" not in seat_view and seat_view["version"] > before[3]


def test_a_spectator_s_replay_stops_at_the_cut(client, app):
    import pytest

    from service.errors import NotFound

    game = create(client, spectator_delay={"moves": 1})
    before = play(client, app, game, 3)
    facade = app.extensions["arbiter"]
    assert facade.views.public_replay(game["id"], before[2])["version"] == before[2]
    with pytest.raises(NotFound, match="not shown to spectators yet"):
        facade.views.public_replay(game["id"], before[2] + 1)
    at_cut = client.get(f"/games/{game['id']}/replay?version={before[2]}")
    past_it = client.get(f"/games/{game['id']}/replay?version={before[2] + 1}")  # the page keeps to what it may show
    import re

    drawn_at = re.compile(rb'data-server-time="[^"]*"')  # when each page was drawn
    assert at_cut.status_code == past_it.status_code == 200
    assert drawn_at.sub(b"", at_cut.data) == drawn_at.sub(b"", past_it.data)


def test_the_catalogue_shows_a_delayed_game_at_its_spectators_version(client, app):
    game = create(client, spectator_delay={"moves": 1})
    before = play(client, app, game, 3)
    row = next(r for r in client.get("/api/v1/games").get_json() if r["id"] == game["id"])
    assert row["version"] == before[2]


def test_a_delay_in_seconds_shows_only_what_is_that_old_by_the_server_s_clock(client, app):
    with fake_time() as clock:
        game = create(client, spectator_delay={"seconds": 30})
        before = play(client, app, game, 3, clock, seconds=20)  # moves stored at +20 s, +40 s, +60 s
        assert client.get(f"/api/v1/games/{game['id']}").get_json()["version"] == before[1]  # older than +30 s: the first
        clock.advance(25)  # now +85 s: the second move (+40 s) is old enough, the third (+60 s) is not
        assert client.get(f"/api/v1/games/{game['id']}").get_json()["version"] == before[2]


def test_a_finished_game_is_no_longer_delayed(client, app):
    game = create(client, spectator_delay={"moves": 3})
    facade, rng = app.extensions["arbiter"], random.Random(3)
    while (chosen := random_move(facade, game["id"], rng)) is not None:
        client.post(f"/api/v1/games/{game['id']}/moves", json=chosen[1], headers=bearer(game["seats"][chosen[0]]["token"]))
    seen = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert seen["status"] == "finished" and "delayed" not in seen
    assert seen["version"] == client.get(f"/api/v1/games/{game['id']}/view", headers=bearer(game["referee_token"])).get_json()["version"]


def test_bad_delays_and_time_controls_are_refused_naming_the_field_and_create_nothing(client):
    for settings, field in [({"spectator_delay": {"moves": 0}}, "spectator_delay.moves"),
                            ({"spectator_delay": {"seconds": 10**6}}, "spectator_delay.seconds"),
                            ({"spectator_delay": {"moves": 1, "seconds": 1}}, "spectator_delay"),
                            ({"spectator_delay": {"turns": 1}}, "spectator_delay"),
                            ({"time_control": {}}, "time_control"),
                            ({"time_control": {"game_seconds": -5}}, "time_control.game_seconds"),
                            ({"time_control": {"per_hand": 5}}, "time_control")]:
        response = client.post("/api/v1/games", json={"game": "el-royale", "players": PLAYERS, **settings})
        assert response.status_code == 422, settings
        assert response.get_json()["field"] == field
    assert client.get("/api/v1/games").get_json() == []


def test_thinking_time_accumulates_per_seat_from_the_server_s_timestamps(client, app):
    with fake_time() as clock:
        game = create(client, time_control={"game_seconds": 600})
        gid = game["id"]
        first = client.get(f"/api/v1/games/{gid}").get_json()["clock"]
        mover = first["running"][0]
        clock.advance(7)
        play(client, app, game, 1)
        after = client.get(f"/api/v1/games/{gid}").get_json()["clock"]
        assert after["seats"][mover]["used_ms"] == 7000
        assert after["seats"][mover]["remaining_ms"] == 593000
        assert after["time_control"] == {"game_seconds": 600}
        assert after["changed"].startswith("2030-01-01T12:00:07")  # the move's server time


def test_a_seat_that_never_moves_is_flagged_once_and_the_referee_rules_on_it(client, app):
    from service.play.clocks import ClockWatch

    with fake_time() as clock:
        game = create(client, time_control={"move_seconds": 30})
        gid, facade = game["id"], app.extensions["arbiter"]
        watch = ClockWatch(facade.app, now=lambda: clock.ms)
        watch.tick()
        clock.advance(29)
        watch.tick()
        assert client.get(f"/api/v1/games/{gid}").get_json()["disputes"] == []
        clock.advance(2)
        watch.tick()
        watch.tick()
        facade.app.check_clocks(UUID(gid), clock.ms)  # a second watcher (another process) finds it recorded
        disputes = client.get(f"/api/v1/games/{gid}").get_json()["disputes"]
        assert len(disputes) == 1 and disputes[0]["time_expired"]["control"] == "move"
        assert disputes[0]["time_expired"]["used_ms"] == 31000 and disputes[0]["ruling"] is None
        flags = [e for e in client.get(f"/api/v1/games/{gid}/events").get_json() if e["type"] == "time_expired"]
        assert len(flags) == 1 and flags[0]["actor"] == "clock"
        referee = bearer(game["referee_token"])
        rewind = client.post(f"/api/v1/games/{gid}/disputes/1/ruling", json={"decision": "upheld", "remedy": "rewind"},
                             headers=referee)
        assert rewind.status_code == 422 and rewind.get_json()["field"] == "remedy"
        ruled = client.post(f"/api/v1/games/{gid}/disputes/1/ruling", json={"decision": "upheld", "note": "lost on time"},
                            headers=referee)
        assert ruled.status_code == 200 and ruled.get_json()["ruling"]["decision"] == "upheld"
        audit = client.get(f"/api/v1/games/{gid}/audit", headers=referee).get_json()
        assert [e["type"] for e in audit["entries"]].count("time_expired") == 1


def test_a_late_move_is_flagged_before_it_is_applied_and_the_game_goes_on(client, app):
    with fake_time() as clock:
        game = create(client, time_control={"move_seconds": 10})
        gid = game["id"]
        play(client, app, game, 1, clock, seconds=12)
        events = client.get(f"/api/v1/games/{gid}/events").get_json()
        kinds = [e["type"] for e in events]
        flag = kinds.index("time_expired")
        assert events[flag + 1]["actor"].startswith("seat:")  # the move itself follows its flag
        assert events[flag]["data"]["used_ms"] == 12000 and events[flag]["data"]["limit_ms"] == 10000
        play(client, app, game, 1, clock, seconds=3, seed=8)  # in time: nothing more is flagged
        kinds = [e["type"] for e in client.get(f"/api/v1/games/{gid}/events").get_json()]
        assert kinds.count("time_expired") == 1
