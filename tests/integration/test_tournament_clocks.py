"""A tournament's time control and spectator delay reach every game it creates, and its page shows each seat's
thinking time in words (minutes:seconds, who is thinking), never the clock's raw JSON."""

from __future__ import annotations

import re

from api.app import create_app


def test_a_tournament_passes_its_clock_settings_to_its_games_and_its_page_shows_each_seats_time(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    client = app.test_client()
    created = client.post("/api/v1/tournaments", json={
        "name": "Blitz", "game": "small-battle", "players": [{"name": "Ann"}, {"name": "Bob"}], "format": "round-robin",
        "time_control": {"game_seconds": 300}, "spectator_delay": {"moves": 2}}).get_json()
    token = created["director_token"]
    started = client.post(f"/api/v1/tournaments/{created['id']}/rounds", headers={"Authorization": f"Bearer {token}"})
    assert started.status_code == 201, started.get_json()
    view = client.get(f"/api/v1/tournaments/{created['id']}").get_json()
    game = view["rounds"][0]["tables"][0]["games"][0]
    public = client.get(f"/api/v1/games/{game['game_id']}").get_json()
    assert public["clock"]["time_control"] == {"game_seconds": 300}
    assert public["spectator_delay"]["moves"] == 2
    page = client.get(f"/tournaments/{created['id']}").get_data(as_text=True)
    clock = re.search(r'<span class="clock[^"]*"[^>]*>(.*?)</span>\s*</td>', page, re.S)
    assert clock, "the tournament page shows no clock"
    text = re.sub(r"<[^>]+>", "", clock.group(1))
    assert re.search(r"Ann \d+:\d\d left", text) and re.search(r"Bob \d+:\d\d left", text), text  # the game's time left
    assert "thinking" in text and "{" not in text, text
