"""What one seat knew, event by event: the input of computer analysis (domain/analysis.py, docs/analysis.md).

A game (a validated record: its set-up, randomness and moves) is replayed on the bare decider; each event it makes
is turned into the seat's knowledge of it, ``{"kind", "data", "shown"}``: `data` is the event's stored data as the
game's projection redacts it for that seat (the same `redact` the seat's event log uses while the game is on), and
`shown` the cards the event showed that seat, privately or to all (the decider's `disclosed`, read as the disclosure
ledger reads it, kept to what reached this seat). Nothing else of an event is kept: whatever the seat did not see
stays here, on the referee's side of this function.

Each of the seat's own moves (`say` aside) is a decision: where it stands in the knowledge (how many events the
seat had seen before it), the move (the seat made it, so it knows it) and its index among the game's moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .registry import projection_for
from .viewers import Viewer


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: `index` events of its knowledge came before it; `move_index` in the game's moves."""

    index: int
    move_index: int
    move: dict


def seat_knowledge(record: Any, seat: int) -> tuple[list[dict], list[Decision]]:
    """The seat's knowledge of the whole game, and its decisions (see the module doc). `record` is a
    domain.records.Record; a move the rules refuse ends the replay there (a record cut short by its illegal move)."""
    from domain.rules import RuleViolation

    d, codec = record.decider, record.codec
    n = record.setup.n
    redact = projection_for(record.game).redact
    viewer = Viewer.of_seat(seat)
    chance = record.chance
    state = d.initial_state(record.setup)
    seen: list[dict] = []

    def know(events: list[dict]) -> None:
        nonlocal state
        for e in events:
            private, public = d.disclosed(state, e)
            shown = [codec.format_card(c) for c in list(private.get(seat, ())) + list(public)]
            stored = codec.encode_event(e)
            data = {k: v for k, v in stored.items() if k != "type"}
            seen.append({"kind": e["type"], "data": redact(e["type"], data, viewer, n), "shown": shown})
            state = d.evolve(state, e)

    know(d.start(record.setup, chance))
    decisions: list[Decision] = []
    for i, move in enumerate(record.moves):
        if move["seat"] == seat and move["type"] != "say":
            decisions.append(Decision(len(seen), i, dict(move)))
        try:
            events = d.step(state, move, chance)[0]
        except RuleViolation:
            decisions = [x for x in decisions if x.move_index < i]
            break
        know(events)
    return seen, decisions
