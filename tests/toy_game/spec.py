"""High Card declares itself (domain/spec.py): everything arbiter's generic code needs to know of it."""

from __future__ import annotations

from domain.kit.codec import Codec
from domain.spec import GameSpec, Length, OptionSpec, Seats

from .. import toy_game as rules

SPEC = GameSpec(
    id=rules.GAME, title="High Card", prefix="HC", decider=rules,
    codec=Codec(rules.MOVE_TYPES, rules.parse_move, rules.format_move, rules.encode_event, rules.decode_event,
                rules.State, rules.dump_state, rules.load_state, moves=rules.MOVES),
    seats=(Seats(2, 2, "HC-1.1"),),
    options=(OptionSpec("rounds", "int", "Rounds", "HC-1.2", default=3, low=1, high=10),),
    example_options=({}, {"rounds": 1}, {"rounds": 10}),
    length=Length("rounds", event="round_ended"),
    projection="tests.toy_game.projection",
    narration="tests.toy_game.projection:describe",
    bot="tests.toy_game.bot:HighCardBot",
    partial="tests.toy_game:partial.html",
)
