"""Refused move attempts, kept as evidence in a stream of their own beside the game's.

A refusal never changes the game's version: one seat sending illegal moves can never make
another seat's move fail on `expected_version`, and a refusal whose very existence tells
something (an over-bid, BA-3.2: the bidder's hand is weaker than the bid) leaves no
trace that another seat can see — no version gap, no log entry, no stream message. The
stream is hash-chained like the game's (domain.audit) and read by the referee's audit.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from .audit import GENESIS, event_hash
from .game import Chained

_NAMESPACE = UUID("6f1d3c0e-8a43-4b1e-9d55-2f6a1c7e0b42")


def seat_numbers(actors: Iterable[str]) -> list[int]:
    """Each refusal's number for the seat that made it (its 1st, 2nd, ... refused attempt), given the actors of a game's
    refusals in the stream's order: the one number every page shows a person (the stream's own count, 1, 2, ... over
    all seats, is what a dispute names and an anchor uses)."""
    made: Counter[str] = Counter()
    numbers = []
    for actor in actors:
        made[actor] += 1
        numbers.append(made[actor])
    return numbers


def attempts_id(game_id: UUID) -> UUID:
    """The id of a game's attempts stream (derived from the game's id, so nobody needs to store it)."""
    return uuid5(_NAMESPACE, str(game_id))


class Attempts(Aggregate):
    """Every refused attempt at one game: who, what, the clause and reason, and the game version it met."""

    class Opened(Aggregate.Created):
        game_id: str
        prev: str

        def apply(self, attempts: "Attempts") -> None:
            attempts.chain_head = event_hash(self)

    class Refused(Chained):
        """A move attempt the rules refused (the game itself is unchanged)."""

        actor: str
        move: dict
        clause: str
        reason: str
        at_version: int
        engine_version: str
        idempotency_key: str | None
        record_move: int | None = None  # an uploaded record's illegal move: its index in the record; absent before

        def apply_to(self, attempts: "Attempts") -> None:
            attempts.count += 1
            attempts.refused[attempts.count] = {"actor": self.actor, "at_version": self.at_version}
            if self.idempotency_key:
                attempts.answers[self.idempotency_key] = {"version": self.at_version, "rejected": True, "clause": self.clause,
                                                          "reason": self.reason, "actor": self.actor, "attempt": attempts.count}

    def __init__(self, game_id: str, prev: str):
        self.game_id = game_id
        self.count = 0
        self.answers: dict[str, dict] = {}  # idempotency key -> the refusal given
        self.refused: dict[int, dict] = {}  # attempt number (1, 2, ...) -> {actor, at_version}: what a dispute may name
        self.chain_head = GENESIS

    def seat_attempt(self, attempt: int) -> int:
        """The seat's own number (`seat_numbers`) of the refused attempt numbered `attempt` in the stream."""
        return seat_numbers(self.refused[n]["actor"] for n in range(1, attempt + 1))[-1]

    @classmethod
    def open(cls, game_id: UUID) -> "Attempts":
        """The (empty) attempts stream of a game."""
        return cls._create(cls.Opened, id=attempts_id(game_id), game_id=str(game_id), prev=GENESIS)

    def refuse(self, actor: str, move: dict, clause: str, reason: str, at_version: int, engine_version: str,
               idempotency_key: str | None = None, record_move: int | None = None) -> None:
        """Keep one refused attempt (`move` in record form, cards as strings; `record_move`: the index of an uploaded
        record's move that the import found illegal)."""
        self.trigger_event(Attempts.Refused, actor=actor, move=dict(move), clause=clause, reason=reason, at_version=at_version,
                           engine_version=engine_version, idempotency_key=idempotency_key, prev=self.chain_head,
                           record_move=record_move)
