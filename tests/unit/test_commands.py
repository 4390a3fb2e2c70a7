"""The command objects (service.play.commands, service.play.moves): built once from whatever arrived, checked once,
one name per field, typed once checked."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from service.errors import BadInput, Forbidden, NotFound
from service.play.commands import FileDispute, GiveRuling, NameSeat, PlayMove, RecordMove

GAME = "6f1c2b8e-0000-4000-8000-000000000001"


def test_a_body_is_split_once_into_the_move_its_expected_version_and_its_key():
    command = PlayMove.from_body(GAME, {"type": "attack", "cards": ["8H"], "expected_version": 7,
                                        "idempotency_key": "k"}).checked(0)
    assert command == PlayMove(GAME, RecordMove({"type": "attack", "cards": ["8H"]}), 7, "k")
    assert command.move.type == "attack"
    assert PlayMove.from_body(GAME, command.as_body()).checked(0) == command


def test_the_idempotency_key_header_is_the_move_s_key_unless_the_body_names_one():
    assert PlayMove.from_body(GAME, {"type": "pass"}, "header").checked(0).idempotency_key == "header"
    assert PlayMove.from_body(GAME, {"type": "pass", "idempotency_key": "body"}, "header").checked(0).idempotency_key == "body"
    assert PlayMove.from_body(GAME, {"type": "pass"}, "").checked(0).idempotency_key is None


@pytest.mark.parametrize("body, field", [
    (["pass"], "type"),
    ({"type": "pass", "expected_version": "3"}, "expected_version"),
    ({"type": "pass", "expected_version": True}, "expected_version"),
    ({"type": "pass", "idempotency_key": ""}, "idempotency_key"),
    ({"type": "pass", "idempotency_key": "k" * 201}, "idempotency_key"),
    ({"type": "say", "text": "\x00"}, "text"),
])
def test_a_malformed_move_is_refused_naming_its_field(body, field):
    with pytest.raises(BadInput) as refused:
        PlayMove.from_body(GAME, body).checked(0)
    assert refused.value.field == field


def test_a_move_naming_another_seat_is_forbidden():
    with pytest.raises(Forbidden):
        PlayMove.from_body(GAME, {"type": "pass", "seat": 1}).checked(0)
    assert PlayMove.from_body(GAME, {"type": "pass", "seat": 0}).checked(0).move == RecordMove({"type": "pass"})


def test_a_command_is_frozen():
    with pytest.raises(FrozenInstanceError):
        PlayMove(GAME, RecordMove({"type": "pass"})).expected_version = 3
    with pytest.raises(FrozenInstanceError):
        PlayMove.from_body(GAME, {"type": "pass"}).body = {}


@pytest.mark.parametrize("asked, field", [
    (FileDispute.from_body(GAME, {"claim": "no"}), "version"),
    (FileDispute.from_body(GAME, {"claim": "no", "version": True}), "version"),
    (FileDispute.from_body(GAME, {"claim": "no", "attempt": 0}), "attempt"),
    (FileDispute.from_body(GAME, {"claim": " ", "version": 3}), "claim"),
    (FileDispute.from_body(GAME, {"claim": "x" * 2001, "version": 3}), "claim"),
    (GiveRuling.from_body(GAME, 1, {"decision": "maybe"}), "decision"),
    (GiveRuling.from_body(GAME, 1, {"decision": "upheld", "remedy": "undo"}), "remedy"),
    (GiveRuling.from_body(GAME, 1, {"decision": "rejected", "remedy": "rewind"}), "remedy"),
    (GiveRuling.from_body(GAME, 1, {"decision": "upheld", "note": 3}), "note"),
    (NameSeat.from_body(GAME, {"name": "  "}), "name"),
    (NameSeat.from_body(GAME, {"name": "x" * 65}), "name"),
    (NameSeat.from_body(GAME, {"name": "tab\there"}), "name"),
])
def test_a_malformed_dispute_ruling_or_name_is_refused_naming_its_field(asked, field):
    with pytest.raises(BadInput) as refused:
        asked.checked()
    assert refused.value.field == field


def test_checking_gives_the_command_as_the_service_runs_it():
    assert NameSeat.from_body(GAME, {"name": "  Ann "}).checked() == NameSeat(GAME, "Ann")
    assert GiveRuling.from_body(GAME, 1, {"decision": "upheld", "note": None}).checked().note == ""
    assert GiveRuling.from_body(GAME, 2, {"decision": "upheld"}).checked() == GiveRuling(GAME, 2, "upheld", "none", "")
    assert FileDispute.from_body(GAME, {"attempt": 2, "claim": "mine"}).checked() == FileDispute(GAME, "mine", None, 2)


def test_a_dispute_number_that_is_no_integer_names_no_dispute():
    with pytest.raises(NotFound):
        GiveRuling.from_body(GAME, "1", {"decision": "upheld"}).checked()  # type: ignore[arg-type]
