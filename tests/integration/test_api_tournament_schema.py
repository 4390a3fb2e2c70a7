"""The tournament routes answer a known-good request each as the OpenAPI document says (schemathesis validates the
status, the content type and the body); the fuzzing of every operation is test_api_schema.py's."""

from __future__ import annotations

import pytest

from .test_api_schema import APP, schema

TOURNAMENT_GOOD = {  # operation: (director token?, body, expected status)
    "GET /api/v1/tournaments": (False, None, 200),
    "POST /api/v1/tournaments": (False, {"name": "Club", "game": "small-battle", "players": [{"name": "A"}, {"name": "B"}],
                                         "format": "round-robin"}, 201),
    "GET /api/v1/tournaments/{tournament_id}": (False, None, 200),
    "PATCH /api/v1/tournaments/{tournament_id}": (True, {"name": "Renamed", "rounds": 2}, 200),
    "DELETE /api/v1/tournaments/{tournament_id}": (True, None, 204),
    "POST /api/v1/tournaments/{tournament_id}/players": (True, {"name": "Cy"}, 201),
    "POST /api/v1/tournaments/{tournament_id}/rounds": (True, None, 201),
    "GET /api/v1/tournaments/{tournament_id}/standings": (False, None, 200),
    "GET /api/v1/tournaments/{tournament_id}/links": (True, None, 200),
    "GET /api/v1/tournaments/{tournament_id}/bundle": (True, None, 200),
    "POST /api/v1/tournaments/{tournament_id}/boards/{board}/release": (True, None, 200),  # duplicate, round 1 on
    # a Swiss round 2 paired on a round-1 result a ruling then reopened (flagged_swiss, below)
    "POST /api/v1/tournaments/{tournament_id}/rounds/{number}/review": (True, {"decision": "keep", "note": "kept"}, 200),
    # the fair-play report's job (a tournament with no finished game yet: the job is found or started all the same)
    "GET /api/v1/tournaments/{tournament_id}/fairplay": (True, None, 200),
    "POST /api/v1/tournaments/{tournament_id}/fairplay": (True, None, 202),
    "DELETE /api/v1/tournaments/{tournament_id}/fairplay": (True, None, 200),
}


def flagged_swiss(client) -> dict:
    """A Swiss tournament whose round 2 was paired on a round-1 result a ruling's rewind has since reopened."""
    from uuid import UUID

    from tests.tournament_support import finish

    arbiter = APP.extensions["arbiter"]
    created = client.post("/api/v1/tournaments", json={"name": "T", "game": "small-battle", "format": "swiss", "rounds": 2,
                                                       "players": [{"name": n} for n in "ABCD"]}).get_json()
    director = {"Authorization": f"Bearer {created['director_token']}"}
    url = f"/api/v1/tournaments/{created['id']}"
    for number in (1, 2):
        assert client.post(f"{url}/rounds", headers=director).status_code == 201
        if number == 1:
            for g in client.get(f"{url}/links", headers=director).get_json()["games"]:
                finish(arbiter.app, g["game_id"])
    game = next(g for g in client.get(f"{url}/links", headers=director).get_json()["games"] if g["round"] == 1)
    last = arbiter.app.game(UUID(game["game_id"])).move_versions[-1]
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    assert client.post(f"/api/v1/games/{game['game_id']}/disputes", headers=seat,
                       json={"version": last, "claim": "no"}).status_code == 201
    ruled = client.post(f"/api/v1/games/{game['game_id']}/disputes/1/ruling",
                        headers={"Authorization": f"Bearer {game['referee_token']}"},
                        json={"decision": "upheld", "remedy": "rewind", "note": "again"})
    assert ruled.status_code == 200, ruled.get_json()
    return created


@pytest.mark.parametrize("label", sorted(TOURNAMENT_GOOD))
def test_a_good_tournament_request_gets_the_documented_success_answer(label):
    director, body, status = TOURNAMENT_GOOD[label]
    board = "{board}" in label
    client = APP.test_client()
    if label.endswith("/review"):
        created = flagged_swiss(client)
    else:
        created = client.post("/api/v1/tournaments", json={"name": "T", "game": "small-battle", "duplicate": board,
                                                           "players": [{"name": n} for n in "ABCD"[:4 if board else 2]],
                                                           "format": "round-robin"}).get_json()
    kwargs = {"path_parameters": {"tournament_id": created["id"]} if "{tournament_id}" in label else {}}
    if label.endswith("/review"):
        kwargs["path_parameters"]["number"] = 2
    if board:
        client.post(f"/api/v1/tournaments/{created['id']}/rounds",
                    headers={"Authorization": f"Bearer {created['director_token']}"})
        kwargs["path_parameters"]["board"] = "1.1"
    if director:
        kwargs["headers"] = {"Authorization": f"Bearer {created['director_token']}"}
    if body is not None:
        kwargs["body"] = body
    response = schema.find_operation_by_label(label).Case(**kwargs).call_and_validate()
    assert response.status_code == status, response.text[:300]


DIRECTOR_ONLY = ["POST /players", "POST /rounds", "GET /links", "GET /bundle", "PATCH ", "DELETE "]


@pytest.mark.parametrize("route", DIRECTOR_ONLY)
@pytest.mark.parametrize("caller, status", [("none", {401, 403}), ("other_director", {403}), ("forged", {401}),
                                            ("director", {200, 201, 204})])
def test_director_routes_answer_each_kind_of_caller(route, caller, status):
    client = APP.test_client()
    spec = {"name": "T", "game": "small-battle", "players": [{"name": "A"}, {"name": "B"}], "format": "round-robin"}
    mine, other = (client.post("/api/v1/tournaments", json=spec).get_json() for _ in range(2))
    token = {"none": None, "other_director": other["director_token"], "director": mine["director_token"],
             "forged": mine["director_token"].split(".")[0] + ".forged"}[caller]
    method, path = route.split(" ")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"name": "Cy"} if path == "/players" else {"name": "Renamed"} if method == "PATCH" else None
    response = client.open(f"/api/v1/tournaments/{mine['id']}{path}", method=method, headers=headers, json=body)
    if caller == "none" and path == "/bundle":
        status = {403}  # nobody's but the director's while the tournament runs
    assert response.status_code in status, response.get_data(as_text=True)[:200]
    if response.status_code >= 400:
        assert response.get_json()["detail"]
        assert mine["director_token"].split(".")[1] not in response.get_data(as_text=True)


def test_the_api_takes_auto_rounds_and_answers_the_crosstable_and_whether_a_round_is_over():
    client = APP.test_client()
    answer = client.post("/api/v1/tournaments", json={"name": "T", "game": "small-battle", "format": "round-robin",
                                                      "players": [{"name": "A"}, {"name": "B"}], "auto_rounds": True})
    assert answer.status_code == 201, answer.get_json()
    body = client.get(f"/api/v1/tournaments/{answer.get_json()['id']}").get_json()
    assert body["auto_rounds"] is True and body["between_rounds"] is False
    assert [r["name"] for r in body["crosstable"]] == ["A", "B"] and body["crosstable"][0]["cells"] == [None, []]
