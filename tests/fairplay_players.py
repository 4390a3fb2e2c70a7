"""Test-only players of every game for the fair-play validation (issue 37, docs/fairplay.md "Validation, every
game"): honest players of mixed strengths and cheats that PEEK at hidden cards on a share of their decisions.

Never registered for a real table (bots/registry.py does not know them). The honest kinds see only their seat's view
(they are the project's bots); a peeker is handed the referee's true state by the loop below, and on `rate` of its
decisions with a choice plays the all-cards best move (domain.fairplay.perfect_information_decision, a few rollouts a
move from the TRUE state: every hidden card, the opponents' hands and the stock's order). That is a stronger peek
than one opponent's hand in the 3-4 seat games; a cheat who sees less is harder to catch than these numbers say.

A colluder (`collude`, with a `partner` seat) is one of two seats that see each other's hands: on `collude` of its
decisions with a choice it plays the best move of an analysis over worlds drawn from its OWN knowledge with the
partner's TRUE hand put back (domain.collusion.drawer, the game's sampler with `hands=`), nothing else of the true
state: the other hands and the stock stay drawn. Without a partner, the same analysis over its own knowledge alone is
an honest strong player (`told_best` with no hands), the pair test's control for skill.

Honest strengths (HONEST): the game's heuristic bot; the heuristic with 10% and 30% of its moves replaced by a random
legal move; the random bot. A screen that reads skill as cheating would flag the strong ones: they are all screened.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from bots import SeatView, make_bot
from domain.collusion import drawer, partner_hand
from domain.fairplay import best_of, perfect_information_decision
from domain.games import spec_for
from domain.randomness import Chance
from domain.records import parse_move, to_document
from projections.knowledge import Knowing
from projections.registry import projection_for
from projections.viewers import Viewer

HONEST = ("heuristic", "noisy-0.1", "noisy-0.3", "random")
PEEK_SAMPLES = 8  # rollouts a move of the peeker's all-cards judgement
TOLD_WORLDS = 8  # worlds (one rollout a move in each) of a colluder's analysis with its partner's hand
MAX_MOVES = 3000


@dataclass(frozen=True)
class Player:
    """Who plays a seat: an honest `kind` (HONEST); `peek`, the share of its decisions on which it cheats by every
    card; `collude`, the share it plays by the analysis with its `partner`'s hand (see the module doc)."""

    kind: str = "heuristic"
    peek: float = 0.0
    peek_samples: int = 0  # rollouts a move of its all-cards judgement (0: PEEK_SAMPLES)
    peek_glance: bool = True  # where the game has a glance, the peek first keeps the moves it shows best (see below)
    collude: float = 0.0  # the share of its decisions played by the analysis with its partner's hand
    partner: int | None = None  # the seat whose hand it sees (None: the analysis over its own knowledge alone)
    collude_worlds: int = 0  # worlds of its analysis (0: TOLD_WORLDS)


class _Seat:
    """One seat's player during a game: its honest bot (memory kept across turns), its noise and its peek."""

    def __init__(self, game: str, seat: int, player: Player, seed: str):
        spec = spec_for(game)
        self.rng = random.Random(f"{seed}|player|{seat}")
        base = "random" if player.kind == "random" else "heuristic"
        self.bot = make_bot(base, game, seat, random.Random(f"{seed}|bot|{seat}"), spec.bot)
        self.noise = float(player.kind.split("-")[1]) if player.kind.startswith("noisy-") else 0.0
        self.randoms = make_bot("random", game, seat, random.Random(f"{seed}|noise|{seat}"))
        self.player, self.seat, self.decisions = player, seat, 0

    def choose(self, view: SeatView, game: str, state: Any, n: int, seed: str, setup: Any = None,
               seen: list[dict] | None = None) -> dict:
        spec = spec_for(game)
        honest = self.bot.choose(view)  # always asked, so that a bot's memory follows every turn
        if self.noise and self.rng.random() < self.noise:
            honest = self.randoms.choose(view)
        move = parse_move(honest, n, spec.codec)
        self.decisions += 1
        if self.player.collude and self.rng.random() < self.player.collude:
            p = self.player.partner  # the phone under the table: the partner's hand, nothing else of `state`
            hands = None if p is None else {p: partner_hand(spec, state, p)}
            best = told_best(spec, setup, self.seat, seen, hands, move, f"collude|{seed}", self.decisions,
                             self.player.collude_worlds or TOLD_WORLDS)
            return move if best is None else parse_move({**best, "seat": self.seat}, n, spec.codec)
        if not self.player.peek or self.rng.random() >= self.player.peek:
            return move
        rows = perfect_information_decision(spec, state, self.seat, move, f"peek|{seed}", self.decisions,
                                            self.player.peek_samples or PEEK_SAMPLES)
        if rows is None:
            return move
        if self.player.peek_glance and spec.analysis.glance is not None:  # what seeing the cards shows at once (a
            # Small Battle strike below the number): the moves the glance of the true state puts first, the rollouts
            # choosing among them. Rollouts alone hardly see it (docs/fairplay.md "The glance").
            seen = perfect_information_decision(spec, state, self.seat, move, f"peek|{seed}", self.decisions, 1, True)
            top = max(r["value"] for r in seen)
            rows = [r for r, g in zip(rows, seen) if g["value"] == top]  # the same candidates, in the same order
        best = best_of(rows, f"peek|{seed}|{self.decisions}")["move"]
        return parse_move({**best, "seat": self.seat}, n, spec.codec)


def told_best(spec, setup: Any, seat: int, seen: list[dict], hands: dict | None, move: dict, seed: str,
              ordinal: int, worlds: int = TOLD_WORLDS) -> dict | None:
    """The best move (formatted, without its seat) of an analysis over `worlds` states drawn from the seat's knowledge
    `seen` with `hands` held as told (domain.collusion.drawer), one rollout a candidate in each, or None when the
    decision is not analysed. It reads no card beyond `seen` and `hands`."""
    draw = drawer(spec, setup, seat, seen, hands)
    totals: dict[str, list[float]] = {}
    for w in range(worlds):
        world = draw(random.Random(f"{seed}|{ordinal}|world|{w}"))
        rows = perfect_information_decision(spec, world, seat, move, f"{seed}|{w}", ordinal, 1)
        if rows is None:
            return None
        for r in rows:
            totals.setdefault(json.dumps(r["move"], sort_keys=True), []).append(r["value"])
    rows = [{"move": json.loads(k), "value": round(sum(v) / len(v), 6)} for k, v in totals.items()]
    return best_of(rows, f"{seed}|{ordinal}")["move"]


def play_game(game: str, seed: str, players: list[Player], names: list[str] | None = None,
              options: dict | None = None, max_moves: int = MAX_MOVES) -> dict:
    """One game of `game` between `players` (one a seat) as a record document, cut after `max_moves` moves if it has
    not ended by then; the game's first example options unless `options`. Deterministic in `seed`."""
    spec = spec_for(game)
    d = spec.decider
    table = projection_for(game).table
    names = names or [f"seat {s}" for s in range(len(players))]
    options = spec.example_options[0] if options is None else options
    setup = d.configure(options, [{"name": x} for x in names], None, None)
    seed = hashlib.sha256(seed.encode()).hexdigest()
    chance = Chance(seed)
    state = d.initial_state(setup)
    events = list(d.start(setup, chance))
    knowing = {s: Knowing(game, d, spec.codec, setup.n, s) for s, p in enumerate(players) if p.collude}
    for k in knowing.values():  # a colluder's own knowledge, as its analysis reads it (projections.knowledge)
        k.know(state, events)
    for e in events:
        state = d.evolve(state, e)
    seats = [_Seat(game, s, p, seed) for s, p in enumerate(players)]
    public = [{"seat": s, "name": x, "team": None} for s, x in enumerate(names)]
    moves: list[dict] = []
    while not d.outcome(state).is_over and len(moves) < max_moves:
        seat = d.to_act(state)[0]
        view = SeatView(game, seat, table(state, Viewer.of_seat(seat)), public, options)
        seen = list(knowing[seat].seen) if seat in knowing else None
        move = seats[seat].choose(view, game, state, setup.n, seed, setup, seen)
        events, after = d.step(state, move, chance)
        for k in knowing.values():
            k.know(state, events)
        state = after
        moves.append(move)
    return to_document(game, setup, seed, options, moves)


def seats_of(game: str) -> int:
    """How many seats the validation plays `game` with: its example options' smallest table."""
    return spec_for(game).min_players


def final_state(record) -> Any:
    """The state a validated record (domain.records.Record) ends in, replayed on its bare decider."""
    d = record.decider
    state = d.initial_state(record.setup)
    for e in d.start(record.setup, record.chance):
        state = d.evolve(state, e)
    for m in record.moves:
        state = d.step(state, m, record.chance)[1]
    return state
