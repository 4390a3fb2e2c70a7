"""Game.play stores a move's events without the library's trigger_event (Game._record_decided): the state after them
is the decider's step, so they are not decoded and folded again. Over random games of every registered game, each
move's events are the ones trigger_event makes from the same fields, and the game they leave is the game the
library's road leaves (the events triggered one by one, each folded by Happened.apply_to), and the game rebuilt from
all of its events by the library's `mutate`."""

from __future__ import annotations

import copy

import pytest

from domain.autoplay import game_rng, random_game
from domain.game import Game
from domain.games import DECIDERS, SPECS
from domain.records import parse

GAMES = sorted(DECIDERS)
IDS = ("originator_id", "originator_version")


def _records(game: str) -> list:
    spec = SPECS[game]
    out = []
    for k, options in enumerate(spec.example_options[:2]):
        n = spec.seats_for(options).low
        players = [{"name": f"P{i}"} for i in range(n)]
        out.append(parse(random_game(game, options, players, f"{k:04x}", game_rng(game, k), max_moves=120,
                                     chatter=0.1)))
    return out


def _as_seen(game: Game) -> dict:
    """The aggregate's attributes, the clock as it stands now (a batch may be settled later on one road)."""
    seen = {k: v for k, v in game.__dict__.items() if k not in ("_pending_events", "_batch", "clock")}
    seen["clock_now"] = game.clock_now()
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_plays_events_and_game_are_what_the_librarys_road_makes(game):
    for record in _records(game):
        live = Game.start(record, ["h"] * record.setup.n, "r", time_control={"game_seconds": 600})
        for i, move in enumerate(record.moves):
            library = copy.deepcopy(live)
            done = len(live._pending_events)
            live.play(move, idempotency_key=f"k{i}" if i % 3 == 0 else None, automatic=i % 4 == 0)
            made = live._pending_events[done:]
            for event in made:  # each with its own fields and timestamp, applied by `mutate`
                library.trigger_event(type(event), **{k: v for k, v in event.__dict__.items() if k not in IDS})
            assert [e.__dict__ for e in library._pending_events[done:]] == [e.__dict__ for e in made]
            assert _as_seen(library) == _as_seen(live), f"move {i}: the game differs from the library's road"
        rebuilt = None
        for event in live._pending_events:
            rebuilt = event.mutate(rebuilt)
        assert _as_seen(rebuilt) == _as_seen(live)
