"""The replay viewer's positions (GET /api/v1/games/{id}/positions, the replay page's copy) are exactly the replay's
views, one per version, for every viewer and every game: the same redaction as GET /replay?version=N, so a seat's
positions never hold a card it could not see at that version.

Games are random (random bots, refused attempts, talk and disputes: tests/integration/test_replay_page_leaks.py),
stopped after a few steps, while most cards are hidden; the finished case is an El Royale game played to its end.
"""

from __future__ import annotations

import gzip
import json
import random

import pytest

from api import create_app
from domain.games import DECIDERS
from projections.positions import expand, trimmed

from .test_replay_page_leaks import CARD_STRING, cards_in_view, play_randomly, start
from service.play.new_games import ImportRecord


def replays(facade, gid: str, token: str | None, latest: int) -> list[dict]:
    return [trimmed(facade.views.replay(gid, token, v) if token else facade.views.public_replay(gid, v))
            for v in range(1, latest + 1)]


@pytest.mark.parametrize("game", sorted(DECIDERS))
def test_every_viewer_s_positions_are_its_replay_views_and_hold_no_card_it_could_not_see_then(game):
    app = create_app({"DATABASE_URL": "memory://"})
    facade = app.extensions["arbiter"]
    rng = random.Random(f"positions/{game}")
    created = start(facade, game, rng)
    gid = created["id"]
    play_randomly(facade, created, rng, rng.randint(10, 40))
    latest = facade.views.public(gid)["version"]
    assert facade.views.public(gid)["status"] == "in_progress", "a finished game shows every card: nothing to check"
    hidden_somewhere = False
    for token in [s["token"] for s in created["seats"]] + [None, created["referee_token"]]:
        doc = facade.views.positions(gid, token) if token else facade.views.public_positions(gid)
        doc = json.loads(json.dumps(doc))
        views = replays(facade, gid, token, latest)
        assert doc["first"] == 1 and doc["latest"] == latest
        assert expand(doc) == views
        # the document itself, piece by piece: each piece names only cards of the view it belongs to
        assert set(CARD_STRING.findall(json.dumps(doc["view"]))) <= cards_in_view(views[0])
        for version, ops in enumerate(doc["diffs"], start=2):
            named = set(CARD_STRING.findall(json.dumps(ops)))
            assert named <= cards_in_view(views[version - 1]), (game, token and "seat", version, named)
        if token != created["referee_token"]:
            referee = replays(facade, gid, created["referee_token"], latest)
            hidden_somewhere |= any(cards_in_view(r) - cards_in_view(v) for r, v in zip(referee, views))
    assert hidden_somewhere, "no viewer had a hidden card: the redaction was not put to the test"


def test_the_api_route_gzips_the_positions_and_the_page_route_gives_the_browser_s_identity_the_same():
    app = create_app({"DATABASE_URL": "memory://"})
    facade = app.extensions["arbiter"]
    rng = random.Random("positions/http")
    created = start(facade, "el-royale", rng)
    gid, seat = created["id"], created["seats"][1]["token"]
    play_randomly(facade, created, rng, 30)
    expected = json.loads(json.dumps(facade.views.positions(gid, seat)))

    client = app.test_client()
    answer = client.get(f"/api/v1/games/{gid}/positions", headers={"Authorization": f"Bearer {seat}",
                                                                     "Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in answer.headers["Vary"] and "private" in answer.headers["Cache-Control"]
    assert json.loads(gzip.decompress(answer.data)) == expected
    plain = client.get(f"/api/v1/games/{gid}/positions", headers={"Authorization": f"Bearer {seat}"})
    assert "Content-Encoding" not in plain.headers and plain.get_json() == expected

    refused = client.get(f"/api/v1/games/{gid}/positions")  # a game in progress: no token, no replay (as GET /replay)
    assert refused.status_code == 401 and refused.mimetype == "application/problem+json"
    assert client.get(f"/api/v1/games/{gid}/positions", headers={"Authorization": "Bearer nope"}).status_code == 401

    browser = app.test_client()
    assert browser.get(f"/join/{gid}/{seat}").status_code == 302
    assert browser.get(f"/games/{gid}/replay/positions.json").get_json() == expected
    spectator = app.test_client().get(f"/games/{gid}/replay/positions.json").get_json()
    assert spectator == json.loads(json.dumps(facade.views.public_positions(gid)))
    assert "/games/{game_id}/positions" in app.test_client().get("/api/v1/openapi.json").get_data(as_text=True)


def test_a_finished_game_s_positions_show_every_card_as_its_replay_does():
    from service.offline.simulation import make_plan, run

    app = create_app({"DATABASE_URL": "memory://"})
    facade = app.extensions["arbiter"]
    doc, = run(make_plan("small-battle", 2, 1, ("random",), {}, "positions"), 1)
    imported = facade.play.import_record(ImportRecord.from_body(doc))
    gid = imported["id"]
    latest = facade.views.public(gid)["version"]
    assert facade.views.public(gid)["status"] == "finished"
    positions = json.loads(json.dumps(facade.views.public_positions(gid)))
    views = replays(facade, gid, None, latest)
    assert expand(positions) == views
    assert expand(json.loads(json.dumps(facade.views.positions(gid, None)))) == views  # no token, once over: public
    assert expand(json.loads(json.dumps(facade.views.positions(gid, imported["referee_token"])))) == replays(
        facade, gid, imported["referee_token"], latest)
