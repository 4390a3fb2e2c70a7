"""A delayed spectator's live stream through the real server (`arbiter serve`, streams on the event loop): it never
carries an entry before the spectator may see it — N moves behind, or S seconds after the server stored it — while
a seat's stream of the same game is live; in the end it carries the spectator's event log, once, in order."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from tests.e2e.test_live_streams import ARBITER, Server, Stream, entries, log_of
from tests.integration.test_api_game import PLAN

WAIT = 15.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    workdir = tmp_path_factory.mktemp("delayed")
    s = Server(f"sqlite:///{workdir / 'delayed.db'}", workdir, workers=1)
    yield s
    s.stop()


def create_team_game_with(server: Server, extra: dict) -> dict:
    from tests.e2e.test_live_streams import DRAWS, HANDS, TEAMS_NSEW, WEST, players, stacked_deck

    body = {"game": "el-royale", "options": {"edition": "revised"}, "players": players(4, TEAMS_NSEW), "seed": "00ff",
            "deck": stacked_deck(HANDS, 0, DRAWS), "dealer": 0, "starter": WEST, **extra}
    return server.call("POST", "/api/v1/games", body)


def move(server: Server, game: dict, seat: int, body: dict) -> int:
    return server.call("POST", f"/api/v1/games/{game['id']}/moves", body, game["seats"][seat]["token"])["version"]


def settle(seconds: float = 0.4) -> None:
    time.sleep(seconds)  # the follower reads the store every 50 ms


def test_a_spectator_stream_two_moves_behind_never_runs_ahead_and_ends_with_the_whole_log(server):
    game = create_team_game_with(server, {"spectator_delay": {"moves": 2}})
    spectator, seat = Stream(server.port, game["id"], None), Stream(server.port, game["id"], game["seats"][0]["token"])
    try:
        before = []
        for i, (who, body) in enumerate(PLAN):
            before.append(server.call("GET", f"/api/v1/games/{game['id']}/view", token=game["referee_token"])["version"])
            latest = move(server, game, who, body)
            seat.wait_for(latest)  # the seat is live ...
            if any(m["event"] == "seed_revealed" for m in seat.messages):
                break  # over: the delay ends
            settle(0.2)
            cut = before[max(0, len(before) - 2)]
            assert all(m["id"] <= cut for m in spectator.messages), f"move {i}: the spectator saw past version {cut}"
            assert any(m["id"] == cut for m in spectator.messages) or cut == before[0], "the spectator keeps up to the cut"
        spectator.wait_for(latest)  # ... and once the game is over the spectator is given everything
        # (entries sent before the end were redacted then, as on any stream: compare what was sent, not how)
        assert [(v, t) for v, t, _ in entries(spectator)] == [(e["version"], e["type"]) for e in log_of(server, game, None)]
    finally:
        spectator.close()
        seat.close()


def test_a_spectator_stream_three_seconds_behind_gets_each_event_three_seconds_after_it_was_stored(server):
    game = create_team_game_with(server, {"spectator_delay": {"seconds": 3}})
    spectator = Stream(server.port, game["id"], None)
    arrived: dict[int, float] = {}
    try:
        latest = 0
        for who, body in PLAN[:3]:
            latest = move(server, game, who, body)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not any(m["id"] >= latest for m in spectator.messages):
            for m in spectator.messages:
                arrived.setdefault(m["id"], time.time())
            time.sleep(0.02)
        for m in spectator.messages:
            arrived.setdefault(m["id"], time.time())
        assert latest in arrived, "the held events were released"
        for m in spectator.messages:
            stored = datetime.fromisoformat(m["data"]["at"]).timestamp()
            if m["data"]["type"] != "created":
                assert arrived[m["id"]] >= stored + 3 - 0.05, f"version {m['id']} came {arrived[m['id']] - stored:.2f} s after it was stored"
        assert entries(spectator) == [(e["version"], e["type"], e) for e in log_of(server, game, None) if e["version"] <= latest]
    finally:
        spectator.close()
