"""Small Battle declares itself (domain/spec.py): the table, its options, what it can do beyond the contract."""

from __future__ import annotations

from .. import small_battle as rules
from ..kit.codec import Codec
from . import codec, determinize, state
from ..spec import Analysis, GameSpec, Length, Seats

SPEC = GameSpec(
    id="small-battle", title="Small Battle", prefix="SB", decider=rules,
    codec=Codec(codec.MOVE_TYPES, codec.parse_move, codec.format_move, codec.encode_event, codec.decode_event,
                state.State, state.dump_state, state.load_state, pack=codec.pack, check_deck=codec.check_deck, moves=codec.MOVES),
    seats=(Seats(2, 2, "SB-1.1"),),
    deck_label="first",  # a record's `deck` fixes the high-card pack (SB-1.2)
    honesty=rules.honesty,  # SB-1.3, SB-3.2: formations against their commitments, strikes against the formation
    next_deal=rules.next_deal,
    analysis=Analysis(determinize.sample, determinize.playout, determinize.candidates, key=determinize.key,
                      guard=0.0,  # plain sampling beats the bot here: pimc - heuristic +0.051 +- 0.022 (deals 0-999)
                      glance=determinize.glance, glance_words="whether the strike removed a card (SB-2.2)",
                      calibrated="10,000 simulated honest players of four strengths, each screened over a 7-game "
                                 "event (2026-11-30, this screen): 3 referred at 1 in 1,000 (0.3 in 1,000; exact 95% "
                                 "upper bound 0.78 in 1,000); p at or below 0.1, 0.05 and 0.01 for 9.2%, 4.7% and "
                                 "0.8% of them; the smallest p 0.00018"),
    length=Length("strikes", move="strike"),
    setup_moves=frozenset({"arrange"}),  # SB-1.3: both formations are set before the first strike
    projection="projections.small_battle",
    narration="projections.small_battle:describe",
    bot="bots.small_battle:SmallBattleBot",
    partial="api:templates/games/small-battle.html",
)
