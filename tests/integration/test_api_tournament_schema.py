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
    "POST /api/v1/tournaments/{tournament_id}/players": (True, {"name": "Cy"}, 201),
    "POST /api/v1/tournaments/{tournament_id}/rounds": (True, None, 201),
    "GET /api/v1/tournaments/{tournament_id}/standings": (False, None, 200),
    "GET /api/v1/tournaments/{tournament_id}/links": (True, None, 200),
    "GET /api/v1/tournaments/{tournament_id}/bundle": (True, None, 200),
}


@pytest.mark.parametrize("label", sorted(TOURNAMENT_GOOD))
def test_a_good_tournament_request_gets_the_documented_success_answer(label):
    director, body, status = TOURNAMENT_GOOD[label]
    created = APP.test_client().post("/api/v1/tournaments", json={"name": "T", "game": "small-battle",
                                                                   "players": [{"name": "A"}, {"name": "B"}],
                                                                   "format": "round-robin"}).get_json()
    kwargs = {"path_parameters": {"tournament_id": created["id"]} if "{tournament_id}" in label else {}}
    if director:
        kwargs["headers"] = {"Authorization": f"Bearer {created['director_token']}"}
    if body is not None:
        kwargs["body"] = body
    response = schema.find_operation_by_label(label).Case(**kwargs).call_and_validate()
    assert response.status_code == status, response.text[:300]
