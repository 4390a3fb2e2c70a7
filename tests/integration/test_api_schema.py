"""The API keeps its own OpenAPI document (contract §3): schemathesis fuzzes every operation in process.

Checks (schemathesis 4.x defaults of `call_and_validate`): no 5xx, status codes, content types, headers
and bodies as documented, invalid input refused, a 405 with its Allow header. Half the cases aim their
`game_id` at a real game in progress and carry one of its tokens (tests/integration/fuzz_support.py),
so that the fuzzer reaches the 200 answers and not only the 404s. This run is on the in-memory store;
test_api_fuzz_stores.py fuzzes a SQLite file and PostgreSQL, where an integer overflow reaches a driver.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from .api_support import API, TEAMS_NSEW, bearer, create_stacked, play
from .fuzz_support import HANDS, FuzzTarget, examples

TARGET = FuzzTarget("memory://")
APP, schema = TARGET.app, TARGET.schema


@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_every_operation_answers_as_its_openapi_document_says(case):
    case.call_and_validate()


# ---------------------------------------------------------------- the success answers, one known-good request each

RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example3-06-revised.json"


def fresh_table() -> tuple:
    """A new game in APP where North attacked and disputed it: South is to act, dispute 1 is open."""
    client = APP.test_client()
    table = create_stacked(client, HANDS, TEAMS_NSEW)
    first = play(client, table, {"type": "attack", "cards": ["5S", "5H"]}, seat=0)
    version = first["events"][0]["version"]
    filed = client.post(f"{table.url}/disputes", headers=table.seat(0), json={"version": version, "claim": "early"})
    assert filed.status_code == 201
    table.receipt = first["receipt"]
    return table, version


GOOD = {  # operation: (caller, query, body, expected status); caller is a seat number, "referee" or None
    "POST /api/v1/games": (None, None, {"game": "el-royale", "players": [{"name": "North"}, {"name": "South"}]}, 201),
    "POST /api/v1/records": (None, None, "record", 201),
    "GET /api/v1/games": (None, {"status": "in_progress"}, None, 200),
    "GET /api/v1/games/{game_id}": (None, None, None, 200),
    "GET /api/v1/games/{game_id}/view": (2, None, None, 200),
    "POST /api/v1/games/{game_id}/moves": (2, None, {"type": "pass"}, 200),
    "GET /api/v1/games/{game_id}/events": (2, {"after": 1}, None, 200),
    "GET /api/v1/games/{game_id}/replay": (0, {"version": "disputed"}, None, 200),
    "GET /api/v1/games/{game_id}/audit": ("referee", None, None, 200),
    "GET /api/v1/games/{game_id}/audit/verify": (None, None, None, 200),
    "POST /api/v1/games/{game_id}/disputes": (1, None, {"version": "disputed", "claim": "too fast"}, 201),
    "POST /api/v1/games/{game_id}/disputes/{number}/ruling":
        ("referee", None, {"decision": "upheld", "remedy": "rewind", "note": "replay it"}, 200),
    "GET /api/v1/games/{game_id}/record": ("referee", None, None, 200),
    "GET /api/v1/keys": (None, None, None, 200),
    "GET /api/v1/checkpoints": (None, {"after": 0, "limit": 5}, None, 200),
    "POST /api/v1/receipts/verify": (None, None, "receipt", 200),
    "GET /api/v1/health": (None, None, None, 200),
    "POST /api/v1/games/{game_id}/name": (1, None, {"name": "Boreas"}, 200),
    "GET /api/v1/games/{game_id}/stream": (1, {"after": 1}, None, 200),
    "POST /api/v1/games/{game_id}/bot": (3, None, {"bot": "random"}, 201),
    "DELETE /api/v1/games/{game_id}/bot": (3, None, None, 200),  # after the seat was handed to a bot (below)
    "POST /api/v1/games/{game_id}/analysis": ("referee", None, {"seat": 0, "samples": 4}, 202),
    "GET /api/v1/games/{game_id}/analysis/{job_id}": ("referee", None, None, 200),  # a job started below
    "DELETE /api/v1/games/{game_id}/analysis/{job_id}": ("referee", None, None, 200),  # cancelled by its referee
    "GET /api/v1/games/{game_id}/positions": (0, None, None, 200),
    "GET /api/v1/log/checkpoint": (None, None, None, 200),
    "GET /api/v1/log/key": (None, None, None, 200),
    "GET /api/v1/log/inclusion": (None, {"game": "game", "version": "leaf"}, None, 200),  # the table's created leaf
    "GET /api/v1/log/consistency": (None, {"old": 1, "new": "published"}, None, 200),
    "POST /api/v1/log/proofs": (None, None, "receipt", 200),  # once its leaf is appended and published (below)
    "GET /api/v1/log/tile/{tile}": (None, None, None, 200),  # the first level-0 tile, partial or full (below)
}


def test_every_documented_operation_has_a_known_good_request():
    """Each operation of the OpenAPI document has a request here that it answers with success."""
    from .test_api_study_schema import STUDY_GOOD
    from .test_api_tournament_schema import TOURNAMENT_GOOD

    assert set(GOOD) | set(TOURNAMENT_GOOD) | set(STUDY_GOOD) | {"GET /api/v1/openapi.json"} >= {op.label for op in (r.ok() for r in schema.get_all_operations())}


@pytest.mark.parametrize("label", sorted(GOOD))
def test_a_good_request_gets_the_documented_success_answer(label):
    caller, query, body, status = GOOD[label]
    table, version = fresh_table()
    if label.startswith("DELETE") and label.endswith("/bot"):
        assert APP.test_client().post(f"{table.url}/bot", json={"bot": "random"}, headers=table.seat(3)).status_code == 201
    operation = schema.find_operation_by_label(label)
    log = APP.extensions["arbiter"].evidence.transparency
    if label == "POST /api/v1/log/proofs":  # the move's version is no leaf: asked once, a leaf is appended for it
        assert APP.test_client().post(f"{API}/log/proofs", json=table.receipt).status_code == 202
    log.publish()  # every leaf so far in a published checkpoint
    leaf = APP.extensions["arbiter"].evidence.checkpoints(game=table.id)[0]["version"]
    marks = {"disputed": version, "game": table.id, "leaf": leaf, "published": log.latest().size}
    fill = lambda d: {k: marks.get(v, v) if isinstance(v, str) else v for k, v in d.items()}  # noqa: E731
    params = {"game_id": table.id, "number": 1} if "{game_id}" in label else {}
    if label.endswith("/analysis/{job_id}"):
        started = APP.test_client().post(f"{table.url}/analysis", json={"seat": 0, "samples": 4}, headers=table.referee)
        assert started.status_code == 202, started.get_data(as_text=True)
        params["job_id"] = started.get_json()["id"]
    if label.endswith("/tile/{tile}"):
        size = log.latest().size
        params["tile"] = "0/000" if size >= 256 else f"0/000.p/{size}"
    params = {k: v for k, v in params.items() if "{" + k + "}" in label}
    headers = {} if caller is None else bearer(table.referee_token if caller == "referee" else table.seat_tokens[caller])
    kwargs = {"path_parameters": params, "headers": headers}
    if query is not None:
        kwargs["query"] = fill(query)
    if body == "record":
        kwargs["body"] = json.loads(RECORD.read_text())
    elif body == "receipt":  # the receipt of North's move in this fresh table
        kwargs["body"] = table.receipt
    elif body is not None:
        kwargs["body"] = fill(body)
    response = operation.Case(**kwargs).call_and_validate()
    assert response.status_code == status, response.text[:300]


def test_the_openapi_document_describes_the_live_stream_and_the_health_check():
    """The routes the app serves outside the games blueprint are in the document too: the event stream (text/event-stream,
    resumable with `after` or Last-Event-ID) and /health."""
    document = APP.test_client().get(f"{API}/openapi.json").get_json()
    stream = document["paths"]["/api/v1/games/{game_id}/stream"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert {p["name"] for p in stream["parameters"]} >= {"after", "Last-Event-ID"}
    assert {"401", "403", "404"} <= set(stream["responses"])
    assert "200" in document["paths"]["/api/v1/health"]["get"]["responses"]
