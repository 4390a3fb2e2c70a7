"""One command, one check, whatever the road: the JSON API and the table's form build a move the same way
(PlayMove.from_body), and a bad `expected_version` or idempotency key meets the command's one refusal, naming the
field, whether it came in the body, in the `Idempotency-Key` header or from the page."""

from __future__ import annotations

import json
from html import unescape

import pytest

from service.errors import BadInput
from service.play.commands import PlayMove

from .api_support import assert_problem, create, seat_view, to_act


def legal_move(client, table) -> tuple[int, dict]:
    """The seat to act and a move it may make (its view's first legal move, without the seat)."""
    seat = to_act(client, table)
    move = seat_view(client, table, seat)["table"]["legal_moves"][0]
    return seat, {k: v for k, v in move.items() if k != "seat"}


def command_refusal(command: PlayMove) -> BadInput:
    """What the command itself says of a malformed move (the refusal every road must give)."""
    with pytest.raises(BadInput) as refused:
        command.checked(0)
    return refused.value


@pytest.mark.parametrize("version", ["3", 1.5, True, [3]], ids=["text", "fraction", "boolean", "list"])
def test_a_malformed_expected_version_gets_the_command_s_refusal_over_the_api(client, version):
    table = create(client, 2)
    expected = command_refusal(PlayMove.from_body("g", {"type": "pass", "expected_version": version}))
    problem = assert_problem(client.post(f"{table.url}/moves", headers=table.seat(to_act(client, table)),
                                         json={"type": "pass", "expected_version": version}), 422)
    assert (problem["field"], problem["detail"]) == ("expected_version", expected.detail)


@pytest.mark.parametrize("body, header", [
    ({"idempotency_key": ""}, None),
    ({"idempotency_key": 7}, None),
    ({"idempotency_key": "k" * 201}, None),
    ({}, "k" * 201),
], ids=["empty-in-body", "number-in-body", "long-in-body", "long-in-header"])
def test_a_malformed_idempotency_key_gets_one_refusal_from_the_body_or_the_header(client, body, header):
    table = create(client, 2)
    expected = command_refusal(PlayMove.from_body("g", {"type": "pass", **body}, header))
    headers = {**table.seat(to_act(client, table)), **({"Idempotency-Key": header} if header else {})}
    problem = assert_problem(client.post(f"{table.url}/moves", headers=headers, json={"type": "pass", **body}), 422)
    assert (problem["field"], problem["detail"]) == ("idempotency_key", expected.detail)


def test_a_key_sent_in_the_header_is_the_same_key_as_in_the_body(client):
    """The command carries the key once: a retry that names it in the body is answered as the first, header, one."""
    table = create(client, 2)
    seat, move = legal_move(client, table)
    first = client.post(f"{table.url}/moves", headers={**table.seat(seat), "Idempotency-Key": "k-1"}, json=move)
    again = client.post(f"{table.url}/moves", headers=table.seat(seat), json={**move, "idempotency_key": "k-1"})
    assert first.status_code == again.status_code == 200, again.get_data(as_text=True)
    assert again.get_json()["replayed"] and again.get_json()["version"] == first.get_json()["version"]


def test_the_table_form_refuses_a_malformed_expected_version_as_the_api_does(client):
    table = create(client, 2)
    seat = to_act(client, table)
    expected = command_refusal(PlayMove.from_body("g", {"type": "pass", "expected_version": "soon"}))
    client.get(f"/join/{table.id}/{table.seat_tokens[seat]}")
    page = client.post(f"/games/{table.id}/act", data={"type": "pass", "expected_version": "soon"})
    assert page.status_code == 422
    assert expected.detail in unescape(page.get_data(as_text=True))


def test_the_table_form_s_version_is_the_move_s_expected_version(client):
    """A stale version in the form is a 409, as over the API; the current one plays the move."""
    table = create(client, 2)
    seat, move = legal_move(client, table)
    client.get(f"/join/{table.id}/{table.seat_tokens[seat]}")
    version = client.get(table.url).get_json()["version"]
    form = {"move": json.dumps(move)}
    assert client.post(f"/games/{table.id}/act", data={**form, "expected_version": "1"}).status_code == 409
    played = client.post(f"/games/{table.id}/act", data={**form, "expected_version": str(version)})
    assert played.status_code == 200 and client.get(table.url).get_json()["version"] > version


@pytest.mark.parametrize("field", ["version", "attempt"])
def test_a_dispute_form_with_a_number_too_long_for_json_is_refused_naming_it(client, field):
    table = create(client, 2)
    client.get(f"/join/{table.id}/{table.seat_tokens[0]}")
    page = client.post(f"/games/{table.id}/disputes", data={field: "9" * 5000, "claim": "no"})
    assert page.status_code == 422
    assert f"{field}:" in unescape(page.get_data(as_text=True))
