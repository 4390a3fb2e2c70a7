"""The standings' legend on the tournament page is the ranking's own order (issue 35: "ranked by matchpoints;
tie-breaks: Buchholz, …" while points broke the tie first), and the API's standings carry that order."""

from __future__ import annotations

import re

import pytest

from api.app import create_app


@pytest.mark.parametrize("duplicate, legend", [
    (True, "ranked by matchpoints; tie-breaks: points, Buchholz, head-to-head, score"),
    (False, "ranked by points; tie-breaks: Buchholz, head-to-head, score")])
def test_the_standings_legend_names_the_tie_breaks_in_the_order_the_ranking_applies_them(tmp_path, duplicate, legend):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    client = app.test_client()
    created = client.post("/api/v1/tournaments", json={
        "name": "Legend", "game": "small-battle", "players": [{"name": n} for n in ("Nia", "Otto", "Pia", "Quin")],
        "format": "round-robin", "duplicate": duplicate}).get_json()
    order = client.get(f"/api/v1/tournaments/{created['id']}").get_json()["standings"]["order"]
    assert order[0] == ("matchpoints" if duplicate else "points") and order[-2:] == ["head_to_head", "score"]
    page = client.get(f"/tournaments/{created['id']}").get_data(as_text=True)
    shown = re.search(r'<small id="standings-legend">\((.*?)\)</small>', page, re.S)
    assert shown and " ".join(shown.group(1).split()) == legend
