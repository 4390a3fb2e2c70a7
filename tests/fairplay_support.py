"""Test-only players for the fair-play report's validation (tests/unit/test_fairplay_validation.py, bench/fairplay.py):
a Small Battle bot that PEEKS at its opponent's formation, and a loop playing Small Battle games between bots.

The peeking bot cheats on purpose and is never registered for a real table (bots/registry.py does not know it): it
exists so the report can be shown to flag it. Its peek is handed in by the loop below from the referee's state.
"""

from __future__ import annotations

import hashlib
import random

from bots.base import SeatView
from bots.small_battle import SmallBattleBot, drawn_value
from domain.games import decider_for
from domain.randomness import Chance
from domain.records import to_document
from projections.registry import projection_for
from projections.viewers import Viewer

GAME = "small-battle"


class PeekingSmallBattleBot(SmallBattleBot):
    """Plays as the heuristic bot, except that with a number card it strikes, `rate` of the time, a position it
    KNOWS the number removes (the highest such rank), having peeked at the enemy formation."""

    kind = "peeking (test only)"

    def __init__(self, seat: int, rng: random.Random, rate: float = 1.0):
        super().__init__(seat, rng)
        self.rate = rate
        self.peek: tuple[int, ...] | None = None  # the enemy formation, set by the loop before each choice

    def choose(self, view: SeatView) -> dict:
        honest = super().choose(view)
        d = drawn_value(view.table.get("drawn") or "A") if honest["type"] == "strike" else None
        if d is None or self.peek is None or self.rng.random() >= self.rate:
            return honest
        options = [m["position"] for m in view.legal_moves]
        removable = [p for p in options if self.peek[p] < d]
        if not removable:
            return honest
        self.last = None  # what the honest bot would have learnt from its own strike no longer applies
        return {"seat": self.seat, "type": "strike", "position": max(removable, key=lambda p: (self.peek[p], -p))}


def play(seed: str, names: tuple[str, str], peek_rate: float | None = None) -> dict:
    """One Small Battle game as a record document: seat 0 peeks (at `peek_rate`) when it is given, else both seats
    are the honest heuristic bot."""
    d = decider_for(GAME)
    table = projection_for(GAME).table
    setup = d.configure({}, [{"name": n} for n in names], None, None)
    seed = hashlib.sha256(seed.encode()).hexdigest()  # the game's seed (hex) from the caller's label
    chance = Chance(seed)
    state = d.initial_state(setup)
    for e in d.start(setup, chance):
        state = d.evolve(state, e)
    bots = [SmallBattleBot(s, random.Random(f"{seed}|bot|{s}")) for s in range(2)]
    if peek_rate is not None:
        bots[0] = PeekingSmallBattleBot(0, random.Random(f"{seed}|bot|0"), peek_rate)
    public = [{"seat": s, "name": n, "team": None} for s, n in enumerate(names)]
    moves = []
    while not d.outcome(state).is_over and len(moves) < 400:
        seat = d.to_act(state)[0]
        bot = bots[seat]
        if isinstance(bot, PeekingSmallBattleBot):
            bot.peek = state.formations[1 - seat]
        move = bot.choose(SeatView(GAME, seat, table(state, Viewer.of_seat(seat)), public, {}))
        state = d.step(state, move, chance)[1]
        moves.append(move)
    return to_document(GAME, setup, seed, {}, moves)
