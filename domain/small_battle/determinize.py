"""Small Battle's computer analysis (domain/spec.py `Analysis`, docs/analysis.md): a full state sampled from one seat's
knowledge, and a cheap rollout player.

What the seat knows (SB-2.1..SB-2.4): its own formation; every drawn card (both see it); of each enemy position it
struck, that a number higher than the rank removed it (rank below the number) or that it held (rank at least the
number), and an Ace's reveal (the rank). The enemy formation is drawn uniformly among the orderings of 2..9 that fit
those bounds (counted position by position over the ranks still free: 8 x 256 states). The battle pile is the cards
never drawn, in an order drawn uniformly, then the drawn cards in the order they went to the bottom (SB-2.2).
Commitments are never read. An arrangement is one candidate (every ordering is worth the same to the analysis, see
`candidates`), so it is not analysed.

`playout`: each seat strikes a remaining enemy position at random. Value: 1 when the seat wins, else 0.
"""

from __future__ import annotations

import random

from ..cards import parse_card
from ..randomness import Chance
from .clauses import strike_value
from .codec import PILE
from .decider import step
from .setup import Setup
from .state import State, apply, initial_state

RANKS = tuple(range(2, 10))


def sample(setup: Setup, seat: int, seen: list[dict], rng: random.Random) -> State:
    """One full state consistent with everything `seat` saw, and nothing else."""
    shadow = initial_state(setup)
    enemy = 1 - seat
    low, high = [2] * 8, [9] * 8
    pile: list[int | None] = [None] * len(PILE)
    unseen = list(PILE)
    drawn = None
    for item in seen:
        kind, data = item["kind"], item["data"]
        event = {"type": kind, **data}
        if kind == "started":
            event["pile"] = [0] * data["pile_count"]
        elif kind == "arranged":
            if data["seat"] != seat:
                event["formation"] = list(RANKS)
            else:
                event["formation"] = [int(r) for r in data["formation"]]
        elif kind == "drew":
            drawn = parse_card(data["card"])
            if pile.pop(0) is None:
                unseen.remove(drawn)
        elif kind == "struck":
            pile.append(drawn)
            card, position = parse_card(data["card"]), data["position"]
            if data["seat"] == seat:
                value = strike_value(card)
                if "rank" in data:
                    low[position] = high[position] = int(data["rank"])
                elif data["result"] == "removed":
                    high[position] = min(high[position], value - 1)
                else:
                    low[position] = max(low[position], value)
            drawn = None
        apply(shadow, event)
    state = shadow.clone()
    if state.formations[enemy] is not None:
        state.formations = tuple(_formation(low, high, rng) if s == enemy else f for s, f in enumerate(state.formations))
    unknown = list(unseen)
    rng.shuffle(unknown)
    it = iter(unknown)
    state.pile = tuple(c if c is not None else next(it) for c in pile)
    state.drawn = drawn
    return state


def _formation(low: list[int], high: list[int], rng: random.Random) -> tuple[int, ...]:
    """A uniform ordering of 2..9 with low[p] <= rank <= high[p] at each position p."""
    ways: dict[tuple[int, int], int] = {}

    def count(p: int, used: int) -> int:
        if p == 8:
            return 1
        key = (p, used)
        if key not in ways:
            ways[key] = sum(count(p + 1, used | 1 << r) for r in RANKS
                            if low[p] <= r <= high[p] and not used >> r & 1)
        return ways[key]

    if count(0, 0) == 0:
        raise ValueError("no formation fits what the seat saw")
    out, used = [], 0
    for p in range(8):
        options = [(r, count(p + 1, used | 1 << r)) for r in RANKS if low[p] <= r <= high[p] and not used >> r & 1]
        pick = rng.randrange(sum(w for _, w in options))
        for r, w in options:
            if pick < w:
                break
            pick -= w
        out.append(r)
        used |= 1 << r
    return tuple(out)


def playout(state: State, seat: int, rng: random.Random, chance: Chance) -> float:
    """Strike at random until someone wins; 1 when `seat` won."""
    s = state
    while s.outcome is None:
        striker = s.to_act
        position = rng.choice(s.remaining(1 - striker))
        s = step(s, {"seat": striker, "type": "strike", "position": position}, chance)[1]
    return 1.0 if seat in s.outcome.seats else 0.0


def glance(after: State, seat: int, rng: random.Random, chance: Chance, before: State) -> float:
    """The fair-play screen's judge (domain.spec Analysis.glance): what a strike gained at once, 1 when it removed a
    card of the enemy (SB-2.2: the striker moves again; the winning strike too), else 0 (it held, or an Ace showed the
    card, SB-2.3). It is what seeing the enemy formation buys: a seat that knows it names a card below the number."""
    return float(len(after.removed[1 - seat]) > len(before.removed[1 - seat]))


def key(state: State, seat: int, move: dict):
    """A move's group: every arrangement is one group (see `candidates`); a strike is its own."""
    return ("arrange",) if move.get("type") == "arrange" else None


def candidates(state: State, seat: int) -> list[dict] | None:
    """Every strike. An arrangement is one group of 40,320 orderings, all worth the same to the analysis: positions
    are labels only (SB-1.3), the enemy has seen nothing of the formation when it is set, and the rollout player
    strikes a remaining position uniformly, so any ordering meets the same strikes in law (measured in
    docs/analysis.md). One candidate: the decision is not analysed."""
    if state.arranged:
        return None
    if state.formations[seat] is not None:
        return []
    return [{"seat": seat, "type": "arrange", "formation": [str(r) for r in RANKS]}]
