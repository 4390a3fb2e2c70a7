"""The sandbox a study's variation is played in: no store, no events kept, never the recorded game.

Its start is a full decider state that the game's `Analysis.sample` builds from the seat's knowledge at the study's
version (projections.knowledge: the record's events as that seat saw them) and the study's seed, nothing else: the
real game's hidden cards, seed and later shuffles never reach it, so two games that differ only in cards the seat
had not seen give the same sandbox for a seed (tests/unit/test_study_sandbox.py). Its chance (a reshuffle, a draw
from the sampled stock) comes from the study's seed too. Every move, the user's and the bots', goes through the
decider's `step` (one source of legality). What is shown of it is one seat's projection of the sandbox state.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from bots.base import SeatView
from bots.registry import make_bot
from domain.analysis import analysis_of
from domain.games import spec_for
from domain.randomness import Chance
from domain.records import InvalidRecord, Record, parse_move
from domain.rules import RuleViolation
from projections.knowledge import seat_knowledge
from projections.narration import describe, generic
from projections.registry import projection_for
from projections.viewers import Viewer

MAX_BOT_MOVES = 2000  # bots answering one user move stop here (a game the bots cannot finish stays open)


class BadVariationMove(ValueError):
    """A move the sandbox refuses: malformed (`clause` None) or illegal (the rule's clause)."""

    def __init__(self, reason: str, clause: str | None = None):
        super().__init__(reason)
        self.reason, self.clause = reason, clause


@dataclass
class Sandbox:
    """A study's position: the game's spec and set-up, the seat, the state, the study's chance and seed."""

    game: str
    setup: Any
    seat: int
    seed: str
    state: Any
    chance: Chance
    public: list
    events: tuple = ()  # the events the last move made (seen_text tells them as a seat saw them)

    @property
    def decider(self):
        return spec_for(self.game).decider

    def over(self) -> bool:
        return self.decider.outcome(self.state).is_over

    def to_act(self) -> tuple[int, ...]:
        return tuple(self.decider.to_act(self.state))

    def play(self, raw: Any, seat: int | None = None) -> dict:
        """Play one move (record form) in the sandbox; returns it in record form; raises BadVariationMove."""
        d = self.decider
        if self.over():
            raise BadVariationMove("the variation's game is over: no move can follow")
        if isinstance(raw, dict) and "seat" not in raw and seat is not None:
            raw = {**raw, "seat": seat}
        try:
            move = parse_move(raw, self.setup.n, spec_for(self.game).codec, "move")
        except InvalidRecord as e:
            raise BadVariationMove(str(e)) from None
        if move["type"] == "say":
            raise BadVariationMove("move.type: table talk has no place in a variation")
        try:
            events, self.state = d.step(self.state, move, self.chance)
        except RuleViolation as v:
            raise BadVariationMove(f"{v.clause}: {v.reason}", v.clause) from None
        self.events = tuple(events)
        return spec_for(self.game).codec.format_move(move)

    def bot_move(self, ply: int) -> dict:
        """The move the game's heuristic bot (the random bot where the game has none) makes for the seat to act."""
        spec = spec_for(self.game)
        seat = self.to_act()[0]
        rng = random.Random(f"arbiter-study|{self.seed}|bot|{seat}|{ply}")
        bot = make_bot("heuristic" if spec.bot else "random", self.game, seat, rng, spec.bot)
        view = SeatView(self.game, seat, self.view(seat), self.public, dict(self.setup.options()))
        return self.play(bot.choose(view))

    def view(self, seat: int) -> dict:
        """The seat's projection of the sandbox state (a table, its legal moves when it is to act)."""
        return projection_for(self.game).table(self.state, Viewer.of_seat(seat), False)


def seen_text(sandbox: Sandbox, seat: int, names: list[str]) -> str:
    """The events of the sandbox's last move in words, each as the game's projection redacts it for `seat` (the same
    `redact` a seat's event log uses while a game is on): a bot's move is told as the study's seat saw it, never
    with the cards it could not see (its hand arranged, a card discarded face down)."""
    spec = spec_for(sandbox.game)
    redact, viewer, n = projection_for(sandbox.game).redact, Viewer.of_seat(seat), sandbox.setup.n
    lines = []
    for e in sandbox.events:
        stored = spec.codec.encode_event(e)
        data = redact(e["type"], {k: v for k, v in stored.items() if k != "type"}, viewer, n)
        event = {"type": e["type"], **data}
        try:
            lines.append(describe(sandbox.game, event, names))
        except (KeyError, IndexError, TypeError, ValueError):  # a redacted event may lack a field its words need
            lines.append(generic(event, names))
    return "; ".join(line for line in lines if line)


def knowledge_at(record: Record, seat: int) -> list[dict]:
    """What `seat` had seen of a record (cut at the study's version): its redacted events (projections.knowledge)."""
    return seat_knowledge(record, seat)[0]


def open_sandbox(game: str, setup: Any, seat: int, seen: list[dict], seed: str) -> Sandbox:
    """The sandbox at a study's start: a state sampled from `seen` and `seed` alone (raises NotAnalysable for a game
    whose spec declares no sampler)."""
    a = analysis_of(spec_for(game))
    state = a.sample(setup, seat, seen, random.Random(f"arbiter-study|{seed}|deal"))
    chance = Chance(hashlib.sha256(f"arbiter-study|{seed}|chance".encode()).hexdigest())
    public = [{"seat": i, "name": p.get("name"), "team": p.get("team")} for i, p in enumerate(setup.players())]
    return Sandbox(game, setup, seat, seed, state, chance, public)


def replay(sandbox: Sandbox, moves: list[dict]) -> Sandbox:
    """The sandbox after a study's stored moves (each judged legal when it was played)."""
    for m in moves:
        sandbox.play(m["move"])
    return sandbox


def bots_answer(sandbox: Sandbox, ply: int) -> list[dict]:
    """The bots play the other seats until the study's seat is to act or the game is over; returns their moves."""
    out: list[dict] = []
    while not sandbox.over() and sandbox.seat not in sandbox.to_act() and len(out) < MAX_BOT_MOVES:
        out.append(sandbox.bot_move(ply + len(out)))
    return out
