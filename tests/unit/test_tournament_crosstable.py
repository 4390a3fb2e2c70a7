"""The crosstable: one mark per game against each opponent, from each side; partners are not opponents."""

from __future__ import annotations

from domain.tournament.crosstable import crosstable


def _game(round_, seats, winner=None, status="finished", result="win"):
    return {"round": round_, "players": seats, "status": status, "result": result if status == "finished" else None,
            "winner": None if winner is None else {"seats": winner, "team": None}}


def test_each_game_marks_both_sides_and_a_game_in_play_is_a_dot():
    players = [{"name": "A"}, {"name": "B"}, {"name": "C"}]
    games = [_game(1, [0, 1], [0]), _game(2, [2, 0], None, result="draw"), _game(3, [1, 2], status="in_progress")]
    rows = crosstable(players, games, byes=[(1, 2), (2, 1)])
    assert [r["cells"] for r in rows] == [[None, ["1"], ["½"]], [["0"], None, ["·"]], [["½"], ["·"], None]]
    assert [r["byes"] for r in rows] == [0, 1, 1]


def test_partners_get_no_mark_and_rows_follow_the_order_given():
    players = [{"name": "A", "team": "x"}, {"name": "B", "team": "y"}, {"name": "C", "team": "x"}, {"name": "D", "team": "y"}]
    rows = crosstable(players, [_game(1, [0, 1, 2, 3], [0, 2])], order=[3, 0, 1, 2])
    assert [r["name"] for r in rows] == ["D", "A", "B", "C"]
    a = rows[1]["cells"]  # A against D, A, B, C
    assert a == [["1"], None, ["1"], []]
