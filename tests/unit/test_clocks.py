"""Thinking time per seat (domain.clocks) folded by the Game aggregate from its events' server timestamps, with the
server's clock moved by hand: time accumulates on the seat that was to act, a `say` does not restart a turn, the
fold from the stored events equals the live aggregate, and a due flag is found once and then never again."""

from __future__ import annotations

import random

from domain import clocks
from domain.autoplay import pick_move
from domain.game import Game
from domain.records import parse
from tests.clock_support import fake_time


def new_game(**settings) -> Game:
    record = parse({"format": "arbiter.record/1", "game": "el-royale", "options": {}, "moves": [],
                    "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    return Game.start(record, **settings)


def rebuilt(game: Game, events: list) -> Game:
    copy = None
    for e in events:
        copy = e.mutate(copy)
    return copy


def test_time_is_charged_to_the_seat_that_was_to_act_until_its_move_was_accepted():
    with fake_time() as clock:
        game = new_game()
        rng, charged = random.Random(1), [0, 0, 0]
        for step in range(12):
            seat = game.clock_now()["running"][0][0]
            clock.advance(step + 1)
            charged[seat] += (step + 1) * 1000
            game.play(pick_move([m for m in game.decider.legal_moves(game.state) if m["seat"] == seat], rng))
        assert game.clock_now()["used_ms"] == charged


def test_a_say_neither_stops_nor_restarts_the_speaker_s_turn():
    with fake_time() as clock:
        game = new_game()
        seat, since, turn = game.clock_now()["running"][0]
        clock.advance(5)
        game.play({"seat": seat, "type": "say", "text": "hmm"})
        assert game.clock_now()["running"][0] == [seat, since, turn]
        assert game.clock_now()["used_ms"][seat] == 0


def test_the_fold_of_the_stored_events_gives_the_live_clock():
    with fake_time() as clock:
        game = new_game(time_control={"move_seconds": 3})
        rng = random.Random(4)
        events = list(game.collect_events())
        for step in range(15):
            clock.advance(rng.choice([0.5, 2, 4]))
            for flag in clocks.due_flags(game.clock_now(), None, 3000, clock.ms):
                game.expire(flag["seat"], flag["control"], flag["turn"], flag["used_ms"], flag["limit_ms"])
            game.play(pick_move(list(game.decider.legal_moves(game.state)), rng))
            events += game.collect_events()
        assert rebuilt(game, events).clock_now() == game.clock_now()
        assert any(d.get("time_expired") for d in game.disputes)


def test_a_due_flag_is_found_once_then_never_again():
    with fake_time() as clock:
        game = new_game(time_control={"game_seconds": 10})
        seat = game.clock_now()["running"][0][0]
        clock.advance(10)
        assert clocks.due_flags(game.clock_now(), 10000, None, clock.ms) == []  # exactly at the limit: not out yet
        clock.advance(1)
        due = clocks.due_flags(game.clock_now(), 10000, None, clock.ms)
        assert [(f["seat"], f["control"], f["used_ms"]) for f in due] == [(seat, "game", 11000)]
        game.expire(**{k: due[0][k] for k in ("seat", "control", "turn", "used_ms", "limit_ms")})
        clock.advance(100)
        assert clocks.due_flags(game.clock_now(), 10000, None, clock.ms) == []
        assert clocks.next_deadline(game.clock_now(), 10000, None) is None
