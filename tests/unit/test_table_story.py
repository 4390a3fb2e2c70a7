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


SECOND = {"number": 2, "seat": 1, "version": 7, "claim": "misdeal",
          "ruling": {"decision": "rejected", "remedy": "none", "note": "", "ruled_at": 9}}


def test_a_seat_is_told_every_ruling_made_since_it_last_acted_at_the_table_oldest_first():
    """Two rulings (a rewind to version 2 at 5, a rejection at 9) while seat 0 last drew at 3: its banner lists both;
    once it acts (talk is acting at the table too) it is told neither; seat 2 (whose dispute was ruled at 5) last
    acted at 4, so it is told both, its own first-person."""
    log = [entry(3, "drew", "seat:0"), entry(4, "dispute_filed", "seat:2"), entry(5, "dispute_ruled", "referee"),
           entry(6, "rewound", "referee", dispute=1, to_version=2, from_version=5), entry(7, "drew", "seat:1"),
           entry(8, "dispute_filed", "seat:1"), entry(9, "dispute_ruled", "referee")]
    told = news(log, [RULED, SECOND], seat=0)
    assert [(d["number"], d["rewound_to"], d["mine"]) for d in told["rulings"]] == [(1, 2, False), (2, None, False)]
    assert [(d["number"], d["mine"]) for d in news(log, [RULED, SECOND], seat=2)["rulings"]] == [(1, True), (2, False)]
    assert [d["number"] for d in news(log, [RULED, SECOND], seat=1)["rulings"]] == [2]  # it filed at 8: seen 1
    talked = log + [entry(10, "said", "seat:0", text="ok")]
    assert news(talked, [RULED, SECOND], seat=0)["rulings"] == []


def test_a_refusal_or_a_pass_made_for_a_seat_is_no_look_at_the_table():
    log = [entry(3, "drew", "seat:0"), entry(5, "dispute_ruled", "referee"), entry(6, "move_rejected", "seat:0"),
           {**entry(7, "passed", "seat:0"), "automatic": True}]
    assert [d["number"] for d in news(log, [RULED], seat=0)["rulings"]] == [1]


def test_a_spectator_is_told_the_rulings_since_the_last_move_played():
    log = [entry(3, "drew", "seat:0"), entry(5, "dispute_ruled", "referee"), entry(7, "drew", "seat:1")]
    assert [d["number"] for d in news(log, [RULED, SECOND], seat=None)["rulings"]] == [2]


def test_a_time_flag_is_nobodys_own_dispute():
    flag = {**RULED, "time_expired": {"control": "game"}}
    assert news([], [flag], seat=2)["rulings"][0]["mine"] is False
