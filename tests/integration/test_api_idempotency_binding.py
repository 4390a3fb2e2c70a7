"""An idempotency key is bound to the request it first came with (service.store.idempotency), over HTTP on SQLite
and PostgreSQL: the same move again gets the first answer; another move from the seat is a 422; another seat's same key is its own
naming the key that changes nothing and tells nothing of the first move; the binding is read from the store, so it
holds after the app is started again on the same file."""

from __future__ import annotations

import pytest

from api import create_app

from .api_support import CARD, CheckedClient, Table, assert_problem, create, referee_view, seat_view, to_act

KINDS = ["sqlite", "postgres"]


def _app(url: str):
    app = create_app({"DATABASE_URL": url, "STREAM_SECONDS": 1})
    app.test_client_class = CheckedClient
    return app


@pytest.fixture(params=KINDS)
def url(request, stores):
    return stores.url(request.param)


@pytest.fixture
def client(url):
    app = _app(url)
    try:
        yield app.test_client()
    finally:
        app.extensions["arbiter"].app.close()


def _legal(client, table: Table, seat: int) -> list[dict]:
    """The seat's legal moves now, without the seat (what a client sends)."""
    return [{k: v for k, v in m.items() if k != "seat"} for m in seat_view(client, table, seat)["table"]["legal_moves"]]


def _send(client, table: Table, seat: int, move: dict, key: str, **extra):
    return client.post(f"{table.url}/moves", headers={**table.seat(seat), "Idempotency-Key": key}, json={**move, **extra})


def _everything(client, table: Table) -> tuple:
    """What the store holds, as the referee sees it: the version, and every log entry (refused attempts included)."""
    events = client.get(f"{table.url}/events", headers=table.referee)
    assert events.status_code == 200
    return referee_view(client, table)["version"], events.get_json()


def _played_with_a_key(client) -> tuple[Table, int, dict, dict]:
    """A game whose seat to act played its first legal move with key "k-1": (table, seat, move, answer)."""
    table = create(client, 3, seed="1d3e")
    seat = to_act(client, table)
    move = _legal(client, table, seat)[0]
    answer = _send(client, table, seat, move, "k-1")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return table, seat, move, answer.get_json()


def _refused_for_the_key(response) -> dict:
    problem = assert_problem(response, 422)
    assert problem["field"] == "idempotency_key"
    assert problem["detail"].startswith("idempotency_key:") and "first used for a different request" in problem["detail"]
    return problem


def test_the_same_key_with_the_same_move_gets_the_first_answer(client):
    table, seat, move, first = _played_with_a_key(client)
    before = _everything(client, table)

    again = _send(client, table, seat, move, "k-1")

    assert again.status_code == 200
    assert again.get_json() == {**first, "replayed": True, "receipt": again.get_json()["receipt"]}
    assert not first["replayed"] and again.get_json()["receipt"]["head"] == first["receipt"]["head"]
    assert _everything(client, table) == before


def test_the_same_key_with_another_move_is_refused_naming_the_key_and_changes_nothing(client):
    table, seat, move, _ = _played_with_a_key(client)
    before = _everything(client, table)
    others = [{"type": "say", "text": "a second thought"}]
    if to_act(client, table) == seat:  # the seat still to act: another of its legal moves
        others += [m for m in _legal(client, table, seat) if m != move][:1]

    for other in others:
        _refused_for_the_key(_send(client, table, seat, other, "k-1"))
        _refused_for_the_key(_send(client, table, seat, {"type": "nonsense"}, "k-1"))  # a move that does not parse

    assert _everything(client, table) == before


def test_a_key_is_the_seat_s_own_so_another_seat_sending_it_plays_its_own_move(client):
    table, seat, move, first = _played_with_a_key(client)
    other = to_act(client, table)
    assert other != seat
    theirs = _legal(client, table, other)[0]
    response = _send(client, table, other, theirs, "k-1")
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer["replayed"] is False and answer["version"] > first["version"]
    again = _send(client, table, seat, move, "k-1")  # the first seat's key still answers its own first answer
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    assert again.get_json()["version"] == first["version"]


def test_a_key_bound_to_a_refused_move_refuses_another_move_and_answers_the_same_refusal_again(client):
    table = create(client, 3, seed="1d3e")
    bystander = next(s for s in range(3) if s != to_act(client, table))
    first = _send(client, table, bystander, {"type": "pass"}, "oops")
    refused = assert_problem(first, 422)
    before = _everything(client, table)

    _refused_for_the_key(_send(client, table, bystander, {"type": "say", "text": "sorry"}, "oops"))
    again = assert_problem(_send(client, table, bystander, {"type": "pass"}, "oops"), 422)

    assert again["rule"] == refused["rule"] and again["attempt"] == refused["attempt"]
    assert _everything(client, table) == before


def test_the_same_move_and_key_with_another_expected_version_gets_the_first_answer(client):
    """expected_version is not part of what a key is bound to: a retry that reloaded its view still gets the first
    answer (not a 409, not a second move)."""
    table, seat, move, first = _played_with_a_key(client)
    before = _everything(client, table)
    for expected in (0, first["version"], first["version"] + 5):
        again = _send(client, table, seat, move, "k-1", expected_version=expected)
        assert again.status_code == 200 and again.get_json()["replayed"]
        assert again.get_json()["events"] == first["events"]
    assert _everything(client, table) == before


def test_the_binding_holds_after_the_app_is_started_again_on_the_same_store(url):
    if not url.startswith("sqlite"):
        pytest.skip("the restart is shown on a SQLite file")
    app = _app(url)
    try:
        table, seat, move, first = _played_with_a_key(app.test_client())
    finally:
        app.extensions["arbiter"].app.close()

    app = _app(url)  # a new process's app: nothing kept in memory
    try:
        client = app.test_client()
        before = _everything(client, table)
        _refused_for_the_key(_send(client, table, seat, {"type": "say", "text": "after the restart"}, "k-1"))
        again = _send(client, table, seat, move, "k-1")
        assert again.status_code == 200 and again.get_json()["replayed"]
        assert again.get_json()["events"] == first["events"]
        assert _everything(client, table) == before
    finally:
        app.extensions["arbiter"].app.close()
