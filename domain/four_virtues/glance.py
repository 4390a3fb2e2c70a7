"""The Four Virtues' glance: the fair-play screen's cheap judge of one candidate move (domain/spec.py
`Analysis.glance`, docs/fairplay.md "The Four Virtues' glance").

The screen's rollouts play every candidate out to the round's end (determinize.playout), some thirty moves each.
The glance plays on from the candidate's state with the same cheap player (`determinize.choose`, on the stream it is
handed) for a few turns only: the rest of the seat's own turn, the opponent's reply (and any hearts discard either
owes), then `TURNS` more turns of the seat, each its draw and the melds and additions it makes, with the opponent's
reply between them, stopping before the last one's discard; at most `REACH` moves. It then reads the round in
progress as FV-4.2 would score it if it ended there: the points of the melds on the table that count for the seat
minus those that count for the opponent (diamonds doubled, clubs lowered, each added card for whoever added it). A
card still in hand counts nothing (FV-4.2), so the hands add no term. A round that ends inside the glance is worth
its real margin (determinize.value).

What it sees is what the next cards decide: the cards a draw brings and the melds they make, a spades draw's cards,
what a discard keeps for the seat's next draws, and which stock cards fall to which seat after a draw of one or two
(the stock's order: what a peek at it buys), the melds a hearts discard takes from the opponent's hand, the
opponent's melds and additions. It reads only the states it is given and the streams it is handed, so the true
state and every sampled world are judged alike. How far to look was measured against a peeker that judges by
rollouts to the round's end (docs/fairplay.md): stopping when the seat's next turn begins, or after its next draw,
left several times its power unseen; two more turns of the seat see most of it for under half a rollout's cost.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..randomness import Chance
from .clauses import meld_lines
from .decider import step
from .determinize import choose, value
from .state import DRAW, State

TURNS = 2  # the seat's turns played on after its own, up to their discard
REACH = 60  # moves at most: the turns played are some 10-20 moves (a spades turn a few more)


def standing(s: State, seat: int) -> float:
    """The seat's points margin in the round in progress, as FV-4.2 would score it now (cards in hand count 0)."""
    return float(sum(_margin(m, seat) for m in s.melds))


@lru_cache(maxsize=1 << 16)  # a meld is a tuple of its cards, face, givers and lowering: the same table is met in
def _margin(meld, seat: int) -> int:  # every world and candidate of a decision, so most melds are scored once
    """One meld's points for `seat` less its points for the other seat (FV-4.2)."""
    return sum(line.points if line.seat == seat else -line.points for line in meld_lines(meld))


def glance(after: State, seat: int, rng: random.Random, chance: Chance, before: State) -> float:
    """The fair-play screen's judge of a move (see the module doc): play on from `after` with the cheap player
    through the seat's next TURNS draws and melds (not the last one's discard), or to the round's end, or REACH
    moves; then the seat's margin of the round's points on the table."""
    s, round_, begun = after, before.round, 0
    for _ in range(REACH):
        if len(s.rounds) >= round_ or s.outcome is not None:
            break
        if s.turn == seat and s.phase == DRAW and s.owed is None:
            begun += 1  # one more of the seat's turns: the last one's draw and melds are played, its discard is not
        move = choose(s, rng)
        if begun >= TURNS and move["seat"] == seat and move["type"] in ("discard", "done"):
            break
        s = step(s, move, chance)[1]
    return value(s, seat, round_) if len(s.rounds) >= round_ else standing(s, seat)
