"""El Royale declares itself (domain/spec.py): the table, its options, what it can do beyond the contract."""

from __future__ import annotations

from .. import el_royale as rules
from ..kit.codec import Codec
from ..spec import Analysis, Choice, FastReplay, GameSpec, Length, OptionSpec, Seats
from . import candidates, codec, determinize, glance, state
from .replay_fast import WRITTEN_FOR

SPEC = GameSpec(
    id="el-royale", title="El Royale", prefix="ER", decider=rules,
    codec=Codec(codec.MOVE_TYPES, codec.parse_move, codec.format_move, codec.encode_event, codec.decode_event,
                state.State, state.dump_state, state.load_state, pack=codec.pack, check_deck=codec.check_deck, moves=codec.MOVES),
    seats=(Seats(2, 8, "ER-1.1"),),
    teams="ER-1.2",
    options=(
        OptionSpec("edition", "choice", "Edition", "", default="revised",
                   choices=(Choice("revised", "revised"), Choice("classic", "classic (2019)"))),
        OptionSpec("battle_limit", "int", "Battle limit", "ER-4.4", low=1),
        OptionSpec("auto_pass", "bool", "auto-pass a seat left with no card", "ER-3.3", default=False),
    ),
    forced_pass=rules.forced_pass,
    fast_replay=FastReplay(WRITTEN_FOR, fold_step=rules.fold_step, fold_moves=rules.fold_moves),
    next_deal=rules.next_deal,
    analysis=Analysis(determinize.sample, determinize.playout, candidates.candidates, memo=True,
                      key=candidates.key,
                      fold=determinize.fold, deal=determinize.deal, evidence=determinize.evidence,
                      hand=determinize.hand, glance=glance.glance,
                      glance_words="the battle under way played out by the cheap player, then how near each side "
                                   "is to shedding its cards",
                      calibrated="NOT calibrated, and it refers honest players far more often than its threshold "
                                 "says: of 400 simulated honest players (7-game events at 2 seats, 2026-11-30), 5 were "
                                 "referred at 1 in 1,000 (1.25%; exact 95% upper bound 2.6%) and 14% came out at p <= "
                                 "0.05, the strongest players most; the sampler deals the opponents' hands at random "
                                 "where players who collect ranks hold them grouped (docs/fairplay.md, \"The "
                                 "sampler\"). Read an El Royale referral as a request to look, not as evidence"),
    length=Length("battles", final="battles"),
    projection="projections.el_royale",
    narration="projections.el_royale:describe",
    bot="bots.el_royale:ElRoyaleBot",
    partial="api:templates/games/el-royale.html",
)
