"""A game's stored events as one viewer may see them (contract §3 `GET /games/{id}/events`).

Each entry::

    {"version", "at" (ISO 8601, UTC), "type", "actor", "clause", "engine_version", "prev",
     "data": {...}, "rewound"?: true}

`type` is `created`, the kind of a game event (`dealt`, `drew`, `attacked`, ...),
`move_rejected`, `seed_revealed`, `dispute_filed`, `dispute_ruled`, `rewound`, `player_named` or
`time_expired` (a seat ran out of time: service.play.clocks; it opens an entry in the disputes); fields
that do not apply to a type are null.

Rules:
- Token hashes never appear. The seed appears only once the game has ended (a
  `seed_revealed` event is in the log), for every viewer, the referee included.
- Until the end: a game event's data is redacted by its game's plug-in (a seat sees its
  own deal and draws, nobody but the referee a shuffle's order); refused attempts (their
  own stream, domain.attempts: they never change the game's version) are the referee's
  only (they can name cards the seat holds, or that a bid exceeded a hand, BA-3.2); a rewind shows the restored
  table to the referee only, others see its numbers; fixed outcomes of a record (which
  can be the whole deck) are the referee's only.
- After the end, everyone sees everything (ER: the whole game is disclosed at the end), unless the end is
  `withheld` from this viewer (service.access.Access.end_shown: a duplicate board still played at another table):
  then the log reads as in play, and the `seed_revealed` entry carries no seed.
- A refused attempt's data carries `attempt` (its number in the game's attempts stream, what a dispute names) and
  `seat_attempt` (its number for its seat, domain.attempts.seat_numbers: what pages show); a dispute of a refusal
  carries `seat_attempt` too for a viewer who may see that refusal (the referee, everyone after the end; its own
  seat through `own_numbers`).
- A game event or rejected attempt in a branch undone by a rewind, i.e. whose version is
  in (to_version, from_version] of a `rewound` event, is marked `"rewound": true`.
  Disputes, rulings and the seed's reveal are not undone by a rewind and are not marked.
"""

from __future__ import annotations

from datetime import timezone
from typing import Any, Iterable

from domain.attempts import Attempts, seat_numbers
from domain.game import Game
from domain.games import spec_for

from .registry import GameProjection, projection_for
from .viewers import REFEREE, Viewer


def event_log(stored_events: Iterable[Any], viewer: Viewer, after: int = 0, ended: bool | None = None,
              attempts: Iterable[Any] = (), withheld: bool = False) -> list[dict]:
    """The entries after version `after` as `viewer` may see them; raises ValueError without the Created event.

    `stored_events` may be the Created event followed by only the events after `after` (a tail read);
    then say whether the game has `ended` (revealed its seed), which the tail alone may not show.
    `attempts` are the stored events of the game's attempts stream (domain.attempts): each refused
    attempt appears after the game event it met (same `version`, type `move_rejected`), to the
    referee only, or to everyone once the game has ended.
    """
    events = list(stored_events)
    if not events or not isinstance(events[0], Game.Created):
        raise ValueError("a game's event log starts with its Created event")
    created = events[0]
    if ended is None:
        ended = any(isinstance(e, Game.SeedRevealed) for e in events)
    else:
        ended = ended or any(isinstance(e, Game.SeedRevealed) for e in events)
    ended = ended and not withheld
    reader = _Reader(created, projection_for(created.game), REFEREE if ended else viewer, ended)
    undone = rewound_ranges(events)
    refused: dict[int, list] = {}
    if reader.viewer.is_referee:
        attempts = list(attempts)
        reader.numbers = seat_attempt_numbers(attempts)
        for a in attempts:
            if isinstance(a, Attempts.Refused) and a.at_version > after:
                refused.setdefault(a.at_version, []).append(a)
    out = []
    for e in events:
        version = e.originator_version
        if version > after:
            entry = reader.entry(e)
            if entry is not None:
                if isinstance(e, Game.Happened) and is_rewound(version, undone):
                    entry["rewound"] = True
                out.append(entry)
        for a in refused.pop(version, ()):
            entry = reader.refused(a)
            if is_rewound(a.at_version, undone):
                entry["rewound"] = True
            out.append(entry)
    return out


def seat_attempt_numbers(attempts: Iterable[Any]) -> dict[int, int]:
    """A game's attempts stream (all of it): each refusal's number in the stream -> its number for its seat."""
    refused = [a for a in attempts if isinstance(a, Attempts.Refused)]
    return {a.originator_version - 1: n for a, n in zip(refused, seat_numbers(a.actor for a in refused))}


def own_refusals(attempts: Iterable[Any], seat: int) -> list[dict]:
    """A seat's own refused attempts as log entries (what its 422 answers told it already: the move it sent, the
    clause and the reason), for that seat's own account of the table; never another seat's. `attempts`: the whole
    stream (each refusal's number for its seat is counted over it)."""
    attempts = list(attempts)
    numbers, actor = seat_attempt_numbers(attempts), f"seat:{seat}"
    return [refused_entry(a, numbers) for a in attempts if isinstance(a, Attempts.Refused) and a.actor == actor]


def own_numbers(entries: list[dict], attempts: Iterable[Any], seat: int) -> list[dict]:
    """`entries` with the seat's own disputes of a refusal given that refusal's `seat_attempt` (the seat made it, so
    its number is the seat's to read); every other entry as it was."""
    numbers, actor = seat_attempt_numbers(attempts), f"seat:{seat}"
    return [{**e, "data": {**e["data"], "seat_attempt": numbers[e["data"]["attempt"]]}}
            if e["type"] == "dispute_filed" and e["actor"] == actor and e["data"].get("attempt") in numbers else e
            for e in entries]


def refused_entry(a, numbers: dict[int, int]) -> dict:
    """A refused attempt (attempts stream) as a log entry placed at the game version it met; `numbers`: the stream's
    `seat_attempt_numbers`."""
    attempt = a.originator_version - 1
    return {"version": a.at_version, "at": a.timestamp.astimezone(timezone.utc).isoformat(), "type": "move_rejected",
            "actor": a.actor, "clause": a.clause, "engine_version": a.engine_version, "prev": a.prev,
            "data": {"move": dict(a.move), "reason": a.reason, "attempt": attempt, "seat_attempt": numbers[attempt]}}


def rewound_ranges(events: Iterable[Any]) -> list[tuple[int, int]]:
    """The (to_version, from_version] ranges undone by each rewind."""
    return [(e.to_version, e.from_version) for e in events if isinstance(e, Game.Rewound)]


def is_rewound(version: int, ranges: list[tuple[int, int]]) -> bool:
    """Whether a version lies in a branch that a rewind abandoned."""
    return any(low < version <= high for low, high in ranges)


class _Reader:
    """Turns one stored event into a log entry for one viewer (the referee stands in for everyone after the end)."""

    def __init__(self, created, projection: GameProjection, viewer: Viewer, ended: bool):
        self.created, self.projection, self.viewer, self.ended = created, projection, viewer, ended
        self.n = len(created.players)
        self.numbers: dict[int, int] = {}  # the refusals' numbers for their seats, when this viewer sees them

    def entry(self, e) -> dict | None:
        base = {"version": e.originator_version, "at": e.timestamp.astimezone(timezone.utc).isoformat(), "type": None,
                "actor": getattr(e, "actor", None), "clause": getattr(e, "clause", None),
                "engine_version": getattr(e, "engine_version", None), "prev": e.prev}
        if isinstance(e, Game.Happened):
            data = {k: v for k, v in e.data.items() if k != "type"}
            entry = {**base, "type": e.kind, "data": self.projection.redact(e.kind, data, self.viewer, self.n)}
            if getattr(e, "automatic", False):  # made by the service for its seat (a forced pass): public, as the pass is
                entry["automatic"] = True
            return entry
        if isinstance(e, Game.Created):
            return {**base, "type": "created", "data": self._created()}
        if isinstance(e, Game.SeedRevealed):
            return {**base, "actor": "engine", "type": "seed_revealed", "data": {"seed": e.seed if self.ended else None,
                                                                                 "result": e.result,
                                                                                 "winner": e.winner, "scores": e.scores}}
        if isinstance(e, Game.DisputeFiled):
            data = {"number": e.number, "against_version": e.against_version, "claim": e.claim}
            if e.attempt is not None:
                data["attempt"] = e.attempt  # a refused attempt: the attempt itself stays the referee's until the end
                if e.attempt in self.numbers:
                    data["seat_attempt"] = self.numbers[e.attempt]
            return {**base, "type": "dispute_filed", "data": data}
        if isinstance(e, Game.DisputeRuled):
            return {**base, "type": "dispute_ruled", "data": {"number": e.number, "decision": e.decision,
                                                             "remedy": e.remedy, "note": e.note}}
        if isinstance(e, Game.Rewound):
            return {**base, "actor": "referee", "type": "rewound", "data": self._rewound(e)}
        if isinstance(e, Game.PlayerNamed):
            return {**base, "type": "player_named", "data": {"seat": e.seat, "name": e.name}}
        if isinstance(e, Game.TimeExpired):
            return {**base, "actor": "clock", "type": "time_expired",
                    "data": {"number": e.number, "seat": e.seat, "control": e.control, "turn": e.turn,
                             "used_ms": e.used_ms, "limit_ms": e.limit_ms}}
        return None  # an event class this log does not know: shown to nobody

    def refused(self, a) -> dict:
        """A refused attempt (attempts stream) as a log entry placed at the game version it met."""
        return refused_entry(a, self.numbers)

    def _created(self) -> dict:
        c = self.created
        data = {"game": c.game, "options": dict(c.options), "players": [dict(p) for p in c.players],
                "dealer": c.dealer, "starter": c.starter, "seed_given": c.seed_given, "commitment": c.commitment,
                "stacked": c.stacked, "spectator_delay": getattr(c, "spectator_delay", None),
                "time_control": getattr(c, "time_control", None), "imported": getattr(c, "imported", False) is True}
        if self.viewer.is_referee:
            fmt = spec_for(c.game).codec.format_card
            data["outcomes"] = {k: [fmt(x) for x in v] if isinstance(v, list) else v for k, v in c.outcomes.items()}
        if self.ended:
            data["seed"] = c.seed
        return data

    def _rewound(self, e) -> dict:
        data = {"dispute": e.number, "to_version": e.to_version, "from_version": e.from_version}
        if self.viewer.is_referee:
            codec = spec_for(self.created.game).codec
            state = codec.load_state(e.state)
            data["table"] = self.projection.table(state, REFEREE, True)
            data["moves"] = [codec.format_move(m) for m in e.moves]
            data["move_versions"] = list(e.move_versions)
        return data
