"""Disputes as one fact (issue 35, domain.disputes): the catalogue's fold counts every entry of a game's disputes, the
clock's automatic flags as well as the seats' disputes, exactly as the game itself holds them, after every event of
random games with flags, disputes and rulings; and each entry says what kind it is."""

from __future__ import annotations

import random

from domain import clocks
from domain import disputes as kinds
from domain.autoplay import pick_move
from domain.game import Game
from domain.records import parse
from projections.catalogue import evolve
from tests.clock_support import fake_time


def new_game(**settings) -> Game:
    record = parse({"format": "arbiter.record/1", "game": "el-royale", "options": {}, "moves": [],
                    "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    return Game.start(record, **settings)


def test_a_clock_flag_is_counted_as_an_open_dispute_until_it_is_ruled():
    with fake_time() as clock:
        game = new_game(time_control={"move_seconds": 5})
        row = None
        for e in game.collect_events():
            row = evolve(row, e, 1)
        clock.advance(6)
        seat = game.clock_now()["running"][0][0]
        number = game.expire(seat, "move", game.clock_now()["running"][0][2], 6000, 5000)
        for e in game.collect_events():
            row = evolve(row, e, 2)
        assert (row["disputes"], row["open_disputes"]) == (1, 1)
        game.rule(number, "upheld", "none", "out of time")
        for e in game.collect_events():
            row = evolve(row, e, 3)
        assert (row["disputes"], row["open_disputes"]) == (1, 0)
        assert kinds.kind(game.disputes[0]) == "clock" and kinds.automatic(game.disputes[0])


def test_the_catalogue_counts_what_the_game_holds_after_every_event_of_random_games():
    for seed in range(6):
        rng = random.Random(seed)
        with fake_time() as clock:
            game = new_game(time_control={"game_seconds": 12, "move_seconds": 3})
            row, seq = None, 0
            for _ in range(40):
                if game.outcome.is_over:
                    break
                clock.advance(rng.choice([0.5, 2, 4]))
                for flag in clocks.due_flags(game.clock_now(), 12000, 3000, clock.ms):
                    game.expire(flag["seat"], flag["control"], flag["turn"], flag["used_ms"], flag["limit_ms"])
                game.play(pick_move(list(game.decider.legal_moves(game.state)), rng))
                if rng.random() < 0.3 and game.move_versions:
                    game.file_dispute(rng.randrange(3), rng.choice(game.move_versions), "not so")
                waiting = [d["number"] for d in game.disputes if d["ruling"] is None]
                if waiting and rng.random() < 0.3:
                    game.rule(rng.choice(waiting), rng.choice(["upheld", "rejected"]), "none", "")
                for e in game.collect_events():
                    seq += 1
                    row = evolve(row, e, seq)
                assert (row["disputes"], row["open_disputes"]) == (len(game.disputes), kinds.open_count(game.disputes))
            assert any(kinds.kind(d) == "clock" for d in game.disputes), seed
            assert any(kinds.kind(d) == "move" for d in game.disputes), seed


def test_each_entry_names_its_kind():
    assert kinds.kind({"time_expired": {"control": "game"}}) == "clock"
    assert kinds.kind({"attempt": 2, "version": 5}) == "refusal"
    assert kinds.kind({"version": 5}) == "move"
    assert not kinds.automatic({"version": 5}) and not kinds.automatic({"attempt": 1})
    assert kinds.open_count([{"ruling": None}, {"ruling": {"decision": "upheld"}}, {"ruling": None}]) == 2
