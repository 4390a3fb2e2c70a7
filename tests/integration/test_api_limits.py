"""Bad input never becomes a 500: bounded integers and nesting in bodies, bounded query integers, bound tokens.

Bodies are read within domain.json_limits (integers at most 2^53 - 1, 32 levels of nesting), query
positions within 0..MAX_POSITION (2^31 - 1), on a SQLite file and on PostgreSQL as well as in memory
(an overflow used to reach the database driver). Every refusal is a problem naming the field.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api import create_app
from service.bounds import MAX_POSITION

from .api_support import API, CheckedClient, assert_problem, bearer, create, players

BIG = "1" * 5000  # more digits than Python reads (4,300): used to escape as ValueError
DEEP = "[" * 5000 + "]" * 5000  # deeper than Python's parser recurses: used to escape as RecursionError
RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example1-00-classic.json"


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def client(request, stores):
    """A checked test client (no traceback in any answer) of an app on each kind of store."""
    app = create_app({"DATABASE_URL": stores.url(request.param), "STREAM_SECONDS": 1})
    app.test_client_class = CheckedClient
    try:
        yield app.test_client()
    finally:
        app.extensions["arbiter"].app.close()


def post_text(client, path: str, text: str, **kw):
    return client.post(f"{API}{path}", data=text, content_type="application/json", **kw)


def create_body(extra: str) -> str:
    body = json.dumps({"game": "el-royale", "players": players(2)})
    return body[:-1] + ", " + extra + "}"


def record_text(extra: str) -> str:
    return RECORD.read_text().rstrip().rstrip("}") + ", " + extra + "}"


def test_a_game_body_with_a_5000_digit_integer_is_422_naming_the_field(client):
    problem = assert_problem(post_text(client, "/games", create_body(f'"dealer": {BIG}')), 422)
    assert problem["field"] == "dealer" and "out of range" in problem["detail"]


def test_a_game_body_with_an_integer_beyond_2_53_is_422_naming_the_field(client):
    problem = assert_problem(post_text(client, "/games", create_body(f'"options": {{"edition": "revised", "limit": {2**53}}}')), 422)
    assert problem["field"] == "options.limit"


def test_a_game_body_nested_5000_deep_is_refused_without_a_500(client):
    problem = assert_problem(post_text(client, "/games", create_body(f'"options": {{"a": {DEEP}}}')), 422)
    assert "nested too deeply" in problem["detail"]


def test_a_game_body_nested_40_deep_is_422_naming_where(client):
    problem = assert_problem(post_text(client, "/games", create_body('"options": {"a": ' + "[" * 40 + "]" * 40 + "}")), 422)
    assert problem["field"].startswith("options.a[0]") and "32 levels" in problem["detail"]


def test_a_game_body_holding_nan_is_400_not_json(client):
    problem = assert_problem(post_text(client, "/games", create_body('"dealer": NaN')), 400)
    assert "not JSON" in problem["detail"]


def test_a_record_with_a_5000_digit_integer_is_422_naming_the_field(client):
    problem = assert_problem(post_text(client, "/records", record_text(f'"starter": {BIG}')), 422)
    assert problem["field"] == "starter"


def test_a_record_nested_5000_deep_is_refused_without_a_500(client):
    problem = assert_problem(post_text(client, "/records", record_text(f'"outcomes": {{"pile": {DEEP}}}')), 422)
    assert "nested too deeply" in problem["detail"]


def test_a_move_with_a_huge_expected_version_is_422_naming_it(client):
    table = create(client, 2)
    body = f'{{"type": "pass", "expected_version": {BIG}}}'
    problem = assert_problem(post_text(client, f"/games/{table.id}/moves", body, headers=table.seat(0)), 422)
    assert problem["field"] == "expected_version"


def test_a_dispute_against_a_huge_version_is_422_naming_it(client):
    table = create(client, 2)
    body = f'{{"version": {2**63}, "claim": "no"}}'
    problem = assert_problem(post_text(client, f"/games/{table.id}/disputes", body, headers=table.seat(0)), 422)
    assert problem["field"] == "version"


@pytest.mark.parametrize("value", [2**63, 2**31, -1, BIG])
def test_a_catalogue_offset_out_of_range_is_422_naming_it(client, value):
    problem = assert_problem(client.get(f"{API}/games?offset={value}"), 422)
    assert problem["field"] == "offset"


def test_the_largest_catalogue_offset_is_an_empty_page(client):
    response = client.get(f"{API}/games?offset={MAX_POSITION}")
    assert response.status_code == 200 and response.get_json() == []


@pytest.mark.parametrize("value", [2**63, 2**31, BIG])
def test_an_events_after_out_of_range_is_422_naming_it(client, value):
    table = create(client, 2)
    problem = assert_problem(client.get(f"{table.url}/events?after={value}", headers=table.referee), 422)
    assert problem["field"] == "after"


@pytest.mark.parametrize("value", [2**63, 2**31, BIG])
def test_a_replay_version_out_of_range_is_422_naming_it(client, value):
    table = create(client, 2)
    problem = assert_problem(client.get(f"{table.url}/replay?version={value}", headers=table.referee), 422)
    assert problem["field"] == "version"


def test_the_largest_replay_version_is_404_not_reached(client):
    table = create(client, 2)
    assert_problem(client.get(f"{table.url}/replay?version={MAX_POSITION}", headers=table.referee), 404)


def test_a_verify_length_out_of_range_is_422_naming_it(client):
    table = create(client, 2)
    problem = assert_problem(client.get(f"{table.url}/audit/verify?length={2**63}"), 422)
    assert problem["field"] == "length"


def test_a_stream_resumed_after_a_huge_last_event_id_is_clamped_and_sends_no_backlog(client):
    """docs/api.md's limits table: Last-Event-ID is clamped to 0 to 2^31 - 1 (a 2^63 once was a 422)."""
    table = create(client, 2)
    response = client.get(f"{table.url}/stream", headers={**table.referee, "Last-Event-ID": str(2**63)})
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert "\nid: " not in "\n" + response.get_data(as_text=True)


def test_a_body_over_256_kib_is_413_problem_saying_the_limit(client):
    problem = assert_problem(post_text(client, "/games", create_body('"pad": "' + "x" * 300_000 + '"')), 413)
    assert "256 KiB" in problem["detail"]


def test_another_game_s_id_before_this_game_s_seat_secret_is_refused(client):
    """A token is bound to its game: game A's id with game B's seat secret is no token of B (or of A)."""
    a, b = create(client, 2), create(client, 2)
    b_secret = b.seat_tokens[1].split(".", 1)[1]
    mixed = f"{a.id.replace('-', '')}.{b_secret}"
    for table in (a, b):
        response = client.get(f"{table.url}/view", headers=bearer(mixed))
        problem = assert_problem(response, response.status_code)
        assert response.status_code in (401, 403), problem
        assert b_secret not in json.dumps(problem)
    moved = client.post(f"{b.url}/moves", json={"type": "say", "text": "hello"}, headers=bearer(mixed))
    assert moved.status_code in (401, 403)
    assert client.get(f"{b.url}/events", headers=b.referee).get_json()[-1]["type"] != "said"


def test_a_secret_alone_without_its_game_prefix_is_refused(client):
    table = create(client, 2)
    secret = table.seat_tokens[0].split(".", 1)[1]
    assert_problem(client.get(f"{table.url}/view", headers=bearer(f".{secret}")), 401)


def test_a_player_name_holding_u0000_is_422_and_the_catalogue_still_answers(client):
    body = json.dumps({"game": "el-royale", "players": [{"name": "North\u0000"}, {"name": "South"}]})
    problem = assert_problem(post_text(client, "/games", body), 422)
    assert problem["field"] == "players[0].name"
    assert client.get(f"{API}/games").status_code == 200


def test_a_string_with_an_unpaired_surrogate_is_422_naming_the_field(client):
    problem = assert_problem(post_text(client, "/games", create_body('"seed": "\\ud800"')), 422)
    assert problem["field"] == "seed"


def test_a_catalogue_filter_naming_no_game_is_422(client):
    problem = assert_problem(client.get(f"{API}/games?game=x%00y"), 422)
    assert problem["field"] == "game"


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_json_body_sent_under_another_content_type_is_415_naming_the_content_type(client, content_type):
    """webargs reads no body then, and the answer used to be "game: Missing data for required field"."""
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(f"{API}/games", data=json.dumps({"game": "el-royale", "players": players(2)}), headers=headers)
    problem = assert_problem(response, 415)
    assert problem["field"] == "Content-Type" and "application/json" in problem["detail"]
    assert (content_type or "without a Content-Type") in problem["detail"]
    assert client.get(f"{API}/games").get_json() == [], "nothing was created"
