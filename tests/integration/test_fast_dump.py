"""The move route's answer is dumped by api.http.fast_dump, not by marshmallow: its bytes must be exactly those of
flask-smorest's `MoveResult().dump` + `jsonify` for every answer, over random games of every registered game."""

from __future__ import annotations

import json
import random
import tempfile

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings
from marshmallow import Schema, fields

from api import create_app
from api.http import schemas as s
from api.http.fast_dump import Unsupported, compile_dump
from domain.autoplay import pick_move
from domain.games import DECIDERS
from tests.integration.test_auto_pass_service import HANDS
from tests.support import stacked_deck
from tests.unit.test_auto_pass import EMPTYING



def _seats(game: str) -> int:
    """The fewest seats a game takes (2 to 6) under its default options."""
    for n in range(2, 7):
        try:
            DECIDERS[game].configure({}, [{"name": f"P{i}"} for i in range(n)], None, None)
            return n
        except Exception:  # noqa: BLE001 - not that many seats
            continue
    raise AssertionError(f"{game} takes no table of 2 to 6 seats")


TABLES = [("el-royale", {"edition": "revised"}, 4), ("el-royale", {"edition": "revised", "auto_pass": True}, 3),
          ("el-royale", {"edition": "classic"}, 2)] + [(g, {}, _seats(g)) for g in DECIDERS if g != "el-royale"]


def _play(table: tuple, seed: int, moves: int, keys: float, clock: bool, answers: list | None = None) -> int:
    """Play a random game over HTTP; each answer's bytes against marshmallow's dump of the facade's answer (kept in
    `answers`)."""
    game, options, n = table
    app = create_app({"DATABASE_URL": "memory://", "KEY_FILE": f"{tempfile.mkdtemp()}/key", "CHECKPOINT_EVERY": 3})
    facade = app.extensions["arbiter"]
    answers = [] if answers is None else answers
    move_of_facade = facade.play.move
    facade.play.move = lambda *a, **k: answers.append(move_of_facade(*a, **k)) or answers[-1]
    client = app.test_client()
    spec = {"game": game, "options": options, "players": [{"name": f"Sé{i}"} for i in range(n)],
            "seed": f"{seed:08x}"}
    if clock:
        spec["time_control"] = {"move_seconds": 1}
    created = client.post("/api/v1/games", json=spec)
    assert created.status_code == 201, created.get_json()
    gid, tokens = created.get_json()["id"], [x["token"] for x in created.get_json()["seats"]]
    rng = random.Random(seed)
    checked = 0
    for _ in range(moves):
        g = facade.app.game(gid)
        if g.outcome.is_over:
            break
        move = pick_move(list(g.decider.legal_moves(g.state)), rng)
        body = {k: v for k, v in g.decider.format_move(move).items() if k != "seat"}
        headers = {"Authorization": f"Bearer {tokens[move['seat']]}"}
        repeat = rng.random() < keys
        if repeat:
            headers["Idempotency-Key"] = f"k{checked}"
        for _ in range(2 if repeat else 1):  # the second answer is the replayed one
            answer = client.post(f"/api/v1/games/{gid}/moves", json=body, headers=headers)
            assert answer.status_code == 200, answer.get_json()
            with app.app_context():
                expected = app.json.response(s.MoveResult().dump(answers[-1])).get_data()
            assert answer.get_data() == expected
            assert answer.mimetype == "application/json"
            checked += 1
    facade.app.close()
    return checked


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1), keys=st.sampled_from([0.0, 0.3]),
       clock=st.booleans())
def test_a_move_answer_has_the_bytes_marshmallow_would_give(table, seed, keys, clock):
    assert _play(table, seed, 40, keys, clock) > 0


def test_a_whole_game_to_its_end_answers_the_same_bytes():
    answers: list = []
    assert _play(("el-royale", {"edition": "revised", "auto_pass": True}, 4), 2, 3000, 0.0, False, answers) > 500
    assert answers[-1]["events"][-1]["type"] == "seed_revealed"


def test_an_automatic_pass_is_answered_with_the_same_bytes(tmp_path):
    """The facade marks a forced pass `automatic`, a key MoveResult's Event schema does not declare: dropped by both."""
    app = create_app({"DATABASE_URL": "memory://", "KEY_FILE": str(tmp_path / "key")})
    facade = app.extensions["arbiter"]
    answers: list = []
    move_of_facade = facade.play.move
    facade.play.move = lambda *a, **k: answers.append(move_of_facade(*a, **k)) or answers[-1]
    client = app.test_client()
    created = client.post("/api/v1/games", json={
        "game": "el-royale", "options": {"edition": "revised", "auto_pass": True}, "players": [{"name": "Ann"}, {"name": "Bob"}],
        "seed": "00ff", "deck": stacked_deck(HANDS), "dealer": 0, "starter": 0}).get_json()
    for seat, kind, cards in EMPTYING:
        body = {"type": kind} | ({"cards": cards} if cards else {})
        answer = client.post(f"/api/v1/games/{created['id']}/moves", json=body,
                             headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"})
        with app.app_context():
            assert answer.get_data() == app.json.response(s.MoveResult().dump(answers[-1])).get_data()
    assert any(e.get("automatic") for e in answers[-1]["events"])
    assert b"automatic" not in answer.get_data()
    facade.app.close()


class _Inner(Schema):
    text = fields.String()
    n = fields.Integer()


class _Outer(Schema):
    flag = fields.Boolean()
    data = fields.Dict()
    inner = fields.Nested(_Inner)
    many = fields.List(fields.Nested(_Inner))
    names = fields.List(fields.String())


@pytest.mark.parametrize("obj", [
    {"flag": 1, "data": {"a": [1]}, "inner": {"text": 5, "n": "7", "extra": 1}, "many": [{"n": 2.9}, {}], "names": [b"x", 3, None]},
    {"flag": None, "data": None, "inner": None, "many": None, "names": None, "unknown": "dropped"},
    {},
])
def test_the_compiled_dump_equals_marshmallows_on_odd_values(obj):
    assert compile_dump(_Outer())(obj) == _Outer().dump(obj)
    assert json.dumps(compile_dump(_Outer())(obj)) == json.dumps(_Outer().dump(obj))


def test_a_schema_it_cannot_copy_exactly_is_refused_when_compiled():
    class Renamed(Schema):
        x = fields.String(data_key="y")

    class Dated(Schema):
        at = fields.DateTime()

    for schema in (Renamed(), Dated()):
        with pytest.raises(Unsupported):
            compile_dump(schema)
