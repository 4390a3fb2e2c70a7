"""The table's story as a pure fold of a viewer's log entries (projections/table_story.py)."""

from __future__ import annotations

from projections.table_story import news, seat_attempts, story


def entry(version: int, kind: str, actor: str | None = None, **data) -> dict:
    return {"version": version, "type": kind, "actor": actor, "data": data}


RULED = {"number": 1, "seat": 2, "version": 3, "claim": "late",
         "ruling": {"decision": "upheld", "remedy": "rewind", "note": "again", "ruled_at": 5}}


def test_the_story_leaves_out_talk_and_setup_and_keeps_the_last_entries_with_the_refusals_own_numbers():
    log = [entry(1, "created"), entry(2, "dealt", "engine"), entry(3, "said", "seat:0", text="hi"),
           entry(3, "move_rejected", "seat:1", attempt=1, seat_attempt=1),
           entry(3, "move_rejected", "seat:0", attempt=2, seat_attempt=1),
           entry(3, "move_rejected", "seat:1", attempt=3, seat_attempt=2), entry(4, "drew", "seat:0")]
    told = story(log, limit=4)
    assert [e["type"] for e in told] == ["move_rejected", "move_rejected", "move_rejected", "drew"]
    assert seat_attempts(log) == {1: 1, 2: 1, 3: 2}


def test_a_refusal_keeps_the_number_its_log_carries_even_when_the_log_given_starts_after_the_seats_first_refusals():
    """The story counts nothing itself: a log that begins after seat 1's first two refusals still says attempt 3."""
    log = [entry(7, "move_rejected", "seat:1", attempt=4, seat_attempt=3), entry(8, "drew", "seat:0")]
    assert seat_attempts(story(log)) == {4: 3}


def test_a_ruling_is_news_to_everyone_until_a_move_and_to_its_seat_until_that_seat_moves():
    log = [entry(3, "drew", "seat:0"), entry(4, "dispute_filed", "seat:2"), entry(5, "dispute_ruled", "referee"),
           entry(6, "rewound", "referee", dispute=1, to_version=2, from_version=5)]
    fresh = news(log, [RULED], seat=2)
    assert fresh["ruling"]["rewound_to"] == 2 and fresh["mine"]["number"] == 1
    talk = log + [entry(7, "said", "seat:0", text="ok")]
    assert news(talk, [RULED], seat=0)["ruling"] is not None  # talk is no move
    moved = talk + [entry(8, "drew", "seat:0")]
    assert news(moved, [RULED], seat=0) == {"ruling": None, "mine": None}
    assert news(moved, [RULED], seat=2)["mine"]["number"] == 1  # the disputer has not played since
    assert news(moved + [entry(9, "drew", "seat:2")], [RULED], seat=2)["mine"] is None


def test_a_time_flag_is_nobodys_own_dispute():
    flag = {**RULED, "time_expired": {"control": "game"}}
    assert news([], [flag], seat=2)["mine"] is None
