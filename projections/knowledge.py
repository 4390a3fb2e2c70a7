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


class Knowing:
    """One seat's knowledge as a game goes on (what `seat_knowledge` reads off a whole record, one step at a time:
    a live player's analysis, bench.strength): `know(state, events)` takes in the events one step made from
    `state`, and returns the state after them; `seen` is the knowledge so far."""

    def __init__(self, game: str, decider: Any, codec: Any, n: int, seat: int):
        self.decider, self.codec, self.n, self.seat = decider, codec, n, seat
        self.redact = projection_for(game).redact
        self.viewer = Viewer.of_seat(seat)
        self.seen: list[dict] = []

    def know(self, state: Any, events: list[dict]) -> Any:
        d, codec, seat = self.decider, self.codec, self.seat
        for e in events:
            private, public = d.disclosed(state, e)
            shown = [codec.format_card(c) for c in list(private.get(seat, ())) + list(public)]
            stored = codec.encode_event(e)
            data = {k: v for k, v in stored.items() if k != "type"}
            self.seen.append({"kind": e["type"], "data": self.redact(e["type"], data, self.viewer, self.n),
                              "shown": shown})
            state = d.evolve(state, e)
        return state


def seat_knowledge(record: Any, seat: int) -> tuple[list[dict], list[Decision]]:
    """The seat's knowledge of the whole game, and its decisions (see the module doc). `record` is a
    domain.records.Record; a move the rules refuse ends the replay there (a record cut short by its illegal move)."""
    from domain.rules import RuleViolation

    d = record.decider
    knowing = Knowing(record.game, d, record.codec, record.setup.n, seat)
    chance = record.chance
    state = knowing.know(d.initial_state(record.setup), d.start(record.setup, chance))
    decisions: list[Decision] = []
    for i, move in enumerate(record.moves):
        if move["seat"] == seat and move["type"] != "say":
            decisions.append(Decision(len(knowing.seen), i, dict(move)))
        try:
            events = d.step(state, move, chance)[0]
        except RuleViolation:
            decisions = [x for x in decisions if x.move_index < i]
            break
        state = knowing.know(state, events)
    return knowing.seen, decisions
