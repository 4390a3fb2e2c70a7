"""The tournament page's room at a glance (api/pages/room.py): a running clock is shown as it stands now (the turn
so far counted, the game time left), rows pass the filters they should, reopened games of earlier rounds are the
room's business until they end again."""

from __future__ import annotations

from api.pages.room import clocks_now, mmss, room_of

NOW = 1_800_000_000_000  # ms


def _iso(ms: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat()


def _clock(used: int, since_ms: int | None, game_seconds: int | None = 1200) -> dict:
    return {"time_control": {"game_seconds": game_seconds} if game_seconds else None,
            "seats": [{"seat": 0, "used_ms": used, "running": since_ms is not None, "since": _iso(since_ms) if since_ms else None,
                       "move_limit_ms": None, "flags": []},
                      {"seat": 1, "used_ms": 5_000, "running": False, "since": None, "move_limit_ms": None, "flags": []}]}


def test_a_running_seats_clock_counts_its_turn_so_far_and_shows_the_game_time_left():
    """The defect: "Player36 0:00 (thinking)" while the table showed 2:26 used and 17:33 left."""
    seats = clocks_now(_clock(0, NOW - 146_000), NOW)
    assert seats[0]["used_ms"] == 146_000 and mmss(seats[0]["left_ms"]) == "17:34" and seats[0]["running"]
    assert seats[1]["used_ms"] == 5_000 and not seats[1]["running"]


def test_without_a_game_time_the_clock_shows_the_time_used():
    seats = clocks_now(_clock(60_000, NOW - 1_000, game_seconds=None), NOW)
    assert seats[0]["left_ms"] is None and seats[0]["used_ms"] == 61_000


def _game(gid: str, status: str, disputes: int = 0, **more) -> dict:
    return {"game_id": gid, "status": status, "open_disputes": disputes, **more}


def test_rows_pass_their_filters_and_a_reopened_earlier_game_joins_the_room():
    tables = lambda games: [{"table": i, "players": [], "games": [g]} for i, g in enumerate(games)]  # noqa: E731
    view = {"rounds": [
        {"number": 1, "tables": tables([_game("a", "finished"), _game("b", "in_progress", reopened=True)])},
        {"number": 2, "tables": tables([_game("c", "finished"), _game("d", "in_progress", 2), _game("e", "in_progress")])}]}
    room = room_of(view, NOW)
    assert [r["game"]["game_id"] for r in room["rows"]] == ["c", "d", "e", "b"]
    assert room["counts"] == {"all": 4, "playing": 3, "finished": 1, "disputes": 1, "reopened": 1}
    assert room["open_disputes"] == 2 and room["reopened"] == 1
    assert [e["round"]["number"] for e in room["earlier"]] == [1]
    assert room_of({"rounds": []}, NOW) is None
