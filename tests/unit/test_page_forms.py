"""A page's form is the JSON body the API would carry, made a command by the API's own constructor (api.pages.forms):
the table's controls, a dispute and a ruling come out as the commands their JSON bodies give."""

from __future__ import annotations

import json

import pytest
from werkzeug.datastructures import MultiDict

from service.errors import BadInput
from service.play.commands import FileDispute, GiveRuling, PlayMove, RecordMove

from api.pages.forms import dispute_command, move_command, numeric, ruling_command

GAME = "6f1c2b8e-0000-4000-8000-000000000001"


def test_the_table_s_controls_are_the_command_of_the_json_body_they_stand_for():
    form = MultiDict([("type", "attack"), ("cards", "8H"), ("cards", "8D"), ("move.target", "2"),
                      ("expected_version", "7")])
    body = {"type": "attack", "cards": ["8H", "8D"], "target": 2, "expected_version": 7}
    command = move_command(GAME, form)
    assert command == PlayMove.from_body(GAME, body)
    assert command.checked(0) == PlayMove(GAME, RecordMove({"type": "attack", "cards": ["8H", "8D"], "target": 2}),
                                          expected_version=7)


def test_a_move_field_is_sent_as_the_api_body_it_holds():
    body = {"type": "attack", "cards": ["8H"], "idempotency_key": "k"}
    form = MultiDict([("move", json.dumps(body)), ("expected_version", "12")])
    assert move_command(GAME, form) == PlayMove.from_body(GAME, {**body, "expected_version": 12})


@pytest.mark.parametrize("form, field", [
    (MultiDict([("type", "pass"), ("expected_version", "soon")]), "expected_version"),
    (MultiDict([("type", "pass"), ("expected_version", "9" * 17)]), "expected_version"),
    (MultiDict([("move", "[1, 2]")]), "type"),
    (MultiDict([("move", "{not json")]), "type"),
])
def test_what_the_form_cannot_mean_is_refused_by_the_command_as_over_the_api(form, field):
    with pytest.raises(BadInput) as refused:
        move_command(GAME, form).checked(0)
    assert refused.value.field == field


def test_a_dispute_and_a_ruling_form_are_the_commands_of_their_json_bodies():
    assert dispute_command(GAME, MultiDict({"version": " 4 ", "attempt": "", "claim": "early"})).checked() == \
        FileDispute.from_body(GAME, {"version": 4, "claim": "early"}).checked()
    assert dispute_command(GAME, MultiDict({"attempt": "2", "claim": "mine"})).checked() == FileDispute(GAME, "mine", None, 2)
    assert ruling_command(GAME, 3, MultiDict({"decision": "upheld", "remedy": "rewind", "note": "again"})) == \
        GiveRuling.from_body(GAME, 3, {"decision": "upheld", "remedy": "rewind", "note": "again"})
    assert ruling_command(GAME, 3, MultiDict({"decision": "rejected"})).checked() == GiveRuling(GAME, 3, "rejected", "none", "")


@pytest.mark.parametrize("text, value", [("12", 12), (" 0 ", 0), ("", None), ("  ", None), ("-1", "-1"),
                                         ("1.5", "1.5"), ("9" * 16, int("9" * 16)), ("9" * 17, "9" * 17)])
def test_a_number_field_s_text_is_its_json_value_and_anything_else_is_left_for_the_command(text, value):
    assert numeric(text) == value
