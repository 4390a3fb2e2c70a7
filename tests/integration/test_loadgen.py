"""The load generator (issue 16): bots play whole games against a real HTTP server, and they are self-play's games."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest
from werkzeug.serving import make_server

from api import create_app
from api.cli.loadgen import load, summary
from service.offline.simulation import make_plan, play


@pytest.fixture
def served():
    app = create_app({"DATABASE_URL": "memory://", "TESTING": True, "STREAM_SECONDS": 30})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


@pytest.mark.parametrize("game,players,bots", [("small-battle", 2, ("heuristic", "random")),
                                               ("batallion", 3, ("heuristic",))])
def test_bots_over_http_play_the_same_games_as_self_play_and_every_request_succeeds(served, game, players, bots):
    plan = make_plan(game, players, 3, bots, {}, "http", max_moves=400)
    stats, seconds = load(plan, served, clients=2)
    result = summary(stats, seconds)
    assert result["errors"] == {}
    assert result["games"] == 3 and {"create", "view", "move", "stream delay"} <= set(result["requests"])
    assert result["requests"]["move"]["count"] == result["moves"]
    for index, gid in stats.games.items():
        with urllib.request.urlopen(f"{served}/api/v1/games/{gid}/record") as response:
            record = json.loads(response.read())
        assert record["moves"] == play(plan, index)["moves"]
