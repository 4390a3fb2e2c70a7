"""The command objects (service.play.commands): built once from whatever arrived, checked once, one name per field."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from service.errors import BadInput, Forbidden
from service.play.commands import FileDispute, GiveRuling, NameSeat, PlayMove

GAME = "6f1c2b8e-0000-4000-8000-000000000001"


def test_a_body_is_split_once_into_the_move_its_expected_version_and_its_key():
    command = PlayMove.from_body(GAME, {"type": "attack", "cards": ["8H"], "expected_version": 7, "idempotency_key": "k"})
    assert command == PlayMove(GAME, {"type": "attack", "cards": ["8H"]}, 7, "k")
    assert PlayMove.from_body(GAME, command.as_body()) == command


def test_the_idempotency_key_header_is_the_move_s_key_unless_the_body_names_one():
    assert PlayMove.from_body(GAME, {"type": "pass"}, "header").idempotency_key == "header"
    assert PlayMove.from_body(GAME, {"type": "pass", "idempotency_key": "body"}, "header").idempotency_key == "body"
    assert PlayMove.from_body(GAME, {"type": "pass"}, "").idempotency_key is None


@pytest.mark.parametrize("command, field", [
    (PlayMove(GAME, ["pass"]), "type"),
    (PlayMove(GAME, {"type": "pass"}, expected_version="3"), "expected_version"),
    (PlayMove(GAME, {"type": "pass"}, expected_version=True), "expected_version"),
    (PlayMove(GAME, {"type": "pass"}, idempotency_key=""), "idempotency_key"),
    (PlayMove(GAME, {"type": "pass"}, idempotency_key="k" * 201), "idempotency_key"),
    (PlayMove(GAME, {"type": "say", "text": "\x00"}), "text"),
])
def test_a_malformed_move_is_refused_naming_its_field(command, field):
    with pytest.raises(BadInput) as refused:
        command.checked(0)
    assert refused.value.field == field


def test_a_move_naming_another_seat_is_forbidden():
    with pytest.raises(Forbidden):
        PlayMove(GAME, {"type": "pass", "seat": 1}).checked(0)
    assert PlayMove(GAME, {"type": "pass", "seat": 0}).checked(0).move == {"type": "pass", "seat": 0}


def test_a_command_is_frozen():
    with pytest.raises(FrozenInstanceError):
        PlayMove(GAME, {"type": "pass"}).expected_version = 3


@pytest.mark.parametrize("command, field", [
    (FileDispute(GAME, "no", version=None), "version"),
    (FileDispute(GAME, "no", version=True), "version"),
    (FileDispute(GAME, "no", attempt=0), "attempt"),
    (FileDispute(GAME, " ", version=3), "claim"),
    (FileDispute(GAME, "x" * 2001, version=3), "claim"),
    (GiveRuling(GAME, 1, "maybe"), "decision"),
    (GiveRuling(GAME, 1, "upheld", "undo"), "remedy"),
    (GiveRuling(GAME, 1, "rejected", "rewind"), "remedy"),
    (GiveRuling(GAME, 1, "upheld", note=3), "note"),
    (NameSeat(GAME, "  "), "name"),
    (NameSeat(GAME, "x" * 65), "name"),
    (NameSeat(GAME, "tab\there"), "name"),
])
def test_a_malformed_dispute_ruling_or_name_is_refused_naming_its_field(command, field):
    with pytest.raises(BadInput) as refused:
        command.checked()
    assert refused.value.field == field


def test_checking_gives_the_command_as_the_service_runs_it():
    assert NameSeat(GAME, "  Ann ").checked().name == "Ann"
    assert GiveRuling(GAME, 1, "upheld", note=None).checked().note == ""
    assert GiveRuling.from_body(GAME, 2, {"decision": "upheld"}) == GiveRuling(GAME, 2, "upheld", "none", None)
    assert FileDispute.from_body(GAME, {"attempt": 2, "claim": "mine"}) == FileDispute(GAME, "mine", None, 2)
