"""What every game's decider shares: the errors it raises and the interface the aggregate calls.

A decider is a pure module (python-chess's Board, split into the Decider shape):

- ``configure(options, players) -> Setup`` validates a set-up (raises InvalidSetup)
- ``start(setup, chance) -> events`` the automatic opening (deal, first turn)
- ``initial_state(setup) -> State`` the state before any event
- ``decide(state, move, chance) -> events`` validates one move (raises RuleViolation)
- ``evolve(state, event) -> State`` the pure fold; never raises on an event decide produced
- ``legal_moves(state) -> iterator of moves`` of the seat to act
- ``final(state) -> dict`` and ``outcome(state) -> Outcome`` for verdicts

Moves and events are plain dicts with a ``type`` key and JSON-safe values;
cards inside them are ints (domain.cards) and become strings at the edges.
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

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def winner_json(self) -> dict | None:
        """The verdict's `winner` field."""
        if self.result in (None, "draw"):
            return None
        return {"seats": list(self.seats), "team": self.team}


class Decider(Protocol):
    """The interface every game module offers (see module docstring)."""

    GAME: str
    MOVE_TYPES: frozenset[str]
    CARD_FIELDS: frozenset[str]

    def configure(self, options: dict, players: list[dict], dealer: int | None, starter: int | None) -> Any: ...
    def start(self, setup: Any, chance: Any) -> list[dict]: ...
    def initial_state(self, setup: Any) -> Any: ...
    def decide(self, state: Any, move: dict, chance: Any) -> list[dict]: ...
    def step(self, state: Any, move: dict, chance: Any) -> tuple[list[dict], Any]: ...
    def evolve(self, state: Any, event: dict) -> Any: ...
    def legal_moves(self, state: Any) -> Iterator[dict]: ...
    def final(self, state: Any) -> dict: ...
    def outcome(self, state: Any) -> Outcome: ...
