"""The study routes answer a known-good request each as the OpenAPI document says (schemathesis validates the
status, the content type and the body); the fuzzing of every operation is test_api_schema.py's."""

from __future__ import annotations

import pytest

from .test_api_schema import APP, fresh_table, schema

STUDY_GOOD = {  # operation: (body, expected status); the caller is the referee of a fresh game still on
    "POST /api/v1/games/{game_id}/studies": ({"version": "disputed", "seat": 2, "seed": "schema"}, 201),
    "GET /api/v1/studies/{study_id}": (None, 200),
    "POST /api/v1/studies/{study_id}/moves": ({"move": {"type": "pass"}}, 200),
    "POST /api/v1/studies/{study_id}/comments": ({"version": 0, "text": "a quiet start"}, 201),
    "GET /api/v1/studies/{study_id}/nodes/{node}": (None, 200),
    "POST /api/v1/studies/{study_id}/nodes/{node}/moves": ({"move": {"type": "pass"}}, 200),
}


@pytest.mark.parametrize("label", sorted(STUDY_GOOD))
def test_a_good_study_request_gets_the_documented_success_answer(label):
    body, status = STUDY_GOOD[label]
    table, version = fresh_table()  # South (seat 2) is to act, and may pass
    headers = {"Authorization": f"Bearer {table.referee_token}"}
    params = {"game_id": table.id}
    if "{study_id}" in label:
        opened = APP.test_client().post(f"{table.url}/studies", json={"version": version, "seat": 2, "seed": "schema"},
                                        headers=headers)
        assert opened.status_code == 201, opened.get_data(as_text=True)
        params = {"study_id": opened.get_json()["id"], **({"node": 0} if "{node}" in label else {})}
    kwargs = {"path_parameters": params, "headers": headers}
    if body is not None:
        kwargs["body"] = {k: (version if v == "disputed" else v) for k, v in body.items()}
    response = schema.find_operation_by_label(label).Case(**kwargs).call_and_validate()
    assert response.status_code == status, response.text[:300]
