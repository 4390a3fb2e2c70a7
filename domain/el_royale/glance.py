"""El Royale's glance: the fair-play screen's cheap judge of a candidate move (domain.spec `Analysis.glance`,
docs/fairplay.md "The glance"). Pure: it reads the two states it is given and the streams it is handed, nothing else.

A rollout to the end of the game costs some 500 moves a candidate (determinize.playout); the glance plays on from the
candidate's state with the same cheap player (determinize.choose, the given rollout stream and chance) only until the
battle in progress is over (its pile cleared and the next battle under way, ER-3.11), an elimination's picks begin
(ER-5.2), the game ends, or `GLANCE_MOVES` moves were played. Measured on two seats (heuristic games, 460 glances):
1.9 moves a glance (at most 4), 0.1 ms, where a rollout to the end took 13 ms. What peeking
buys shows up in that battle: an attack the defender cannot beat is conceded (the pile goes to the defender, ER-3.5),
a beat the others can or cannot follow up, a concession that could have been a beat.

Then a static value in the "win" unit (`standing`): 1 or 0 when the game ended (as `value`: a draw is 0); else the
seat's side's share of a soft-min over the sides still in the game of how far each is from going out. A seat's
distance is the cards it holds, plus `RANK_STEP` a distinct rank held (a rank is shed in one play at best, ER-3.1),
less `INITIATIVE` for the seat that attacks next (only an attacker plays when it likes); a side's distance is its
nearest member's (a team wins whole, ER-4.2). The share is exp(-d / SPREAD) over its sum across the sides.
"""

from __future__ import annotations

import math
import random

from ..cards import RANK_MASKS
from ..randomness import Chance
from .decider import fold_legal
from .determinize import choose, value
from .state import TAKE, State

GLANCE_MOVES = 40  # a battle of two seats is some 5 to 20 moves; the cap only bounds a long window
RANK_STEP = 0.5  # distance a distinct rank held adds, besides its cards
INITIATIVE = 1.0  # distance the next attacker saves
SPREAD = 2.0  # cards of distance that make a side e (2.7) times less likely to go out first


def glance(after: State, seat: int, rng: random.Random, chance: Chance, before: State) -> float:
    """The screen's judge of the state `after` a candidate made in `before`: the cheap player plays the battle out
    (see the module doc), then `standing`, the seat's side's chance of going out first, in 0..1 (the win unit)."""
    s = after.clone()
    battles, play, pick = before.battles, fold_legal, choose
    for _ in range(GLANCE_MOVES):
        if s.outcome is not None or s.battles > battles or s.phase == TAKE:
            break
        play(s, pick(s, rng), chance)
    return standing(s, seat)


def standing(s: State, seat: int) -> float:
    """The static value of a state for `seat`'s side (see the module doc): 1/0 once the game is over, else its share
    of exp(-distance / SPREAD) among the sides still in the game."""
    if s.outcome is not None:
        return value(s, seat)
    team_of = s.setup.team_of
    nearest: dict[int, float] = {}
    for x in range(s.n):
        if not s.surviving(x):
            continue
        side = x if team_of is None else team_of[x]
        d = distance(s, x)
        if d < nearest.get(side, math.inf):
            nearest[side] = d
    mine = nearest.get(seat if team_of is None else team_of[seat])
    if mine is None:
        return 0.0
    return 1.0 / sum(math.exp((mine - d) / SPREAD) for d in nearest.values())


def distance(s: State, x: int) -> float:
    """How far seat `x` is from going out: its cards, `RANK_STEP` a distinct rank, less `INITIATIVE` when it is
    the attacker of the battle under way."""
    hand = s.hands[x]
    ranks = sum(1 for m in RANK_MASKS if hand & m)
    return hand.bit_count() + RANK_STEP * ranks - (INITIATIVE if s.attacker == x else 0.0)
