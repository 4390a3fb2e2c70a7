"""Disputes and rulings through the Referee (in memory and on a SQLite file).

A seat disputes the move at a version of the active line; the referee rejects it (nothing changes),
upholds it with no remedy (nothing changes either), or upholds it with a rewind: a new `Rewound`
event returns the game to its state just before the disputed move, and play continues from there.
Nothing is ever deleted: the rewound events stay in the log and versions keep increasing.
"""

from __future__ import annotations

import pytest

from domain.el_royale import legal_moves
from domain.game import Game
from domain.records import parse, replay
from service.verification.checks import check_chain
from service.errors import BadInput, Conflict, IllegalMove, NotFound
from service.play.commands import GiveRuling
from tests.integration.service_support import log, new_game, play, played, raw_move

STORES = ["memory", "sqlite"]


@pytest.fixture(params=STORES)
def referee(request, stores):
    return stores.referee(stores.url(request.param))


@pytest.fixture
def game_id(referee):
    """A game with a dozen moves played."""
    gid = new_game(referee, n=3)
    play(referee, gid, 12)
    assert len(referee.game(gid).moves) == 12
    return gid


def disputed_move(app, gid, index: int = 6) -> tuple[int, int]:
    """(version, seat) of the index-th move of the active line."""
    game = app.game(gid)
    version = game.move_versions[index]
    return version, game.moves[index]["seat"]


def snapshot(game: Game) -> tuple:
    return game.state, list(game.moves), list(game.move_versions)


def test_a_seat_files_a_dispute_against_a_move_version(referee, game_id):
    version, seat = disputed_move(referee, game_id)
    before = referee.game(game_id)

    dispute = referee.file_dispute(game_id, (seat + 1) % 3, version, "that card was not in their hand")

    filed_time = dispute.pop("filed_time")
    assert dispute == {"number": 1, "seat": (seat + 1) % 3, "version": version, "claim": "that card was not in their hand",
                       "filed_at": before.version + 1, "ruling": None, "kind": "move", "automatic": False}
    assert filed_time == log(referee, game_id)[-1].timestamp.isoformat()
    after = referee.game(game_id)
    assert snapshot(after) == snapshot(before)
    assert isinstance(log(referee, game_id)[-1], Game.DisputeFiled)


def test_a_rejected_dispute_changes_nothing_but_records_the_ruling(referee, game_id):
    version, seat = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 0, version, "unfair")["number"]
    before = referee.game(game_id)

    ruled = referee.rule_dispute(game_id, number, "rejected", "none", "the move was legal")

    ruled_time = ruled["ruling"].pop("ruled_time")
    assert ruled["ruling"] == {"decision": "rejected", "remedy": "none", "note": "the move was legal",
                               "ruled_at": before.version + 1}
    assert ruled_time == log(referee, game_id)[-1].timestamp.isoformat()
    after = referee.game(game_id)
    assert snapshot(after) == snapshot(before)
    assert after.version == before.version + 1 and after.rewinds == []


def test_an_upheld_dispute_with_no_remedy_changes_nothing_but_records_the_ruling(referee, game_id):
    version, _ = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 1, version, "too slow")["number"]
    before = referee.game(game_id)

    ruled = referee.rule_dispute(game_id, number, "upheld", "none", None)

    assert ruled["ruling"]["decision"] == "upheld" and ruled["ruling"]["remedy"] == "none"
    after = referee.game(game_id)
    assert snapshot(after) == snapshot(before)
    assert after.rewinds == []


def test_an_upheld_rewind_returns_the_game_to_just_before_the_disputed_move(referee, game_id):
    version, _ = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 2, version, "misdeal")["number"]
    before = referee.game(game_id)
    earlier = referee.game(game_id, version - 1)

    referee.rule_dispute(game_id, number, "upheld", "rewind", "back to before the move")

    after = referee.game(game_id)
    assert after.state == earlier.state
    assert after.moves == earlier.moves == before.moves[:6]
    assert after.move_versions == earlier.move_versions
    assert after.version == before.version + 2  # the ruling and the rewind
    assert after.rewinds == [{"dispute": number, "to_version": version - 1, "from_version": before.version + 1,
                              "at": after.version}]


def test_a_rewind_deletes_nothing_and_keeps_the_chain(referee, game_id):
    version, _ = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 2, version, "misdeal")["number"]
    events_before = log(referee, game_id)

    referee.rule_dispute(game_id, number, "upheld", "rewind", "")

    events = log(referee, game_id)
    assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
    assert [(e.originator_version, type(e)) for e in events[:len(events_before)]] == \
           [(e.originator_version, type(e)) for e in events_before]
    rewound = events[-1]
    assert isinstance(rewound, Game.Rewound) and rewound.to_version == version - 1
    assert check_chain(referee, game_id)["ok"] is True
    # the undone line is still there to replay
    assert len(referee.game(game_id, len(events_before)).moves) == 12


def test_play_continues_from_the_rewound_position(referee, game_id):
    version, _ = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 0, version, "wrong seat")["number"]
    referee.rule_dispute(game_id, number, "upheld", "rewind", "")
    rewound = referee.game(game_id)

    move = next(iter(legal_moves(rewound.state)))
    answer = referee.submit_move(game_id, move["seat"], raw_move(move))
    play(referee, game_id, 5, max_version=200)

    game = referee.game(game_id)
    assert answer["first_version"] == rewound.version + 1
    assert game.move_versions[:7] == rewound.move_versions + [rewound.version + 1]
    assert len(game.moves) == 6 + 1 + 5
    assert check_chain(referee, game_id)["ok"] is True
    # the record of the active line replays to the game's state
    assert replay(parse(game.to_record(reveal_seed=True))).state == game.state
    assert replay(parse(game.to_record())).state == game.state


@pytest.mark.parametrize("what", ["created", "deal", "engine step", "past the end", "a string"])
def test_a_dispute_against_a_version_that_is_not_a_move_is_bad_input(referee, game_id, what):
    game = referee.game(game_id)
    bystander = next(s for s in range(3) if s != game.state.to_act)
    with pytest.raises(IllegalMove):
        referee.submit_move(game_id, bystander, {"type": "pass"})
    events = log(referee, game_id)
    moves = {e.originator_version for e in played(events)}
    version = {
        "created": 1,
        "deal": 2,
        "engine step": next((e.originator_version for e in events if isinstance(e, Game.Happened)
                             and e.actor == "engine" and e.originator_version > 2), None),
        "past the end": len(events) + 1,
        "a string": str(game.move_versions[0]),
    }[what]
    assert version is not None and version not in moves
    before = referee.game(game_id).version

    with pytest.raises(BadInput) as refused:
        referee.file_dispute(game_id, 0, version, "no")

    assert refused.value.field == "version"
    assert referee.game(game_id).version == before


def test_a_dispute_against_a_move_undone_by_a_rewind_is_bad_input(referee, game_id):
    version, _ = disputed_move(referee, game_id, 4)
    undone = referee.game(game_id).move_versions[8]
    number = referee.file_dispute(game_id, 0, version, "x")["number"]
    referee.rule_dispute(game_id, number, "upheld", "rewind", "")

    with pytest.raises(BadInput):
        referee.file_dispute(game_id, 1, undone, "and this one too")


def test_ruling_a_dispute_twice_is_a_conflict_and_writes_nothing(referee, game_id):
    version, _ = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 0, version, "x")["number"]
    referee.rule_dispute(game_id, number, "rejected", "none", "")
    before = referee.game(game_id).version

    for decision, remedy in (("rejected", "none"), ("upheld", "none"), ("upheld", "rewind")):
        with pytest.raises(Conflict):
            referee.rule_dispute(game_id, number, decision, remedy, "again")

    assert referee.game(game_id).version == before


def test_rewinding_a_move_an_earlier_rewind_already_undid_is_a_conflict(referee, game_id):
    early, _ = disputed_move(referee, game_id, 3)
    late, _ = disputed_move(referee, game_id, 9)
    first = referee.file_dispute(game_id, 0, early, "early")["number"]
    second = referee.file_dispute(game_id, 1, late, "late")["number"]
    referee.rule_dispute(game_id, first, "upheld", "rewind", "")
    before = referee.game(game_id)

    with pytest.raises(Conflict):
        referee.rule_dispute(game_id, second, "upheld", "rewind", "")

    after = referee.game(game_id)
    assert after.version == before.version and after.disputes[second - 1]["ruling"] is None
    # it can still be ruled without a rewind
    referee.rule_dispute(game_id, second, "upheld", "none", "moot")
    assert snapshot(referee.game(game_id)) == snapshot(before)


@pytest.mark.parametrize("number", [0, 2])
def test_ruling_a_dispute_that_does_not_exist_is_not_found(referee, game_id, number):
    version, _ = disputed_move(referee, game_id)
    referee.file_dispute(game_id, 0, version, "x")
    with pytest.raises(NotFound):
        referee.rule_dispute(game_id, number, "rejected", "none", "")


@pytest.mark.parametrize("number", ["1", None])
def test_a_dispute_number_that_is_no_integer_is_not_found_by_the_ruling_s_command(game_id, number):
    with pytest.raises(NotFound):  # the command's check: the Referee is given an integer number
        GiveRuling.from_body(game_id, number, {"decision": "rejected"}).checked()


def test_a_rewind_needs_the_dispute_upheld(referee, game_id):
    version, _ = disputed_move(referee, game_id)
    number = referee.file_dispute(game_id, 0, version, "x")["number"]
    with pytest.raises(BadInput) as refused:  # the ruling's shape is the command's, checked before the Referee runs it
        GiveRuling.from_body(game_id, number, {"decision": "rejected", "remedy": "rewind", "note": ""}).checked()
    assert refused.value.field == "remedy"
    assert referee.game(game_id).disputes[number - 1]["ruling"] is None


def test_a_refused_attempt_never_costs_another_seat_its_move(referee, game_id):
    """A refusal is kept in its own stream: the game's version does not move, so the seat to act keeps its version."""
    game = referee.game(game_id)
    seat, version = game.state.to_act, game.version
    bystander = next(s for s in range(3) if s != seat)
    for _ in range(3):
        with pytest.raises(IllegalMove):
            referee.submit_move(game_id, bystander, {"type": "pass"}, expected_version=version)
    assert referee.game(game_id).version == version
    move = next(m for m in legal_moves(game.state) if m["type"] != "say")
    answer = referee.submit_move(game_id, seat, raw_move(move), expected_version=version)
    assert answer["first_version"] == version + 1
    assert check_chain(referee, game_id)["ok"] is True


def test_disputes_rulings_names_and_table_talk_never_make_the_seat_to_act_reload(referee, game_id):
    """Only a change of position makes `expected_version` stale: another seat's dispute, the referee's ruling on it,
    a new name and a remark at the table all add events, and the seat to act still plays at the version it saw."""
    version, _ = disputed_move(referee, game_id)
    game = referee.game(game_id)
    seat, seen = game.state.to_act, game.version
    bystander = next(s for s in range(3) if s != seat)
    number = referee.file_dispute(game_id, bystander, version, "that was not legal")["number"]
    referee.rule_dispute(game_id, number, "rejected", "none", "it was")
    referee.name_player(game_id, bystander, "Bea")
    referee.submit_move(game_id, bystander, {"type": "say", "text": "hurry up"})
    assert referee.game(game_id).version == seen + 4
    move = next(m for m in legal_moves(referee.game(game_id).state) if m["type"] != "say")
    answer = referee.submit_move(game_id, seat, raw_move(move), expected_version=seen)
    assert answer["first_version"] == seen + 5
    chain = check_chain(referee, game_id)
    assert chain["ok"] is True, chain["problems"]


def test_a_move_by_the_engine_or_a_seat_since_the_version_seen_makes_it_stale(referee, game_id):
    """The position moved on: a move sent with the version before it is refused with 409 and writes nothing."""
    game = referee.game(game_id)
    seen = game.version
    move = next(m for m in legal_moves(game.state) if m["type"] != "say")
    referee.submit_move(game_id, move["seat"], raw_move(move))
    after = referee.game(game_id)
    following = next(m for m in legal_moves(after.state) if m["type"] != "say")
    with pytest.raises(Conflict):
        referee.submit_move(game_id, following["seat"], raw_move(following), expected_version=seen)
    assert referee.game(game_id).version == after.version
