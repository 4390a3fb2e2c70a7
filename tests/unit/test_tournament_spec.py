"""A tournament's spec: which format a game can be played in, refused at creation with the reason, and the tables a
round-robin or Swiss round seats (pairs, or the game's own range where it cannot seat two)."""

from __future__ import annotations

import pytest

from domain.rules import InvalidSetup
from domain.tournament import spec as tspec


def test_a_batallion_round_robin_is_refused_at_creation_naming_the_format_and_the_tables_it_would_need():
    with pytest.raises(InvalidSetup) as refused:
        tspec.validate({"name": "B", "game": "batallion", "format": "round-robin", "players": ["A", "B", "C"]})
    assert refused.value.field == "format"
    assert "3–4" in refused.value.reason and "BA-1.1" in refused.value.reason and "swiss" in refused.value.reason


@pytest.mark.parametrize("game, options, seats", [("batallion", {}, (3, 4)),
                                                  ("batallion", {"variants": ["five_six"]}, (5, 6)),
                                                  ("el-royale", {}, (2, 2)), ("small-battle", {}, (2, 2))])
def test_swiss_tables_seat_pairs_unless_the_game_cannot_seat_two(game, options, seats):
    settings = tspec.validate({"game": game, "options": options, "format": "swiss"})
    assert tspec.table_seats(settings) == seats


def test_a_batallion_swiss_short_of_a_table_is_refused_at_its_start_with_the_number_it_needs():
    settings = tspec.validate({"game": "batallion", "format": "swiss", "players": ["A", "B"]})
    with pytest.raises(InvalidSetup) as refused:
        tspec.tables_check(settings, settings["players"])
    assert refused.value.field == "players"
    assert "at least 3 players" in refused.value.reason and "BA-1.1" in refused.value.reason
    tspec.tables_check(settings, [{"name": n} for n in "ABCDE"])  # 5: a table of 4 and a bye
