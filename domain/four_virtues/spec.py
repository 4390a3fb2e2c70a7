"""The Four Virtues of Royalty declares itself (domain/spec.py): the table, its options, its capabilities."""

from __future__ import annotations

from .. import four_virtues as rules
from ..kit.codec import Codec
from ..spec import Analysis, GameSpec, Length, OptionSpec, Seats
from . import candidates, codec, determinize, glance, state

SPEC = GameSpec(
    id="four-virtues", title="The Four Virtues of Royalty", prefix="FV", decider=rules,
    codec=Codec(codec.MOVE_TYPES, codec.parse_move, codec.format_move, codec.encode_event, codec.decode_event,
                state.State, state.dump_state, state.load_state, pack=codec.pack, check_deck=codec.check_deck, moves=codec.MOVES),
    seats=(Seats(2, 2, "FV-1.1"),),
    options=(OptionSpec("target", "int", "Target score", "FV-1.2", default=300, low=100, high=1000),),
    deck_label="deal:1",  # a record's `deck` fixes round 1 only (FV-5.3)
    next_deal=rules.next_deal,
    analysis=Analysis(determinize.sample, determinize.playout, candidates.candidates, unit="score", scale=1.0,
                      tolerance=5.0, marks=(5.0, 10.0, 20.0), horizon="the end of the round", before=True,
                      fold=determinize.fold, deal=determinize.deal, evidence=determinize.evidence,
                      analysis_infers=False,  # measured no stronger, a fifth dearer (docs/analysis.md "Inference")
                      key=candidates.key,
                      glance=glance.glance,  # the screen's judge: the seat's turns and the replies, not the round
                      glance_words="the cheap player's play through two more of the seat's turns and the "
                                   "opponent's replies, then the round's points on the table (FV-4.2)",
                      calibrated="NOT calibrated at 1 in 1,000, and a little anti-conservative: of 950 simulated "
                                 "honest players (7-game events, the worlds weighed by the opponent model, "
                                 "2026-11-30), 2 were referred at 1 in 1,000 (exact 95% upper bound 6.6 in 1,000), and "
                                 "7.4% came out at p <= 0.05 and 1.9% at p <= 0.01, where 5% and 1% are expected "
                                 "(docs/fairplay.md, \"The sampler\")"),
    length=Length("rounds", event="round_ended"),
    projection="projections.four_virtues",
    narration="projections.four_virtues:describe",
    bot="bots.four_virtues:FourVirtuesBot",
    partial="api:templates/games/four-virtues.html",
)
