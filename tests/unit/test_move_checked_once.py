"""A move is checked once and parsed once, whatever the road (service.play.moves, service.play.referee): the JSON
API's body guard is the bounds check of an HTTP body, every other road gets the command's own, and the game's codec
reads a move's cards once per attempt, a keyed move too."""

from __future__ import annotations

import json
from uuid import UUID

import pytest
from werkzeug.datastructures import MultiDict

import service.play.commands as commands_module
import service.play.moves as moves_module
import service.play.referee as referee_module
from api.pages.forms import move_command
from service.errors import BadInput
from service.play.commands import FileDispute, PlayMove, RecordMove
from service.play.new_games import CreateGame
from service.play.referee import Referee
from tests.support import stacked_deck

GAME = "6f1c2b8e-0000-4000-8000-000000000001"
SEED = "5eed" * 8


def counting(monkeypatch, module, name: str) -> list:
    """Replace `module.name` by a wrapper that records each call's arguments; the list of those calls."""
    calls: list = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


@pytest.fixture
def table() -> tuple[Referee, UUID]:
    """A two-seat El Royale game in an in-memory store, seat 0 to act with four nines."""
    app = Referee("memory://")
    hands = [["9C", "9D", "9H", "9S"], ["2C", "3C", "4C", "5C"]]
    created = app.create_game(CreateGame.from_body({"game": "el-royale", "options": {}, "seed": SEED, "dealer": 0,
                                                    "starter": 0, "deck": stacked_deck(hands),
                                                    "players": [{"name": "North"}, {"name": "East"}]}))
    return app, created["game"].id


def test_a_keyed_move_is_parsed_once(monkeypatch, table):
    app, gid = table
    parses = counting(monkeypatch, referee_module, "parse_move")
    move = RecordMove({"type": "attack", "cards": ["9C", "9D", "9H", "9S"]})
    first = app.submit_move(gid, 0, move, idempotency_key="k-1")
    assert len(parses) == 1
    again = app.submit_move(gid, 0, move, idempotency_key="k-1")  # answered again: the same parse compared
    assert len(parses) == 2 and again["replayed"] and again["first_version"] == first["first_version"]


def test_a_keyed_move_with_an_unreadable_card_is_refused_naming_the_card_after_one_parse(monkeypatch, table):
    app, gid = table
    parses = counting(monkeypatch, referee_module, "parse_move")
    with pytest.raises(BadInput) as refused:
        app.submit_move(gid, 0, RecordMove({"type": "attack", "cards": ["9X"]}), idempotency_key="k-2")
    assert refused.value.field == "cards[0]" and len(parses) == 1


def test_a_move_from_a_guarded_body_is_not_bounded_again(monkeypatch):
    bounds = counting(monkeypatch, moves_module, "bounded")
    body = {"type": "attack", "cards": ["8H"], "expected_version": 3, "idempotency_key": "k"}
    PlayMove.from_body(GAME, body, within_bounds=True).checked(0)
    assert bounds == []
    PlayMove.from_body(GAME, body).checked(0)  # the page form's and a bot's road: the command's own check
    assert bounds == [({"type": "attack", "cards": ["8H"]},), ({"expected_version": 3, "idempotency_key": "k"},)]


def test_a_dispute_from_a_guarded_body_is_not_bounded_again(monkeypatch):
    bounds = counting(monkeypatch, commands_module, "bounded")
    FileDispute.from_body(GAME, {"version": 3, "claim": "no"}, within_bounds=True).checked()
    assert bounds == []
    FileDispute.from_body(GAME, {"version": 3, "claim": "no"}).checked()
    assert bounds == [({"version": 3, "claim": "no"},)]


def test_a_header_key_is_bounded_by_the_command_though_the_body_was_guarded():
    """The `Idempotency-Key` header is no part of the body the guard read: it meets the same refusal as anywhere."""
    refusals = []
    for within_bounds in (True, False):
        with pytest.raises(BadInput) as refused:
            PlayMove.from_body(GAME, {"type": "pass"}, "k\ud800", within_bounds=within_bounds).checked(0)
        refusals.append((refused.value.field, refused.value.detail))
    assert refusals[0] == refusals[1] and refusals[0][0] == "idempotency_key"


@pytest.mark.parametrize("field, value", [("expected_version", "3"), ("expected_version", True),
                                          ("idempotency_key", 7), ("idempotency_key", "")])
def test_a_command_field_of_the_wrong_type_is_refused_by_the_command_on_every_road(field, value):
    body = {"type": "pass", field: value}
    roads = {
        "http": PlayMove.from_body(GAME, body, within_bounds=True),
        "bot": PlayMove.from_body(GAME, body),
        "page": move_command(GAME, MultiDict([("move", json.dumps(body))])),
    }
    refusals = set()
    for asked in roads.values():
        with pytest.raises(BadInput) as refused:
            asked.checked(0)
        refusals.add((refused.value.field, refused.value.detail))
    assert len(refusals) == 1 and refusals.pop()[0] == field


def test_a_checked_move_is_typed():
    command = PlayMove.from_body(GAME, {"type": "pass", "seat": 0, "expected_version": 4}, "k").checked(0)
    assert command == PlayMove(GAME, RecordMove({"type": "pass"}), 4, "k")
    assert isinstance(command.move, RecordMove) and command.move.of_seat(0) == {"type": "pass", "seat": 0}
