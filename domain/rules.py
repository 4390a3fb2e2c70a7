"""What every game's decider shares: the errors it raises and the interface the aggregate calls.

A decider is a pure package (python-chess's Board, split into the Decider shape):
see the ``Decider`` protocol below for every function it offers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Protocol


class RuleViolation(ValueError):
    """A move the rules forbid: carries the rulebook clause id and a reason that reveals nothing hidden."""

    def __init__(self, clause: str, reason: str):
        super().__init__(f"{clause}: {reason}")
        self.clause = clause
        self.reason = reason


class MalformedMove(ValueError):
    """A move whose shape is wrong (a missing field, a bad card string): invalid, not illegal (contract §2)."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class InvalidSetup(ValueError):
    """A game set-up (or record) the rules forbid before any move: names the field and the problem."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    """How a game ended: result is 'win', 'elimination', 'draw' or None while in progress."""

    result: str | None
    seats: tuple[int, ...] = ()
    team: str | None = None
    scores: tuple[int, ...] | None = None  # per seat, where the game keeps a score (chips, points)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def winner_json(self) -> dict | None:
        """The verdict's `winner` field."""
        if self.result in (None, "draw"):
            return None
        return {"seats": list(self.seats), "team": self.team}


@dataclass(frozen=True)
class NextDeal:
    """Who deals and who starts a game of a match, and the clause that says so (a decider's optional `next_deal`).

    None for the dealer or the starter means the game decides it itself from its own committed seed
    (the rule for a first game, or a game whose rulebook draws again every game).
    """

    dealer: int | None
    starter: int | None
    clause: str
    reason: str


class Decider(Protocol):
    """The rules every game's decider package offers (docs/architecture.md, "Adding a game").

    Cards, moves and events are the decider's own: moves and events are JSON-safe dicts with
    a ``type`` key whose cards are ints in the game's own coding. Everything else about a game is
    declared once in its GameSpec (domain/spec.py): who it is (id, title, clause prefix), its codec
    (move types, card strings, stored events, snapshots, the pack: domain.kit.codec.Codec) and what it
    can do beyond these rules. Generic code (the aggregate, records, service, views) reads both and
    never asks which game it is.
    """

    # set-up and chance
    def configure(self, options: Any, players: Any, dealer: Any, starter: Any) -> Any: ...  # raises InvalidSetup
    def chance_of(self, event: dict) -> dict: ...  # label -> outcome of each random step an event carries

    # the rules
    def initial_state(self, setup: Any) -> Any: ...
    def start(self, setup: Any, chance: Any) -> list[dict]: ...  # the automatic opening; raises InvalidSetup
    def decide(self, state: Any, move: dict, chance: Any) -> list[dict]: ...  # raises RuleViolation
    def step(self, state: Any, move: dict, chance: Any) -> tuple[list[dict], Any]: ...  # decide + evolve
    def evolve(self, state: Any, event: dict) -> Any: ...  # the pure fold, never validates
    def legal_moves(self, state: Any) -> Iterator[dict]: ...  # every legal move of every seat to act, `say` aside
    def to_act(self, state: Any) -> tuple[int, ...]: ...
    def outcome(self, state: Any) -> Outcome: ...
    def final(self, state: Any) -> dict: ...  # the verdict's `final` (the referee's view, card strings)

    # evidence
    def move_of(self, event: dict) -> dict | None: ...  # the move an event records, None for automatic steps
    def clause_of(self, event: dict) -> str: ...
    def disclosed(self, state: Any, event: dict) -> tuple[dict[int, list[int]], list[int]]: ...  # (private, public)

    # What a game can do beyond this contract (matches, fast replay, forced passes, its own evidence check) is
    # declared in its GameSpec (domain/spec.py), never found by probing the decider.
