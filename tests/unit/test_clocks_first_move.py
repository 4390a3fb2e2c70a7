"""A time control's `start` (domain.clocks): with `"first_move"` no clock runs until the game's first move and the
first mover's thinking before it is not counted; no flag falls due while the clocks wait; `"created"`, and a game
stored before `start` existed, fold exactly as before. The server's clock is moved by hand (tests/clock_support)."""

from __future__ import annotations

import random

import pytest

from domain import clocks
from domain.autoplay import pick_move
from domain.game import Game
from domain.records import parse
from projections.clocks import clock_view
from service.errors import BadInput
from service.play.clocks import deadline, flag_due, limited, parse_time_control
from tests.clock_support import fake_time

SEED = "c10c4bef0e"


def new_game(game: str = "el-royale", players: int = 3, **settings) -> Game:
    record = parse({"format": "arbiter.record/1", "game": game, "options": {}, "moves": [], "seed": SEED,
                    "players": [{"name": n} for n in "ABCD"[:players]]})
    return Game.start(record, **settings)


def rebuilt(events: list) -> Game:
    copy = None
    for e in events:
        copy = e.mutate(copy)
    return copy


def first_mover_moves(game: Game, rng: random.Random) -> int:
    seat = sorted(game.decider.to_act(game.state))[0]
    game.play(pick_move([m for m in game.decider.legal_moves(game.state) if m["seat"] == seat], rng))
    return seat


def test_no_clock_runs_before_the_first_move_and_the_first_mover_s_wait_is_not_counted():
    with fake_time() as clock:
        game = new_game(time_control={"start": "first_move"})
        clock.advance(855)  # 14:15 with nobody at the table
        before = game.clock_now()
        assert before["running"] == [] and before["used_ms"] == [0, 0, 0] and clocks.waiting(before)
        view = clock_view(game)
        assert view["waiting"] is True and view["start"] == "first_move" and view["running"] == []
        assert view["waiting_for"] == sorted(game.decider.to_act(game.state))
        assert not any(s["running"] for s in view["seats"])

        moved_at = clock.ms
        mover = first_mover_moves(game, random.Random(2))
        after = game.clock_now()
        assert after["used_ms"] == [0, 0, 0] and not clocks.waiting(after)
        assert after["running"] and all(since == moved_at for _, since, _ in after["running"])
        assert mover not in {seat for seat, _, _ in after["running"]}
        clock.advance(3)
        running = after["running"][0][0]
        first_mover_moves(game, random.Random(3))
        assert game.clock_now()["used_ms"][running] == 3000
        assert clock_view(game)["waiting"] is False and clock_view(game)["waiting_for"] == []


def test_talk_a_name_and_a_dispute_before_the_first_move_leave_the_clocks_waiting():
    with fake_time() as clock:
        game = new_game(time_control={"start": "first_move", "move_seconds": 5})
        seat = sorted(game.decider.to_act(game.state))[0]
        clock.advance(10)
        game.play({"seat": seat, "type": "say", "text": "hello"})
        game.name_player(1, "Bea")
        clock.advance(10)
        assert clocks.waiting(game.clock_now()) and game.clock_now()["running"] == []
        assert game.clock_now()["changed_ms"] is None


def test_no_flag_falls_due_and_no_deadline_is_set_while_the_clocks_wait():
    with fake_time() as clock:
        game = new_game(time_control={"start": "first_move", "game_seconds": 10, "move_seconds": 5})
        clock.advance(3600)
        assert clocks.due_flags(game.clock_now(), 10_000, 5_000, clock.ms) == []
        assert clocks.next_deadline(game.clock_now(), 10_000, 5_000) is None
        assert flag_due(game, clock.ms) == [] and deadline(game) is None and game.disputes == []
        moved_at = clock.ms
        first_mover_moves(game, random.Random(1))
        assert deadline(game) == moved_at + 5_000 + 1  # the move's time, from the first move on
        clock.advance(6)
        assert len(flag_due(game, clock.ms)) == 1


def test_a_first_move_game_folded_from_its_stored_events_has_the_live_clock():
    with fake_time() as clock:
        game = new_game(time_control={"start": "first_move", "move_seconds": 3})
        events = list(game.collect_events())
        clock.advance(20)
        assert clocks.waiting(rebuilt(events).clock_now())
        rng = random.Random(4)
        for _ in range(10):
            clock.advance(rng.choice([0.5, 2, 4]))
            for flag in clocks.due_flags(game.clock_now(), None, 3000, clock.ms):
                game.expire(flag["seat"], flag["control"], flag["turn"], flag["used_ms"], flag["limit_ms"])
            game.play(pick_move(list(game.decider.legal_moves(game.state)), rng))
            events += game.collect_events()
            assert rebuilt(events).clock_now() == game.clock_now()


# What this scenario's clock was before `start` existed (computed with the code of dcf602a): a game whose time
# control has no `start` folds to exactly this, and so does one that says "created".
BEFORE = {"used_ms": [9000, 5000, 10500], "running": [[2, 1893499224500, 24]], "changed_ms": 1893499224500,
          "flags": [[0, "move", 2], [2, "move", 8], [1, "move", 17]]}


def _played_as_before(control: dict) -> tuple[Game, list]:
    with fake_time() as clock:
        game = new_game(time_control=control)
        events = list(game.collect_events())
        rng = random.Random(4)
        clock.advance(7)
        for _ in range(12):
            clock.advance(rng.choice([0.5, 2, 4]))
            for flag in clocks.due_flags(game.clock_now(), 20000, 3000, clock.ms):
                game.expire(flag["seat"], flag["control"], flag["turn"], flag["used_ms"], flag["limit_ms"])
            game.play(pick_move(list(game.decider.legal_moves(game.state)), rng))
            events += game.collect_events()
        return game, events


@pytest.mark.parametrize("control", [{"move_seconds": 3, "game_seconds": 20},
                                     {"move_seconds": 3, "game_seconds": 20, "start": "created"}])
def test_a_game_without_start_or_started_when_created_folds_exactly_as_before(control):
    game, events = _played_as_before(control)
    assert "start" not in events[0].time_control or control.get("start") == "created"
    assert game.clock_now() == BEFORE
    assert rebuilt(events).clock_now() == BEFORE
    view = clock_view(game)
    assert view["start"] == "created" and view["waiting"] is False and view["running"] == [2]


def test_without_a_time_control_the_clocks_start_with_the_game_as_before():
    with fake_time():
        game = new_game()
        assert game.clock_now()["running"] and "waiting" not in game.clock_now()
        assert clock_view(game)["start"] == "created"


def test_in_small_battle_the_first_formation_starts_the_other_seat_s_clock_and_not_the_mover_s():
    with fake_time() as clock:
        game = new_game("small-battle", 2, time_control={"start": "first_move"})
        assert sorted(game.decider.to_act(game.state)) == [0, 1]  # both set their formations at once
        assert clock_view(game)["waiting_for"] == [0, 1] and clock_view(game)["running"] == []
        clock.advance(50)
        moved_at = clock.ms
        game.play(pick_move([m for m in game.decider.legal_moves(game.state) if m["seat"] == 0], random.Random(1)))
        view = clock_view(game)
        assert view["waiting"] is False and view["running"] == [1]
        assert game.clock_now()["running"] == [[1, moved_at, game.clock_now()["running"][0][2]]]
        assert game.clock_now()["used_ms"] == [0, 0]
        clock.advance(4)
        game.play(pick_move([m for m in game.decider.legal_moves(game.state) if m["seat"] == 1], random.Random(1)))
        assert game.clock_now()["used_ms"] == [0, 4000]


def test_a_time_control_s_start_is_checked_naming_the_field():
    assert parse_time_control({"start": "first_move"}) == {"start": "first_move"}
    assert parse_time_control({"start": "created", "move_seconds": 30}) == {"start": "created", "move_seconds": 30}
    for bad in ({"start": "later"}, {"start": None}, {"start": 1}, {"start": ["first_move"]}):
        with pytest.raises(BadInput) as e:
            parse_time_control(bad)
        assert e.value.field == "time_control.start" and "first_move" in str(e.value)
    with pytest.raises(BadInput) as e:
        parse_time_control({"begin": "first_move"})
    assert e.value.field == "time_control"
    assert not limited({"start": "first_move"}) and limited({"start": "first_move", "game_seconds": 60})
    assert not limited(None)
