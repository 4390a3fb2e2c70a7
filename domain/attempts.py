"""Refused move attempts, kept as evidence in a stream of their own beside the game's.

A refusal never changes the game's version: one seat sending illegal moves can never make
another seat's move fail on `expected_version`, and a refusal whose very existence tells
something (an over-bid, BA-3.2: the bidder's hand is weaker than the bid) leaves no
trace that another seat can see — no version gap, no log entry, no stream message. The
stream is hash-chained like the game's (domain.audit) and read by the referee's audit.

Refusals kept are bounded per seat (docs/api.md, "Limits"): at most KEPT_PER_WINDOW in any WINDOW_SECONDS (the next
one waits: `wait_before_keeping`, a 429 with Retry-After at the API) and at most KEPT_PER_SEAT in a game (past it a
refusal is still answered, with its clause, but no longer kept: `keeps_more`). What the bound turns away is counted by
the service, never stored, so no seat can grow the store or the checkpoint log without bound.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from .audit import GENESIS, event_hash
from .game import Chained

KEPT_PER_WINDOW = 20  # refusals kept for one seat of one game in any WINDOW_SECONDS
WINDOW_SECONDS = 60
KEPT_PER_SEAT = 500  # refusals kept for one seat of one game in all

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
            attempts.kept[self.actor] = attempts.kept.get(self.actor, 0) + 1
            recent = attempts.recent.setdefault(self.actor, [])
            recent.append(self.timestamp.timestamp())
            del recent[:-KEPT_PER_WINDOW]
            if self.idempotency_key:
                attempts.answers[self.idempotency_key] = {"version": self.at_version, "rejected": True, "clause": self.clause,
                                                          "reason": self.reason, "actor": self.actor, "attempt": attempts.count}

    def __init__(self, game_id: str, prev: str):
        self.game_id = game_id
        self.count = 0
        self.answers: dict[str, dict] = {}  # idempotency key -> the refusal given
        self.refused: dict[int, dict] = {}  # attempt number (1, 2, ...) -> {actor, at_version}: what a dispute may name
        self.kept: dict[str, int] = {}  # actor -> how many of its refusals are kept
        self.recent: dict[str, list[float]] = {}  # actor -> when its last KEPT_PER_WINDOW refusals were kept (epoch s)
        self.chain_head = GENESIS

    def seat_attempt(self, attempt: int) -> int:
        """The seat's own number (`seat_numbers`) of the refused attempt numbered `attempt` in the stream."""
        return seat_numbers(self.refused[n]["actor"] for n in range(1, attempt + 1))[-1]

    @classmethod
    def open(cls, game_id: UUID) -> "Attempts":
        """The (empty) attempts stream of a game."""
        return cls._create(cls.Opened, id=attempts_id(game_id), game_id=str(game_id), prev=GENESIS)

    def wait_before_keeping(self, actor: str, now: float) -> float:
        """Seconds before another refusal of `actor` may be kept (0: now): KEPT_PER_WINDOW in any WINDOW_SECONDS."""
        recent = self.recent.get(actor, [])
        if len(recent) < KEPT_PER_WINDOW:
            return 0.0
        return max(0.0, recent[-KEPT_PER_WINDOW] + WINDOW_SECONDS - now)

    def keeps_more(self, actor: str) -> bool:
        """Whether another refusal of `actor` is kept: fewer than KEPT_PER_SEAT of its refusals are."""
        return self.kept.get(actor, 0) < KEPT_PER_SEAT

    def refuse(self, actor: str, move: dict, clause: str, reason: str, at_version: int, engine_version: str,
               idempotency_key: str | None = None, record_move: int | None = None) -> None:
        """Keep one refused attempt (`move` in record form, cards as strings; `record_move`: the index of an uploaded
        record's move that the import found illegal)."""
        self.trigger_event(Attempts.Refused, actor=actor, move=dict(move), clause=clause, reason=reason, at_version=at_version,
                           engine_version=engine_version, idempotency_key=idempotency_key, prev=self.chain_head,
                           record_move=record_move)
