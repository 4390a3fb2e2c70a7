"""docs/examples/bot.py, the bot of docs/bots.md "Write your own bot", plays against a live server (`arbiter serve`)
on a client generated from the document that server serves: one bot process per seat, each with its seat's token
alone, until the game is over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.test_live_streams import ARBITER, Server
from tests.generated_client import generate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "bot.py"
LIMIT_SECONDS = 240


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    workdir = tmp_path_factory.mktemp("example-bot")
    s = Server(f"sqlite:///{workdir / 'bots.db'}", workdir)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def package(server, tmp_path_factory):
    """The client generated from the document the live server serves: its folder and its package name."""
    folder = tmp_path_factory.mktemp("client")
    document = json.load(urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/v1/openapi.json"))
    return folder, generate(document, folder).__name__


def test_the_example_bot_is_at_most_sixty_lines():
    assert len(EXAMPLE.read_text().splitlines()) <= 60


@pytest.mark.parametrize("game", ["small-battle", "batallion"])
def test_one_example_bot_per_seat_plays_a_whole_game_on_a_live_server(server, package, game):
    url, (folder, name) = f"http://127.0.0.1:{server.port}", package
    players = [{"name": "Ann"}, {"name": "Bob"}] + ([{"name": "Cy"}] if game == "batallion" else [])
    created = server.call("POST", "/api/v1/games", {"game": game, "players": players})
    env = {**os.environ, "PYTHONPATH": str(folder)}  # the generated client alone: the bot imports nothing of arbiter
    bots = [subprocess.Popen([sys.executable, str(EXAMPLE), url, created["id"], seat["token"], name], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for seat in created["seats"]]
    outputs = []
    try:
        for bot in bots:
            outputs.append(bot.communicate(timeout=LIMIT_SECONDS)[0])
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    assert all(bot.returncode == 0 for bot in bots), outputs
    assert server.call("GET", f"/api/v1/games/{created['id']}")["status"] == "finished"
    for said in outputs:  # every seat moved, and its moves were taken
        assert " 200" in said, said
