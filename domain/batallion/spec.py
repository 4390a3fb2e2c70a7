"""Batallion declares itself (domain/spec.py): the table, its options, what it can do beyond the contract."""

from __future__ import annotations

from .. import batallion as rules
from ..kit.codec import Codec
from . import codec, determinize, state
from ..spec import Analysis, Choice, Ending, GameSpec, Length, OptionSpec, Seats

SPEC = GameSpec(
    id="batallion", title="Batallion", prefix="BA", decider=rules,
    codec=Codec(codec.MOVE_TYPES, codec.parse_move, codec.format_move, codec.encode_event, codec.decode_event,
                state.State, state.dump_state, state.load_state, parse_card=codec.parse_card,
                format_card=codec.format_card, pack=codec.pack, check_deck=codec.check_deck, moves=codec.MOVES,
                seat_fields=frozenset({"target"})),
    seats=(Seats(3, 4, "BA-1.1"), Seats(5, 6, "BA-1.1", option="variants", value="five_six")),
    options=(
        OptionSpec("variants", "flags", "Variants", "BA-6.4", default=[], choices=(
            Choice("five_six", "five or six players (three packs)"), Choice("jokers", "jokers"),
            Choice("blind", "blind"), Choice("guts", "guts (seven cards)"), Choice("scarcity", "scarcity"))),
        OptionSpec("chips", "choice", "Chips", "BA-1.1", default=15, choices=(Choice(15, "15"), Choice(20, "20")),
                   note="five_six only"),
    ),
    example_options=({"variants": []}, {"variants": ["jokers", "blind"]}, {"variants": ["guts", "scarcity"]},
                     {"variants": ["five_six", "jokers"], "chips": 20}),
    next_deal=rules.next_deal,
    analysis=Analysis(determinize.sample, determinize.playout, determinize.candidates, unit="score", scale=1.0,
                      tolerance=1.0, marks=(0.5, 1.0, 2.0), horizon="the end of the game (chips)",
                      hand=determinize.hand,
                      calibrated="10,000 simulated honest players of four strengths, each screened over a "
                                 "7-game event (2026-11-30): 10 referred at 1 in 1,000 (1.00 in "
                                 "1,000; exact 95% upper bound 1.7 in 1,000); p at or below 0.1, 0.05 "
                                 "and 0.01 for 7.71%, 3.62% and 0.75% of them"),
    match_games=rules.match_games,
    rank_by_score=rules.RANK_BY_SCORE,
    length=Length("attacks", move="attack"),
    ending=Ending("ended", "by"),  # BA-5.1: chips, scarcity or skips
    projection="projections.batallion",
    narration="projections.batallion:describe",
    bot="bots.batallion:BatallionBot",
    partial="api:templates/games/batallion.html",
)
