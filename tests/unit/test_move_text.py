"""A move in words (projections.narration.move_text): what the audit, the replay, the disputes page and the command
line say of a refused or illegal move. A field that names a seat (the game's codec declares which) gives the player's
name, never the seat's number."""

from __future__ import annotations

from domain.games import spec_for
from projections.narration import move_text

NAMES = ["Ann", "Bob", "Cy"]


def test_a_batallion_attack_names_its_target_by_the_players_name():
    text = move_text("batallion", {"seat": 1, "type": "attack", "cards": ["8H", "9H"], "target": 0}, NAMES)
    assert text == "attack 8H 9H target Ann"


def test_a_move_without_a_seat_field_keeps_its_numbers_and_says_when_it_holds_no_card():
    assert move_text("four-virtues", {"seat": 0, "type": "add", "cards": ["7H"], "meld": 2}, NAMES) == "add 7H meld 2"
    assert move_text("el-royale", {"seat": 2, "type": "throw_in", "cards": []}, NAMES) == "throw in no card"
    assert move_text("four-virtues", {"seat": 0, "type": "meld", "cards": ["9H", "9S", "9C"],
                                      "lowered": {"card": "9H", "rank": "5"}}, NAMES) == "meld 9H 9S 9C lowered 9H 5"


def test_the_batallion_codecs_declared_seat_field_is_the_field_its_attacks_carry():
    """The declaration cannot go stale: an attack the codec parses holds every field the codec says names a seat."""
    codec = spec_for("batallion").codec
    parsed = codec.format_move(codec.parse_move({"seat": 1, "type": "attack", "cards": ["8H"], "target": 0}, 3))
    assert codec.seat_fields and codec.seat_fields <= set(parsed)
