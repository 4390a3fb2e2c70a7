"""A game's stored rows read one at a time: a damaged row is reported at its version, never raised.

A row is damaged when it does not decode (not JSON, not UTF-8, not an object, a number too long
to read), when its topic is not one of the stream's event classes, when a field its event class
declares is missing, of the wrong type or not declared at all, or when the event cannot be
applied to the game folded from the rows before it. Snapshots are read the same way and each is
compared with the game folded from the events up to its version.

Damage is described by version, field and kind of damage, never by a stored value: a value may
be a card that the reader of a public verification may not see.
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.utils import get_topic

from domain.attempts import Attempts
from domain.game import Game


# every event a stored game or its attempts stream may hold (tests/unit/test_stored_rows_known_events.py: each
# event class the aggregates declare is here, so a genuine row is never called unknown)
GAME_EVENTS = (Game.Created, Game.Happened, Game.SeedRevealed, Game.DisputeFiled, Game.DisputeRuled, Game.PlayerNamed,
               Game.Rewound, Game.TimeExpired)
ATTEMPT_EVENTS = (Attempts.Opened, Attempts.Refused)


@dataclass(frozen=True)
class Damage:
    """What is wrong with a stored row, and at which version (None where no version applies)."""

    version: int | None
    problem: str

    def as_dict(self) -> dict:
        """Simple types for the API and CLI."""
        return {"version": self.version, "problem": self.problem}


@dataclass
class Reading:
    """A stream's rows decoded up to the first one that does not decode, and every damage found."""

    events: list = field(default_factory=list)
    damage: list[Damage] = field(default_factory=list)
    unreadable: Damage | None = None  # the first row that does not decode at all: reading stopped there
    aggregate: Any = None  # the fold of `events` up to the first event that cannot be applied
    folded_to: int = 0  # the version `aggregate` is at
    hashes: list = field(default_factory=list)  # the chain hash of each folded event (the fold computes it anyway)


def _hints(cls: type) -> dict[str, Any]:
    return {name: hint for name, hint in typing.get_type_hints(cls).items()
            if typing.get_origin(hint) is not typing.ClassVar}


_HINTS = {get_topic(cls): (cls, _hints(cls)) for cls in GAME_EVENTS + ATTEMPT_EVENTS}
_AGGREGATE_TOPICS = {Game.Created: get_topic(Game), Attempts.Opened: get_topic(Attempts)}


def _fits(value: Any, hint: Any) -> bool:
    if isinstance(hint, typing.TypeVar) or hint is Any:
        return True
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool, dict, list, datetime, UUID):
        return isinstance(value, hint)
    return True


def _type_name(hint: Any) -> str:
    if isinstance(hint, types.UnionType):
        return " or ".join(_type_name(h) for h in typing.get_args(hint))
    return "null" if hint is type(None) else getattr(hint, "__name__", str(hint))


def _why_undecodable(e: Exception) -> str:
    """The kind of decoding failure, without the stored text (a JSON error keeps its position only)."""
    cause = e.__cause__ or e
    if isinstance(cause, json.JSONDecodeError):
        return f"not valid JSON ({cause.msg} at character {cause.pos})"
    if isinstance(cause, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return "a number too long to read"
    if isinstance(e, TypeError):
        return "not a JSON object"
    return f"a value cannot be decoded ({type(cause).__name__})"


def _compiled(hint: Any) -> tuple | None:
    """The types a value of `hint` may have, as (types, bool allowed), or None where _fits accepts anything."""
    if isinstance(hint, typing.TypeVar) or hint is Any:
        return None
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        parts = [_compiled(h) for h in typing.get_args(hint)]
        if any(p is None for p in parts):
            return None
        return tuple(t for p in parts for t in p[0]), any(p[1] for p in parts)
    if hint is type(None) or hint in (int, str, bool, dict, list, datetime, UUID):
        return (hint,), hint is bool
    return None


_CHECKS = {topic: (frozenset(hints), [(name, frozenset(t for t in c[0] if t is not bool), c[0], c[1])
                                        for name, c in ((n, _compiled(h)) for n, h in hints.items()) if c])
           for topic, (cls, hints) in _HINTS.items()}


def _shape_ok(event: Any, topic: str) -> bool:
    """The common case of _shape_problem answered fast: every declared field present, of its type, none other."""
    fields = event.__dict__
    names, checks = _CHECKS[topic]
    if fields.keys() != names:
        return False
    for name, exact, allowed, bool_ok in checks:
        value = fields[name]
        if value.__class__ in exact:
            continue
        if not isinstance(value, allowed) or (value.__class__ is bool and not bool_ok):
            return False
    return True


def _shape_problem(event: Any, cls: type, hints: dict[str, Any]) -> str | None:
    fields = event.__dict__
    for name, hint in hints.items():
        if name not in fields:
            return f"field {name!r} is missing"
        if not _fits(fields[name], hint):
            return f"field {name!r} is a {type(fields[name]).__name__} where a {_type_name(hint)} belongs"
    extra = sorted(set(fields) - set(hints))
    if extra:
        return f"field {extra[0][:40]!r} does not belong to a {cls.__qualname__} event"
    expected_aggregate = _AGGREGATE_TOPICS.get(cls)
    if expected_aggregate is not None and fields["originator_topic"] != expected_aggregate:
        return "field 'originator_topic' names another kind of aggregate"
    return None


_MARK = b'"_type_"'


def _plain_event(mapper: Any, row: Any) -> Any:
    """The row's event as the mapper would decode it, for the common row whose only encoded value is its timestamp
    (plain JSON otherwise: decoded without the mapper's per-object hook); None for any other row (the mapper reads it)."""
    state = row.state
    if mapper.cipher is not None or mapper.compressor is not None or not isinstance(row.originator_id, UUID) \
            or not isinstance(state, bytes) or state.count(_MARK) != 1:
        return None
    try:
        fields = json.loads(state.decode("utf-8"))
        stamp = fields["timestamp"]
        if len(stamp) != 2 or stamp["_type_"] != "datetime_iso" or "class_version" in fields:
            return None
        fields["timestamp"] = datetime.fromisoformat(stamp["_data_"])
    except Exception:  # anything unusual: the mapper decodes it, or says why it cannot
        return None
    fields["originator_id"] = row.originator_id
    fields["originator_version"] = row.originator_version
    event = object.__new__(_HINTS[row.topic][0])
    object.__setattr__(event, "__dict__", fields)
    return event


def read_stream(app: Any, stream_id: UUID, allowed: tuple[type, ...], name: str = "stored event",
                rows: list | None = None) -> Reading:
    """Decode a stream's rows one by one (their topics must be among `allowed`), checking each against its class
    (`rows`: the stream's rows in version order, already read in bulk; else they are read here)."""
    reading = Reading()
    topics = {get_topic(cls) for cls in allowed}
    for row in app.recorder.select_events(stream_id) if rows is None else rows:
        version = row.originator_version
        if row.topic not in topics:
            reading.unreadable = Damage(version, f"{name} {version} is not a known event (its topic was changed)")
            break
        try:
            event = _plain_event(app.mapper, row) or app.mapper.to_domain_event(row)
        except Exception as e:  # whatever the library raises on a damaged row
            reading.unreadable = Damage(version, f"{name} {version} cannot be read: {_why_undecodable(e)}")
            break
        cls, hints = _HINTS[row.topic]
        problem = None if _shape_ok(event, row.topic) and (
            cls not in _AGGREGATE_TOPICS or event.originator_topic == _AGGREGATE_TOPICS[cls]) \
            else _shape_problem(event, cls, hints)
        if problem:
            reading.damage.append(Damage(version, f"{name} {version} is damaged: {problem}"))
        reading.events.append(event)
    if reading.unreadable:
        reading.damage.append(reading.unreadable)
    return reading


def read_game(app: Any, game_id: UUID, rows: list | None = None, snapshot_rows: list | None = None) -> Reading:
    """A game's rows decoded and checked one by one, folded into the game up to the first event that cannot be
    applied, and each stored snapshot compared with the fold at its version (`rows`, `snapshot_rows`: read in
    bulk already, in version order)."""
    reading = read_stream(app, game_id, GAME_EVENTS, rows=rows)
    snapshots, unreadable_snapshot = _snapshots(app, game_id, snapshot_rows)
    shape_damaged = {d.version for d in reading.damage}
    game = None
    for event in reading.events:
        if event.originator_version in shape_damaged or event.originator_version != (game.version + 1 if game else 1):
            break  # a damaged row, or a gap (the hash chain names it): the fold stops before it
        try:
            game = event.mutate(game)
        except Exception as e:  # the decider cannot read the event's data, or the fold refuses it
            reading.damage.append(Damage(event.originator_version, f"stored event {event.originator_version} cannot be applied "
                                         f"to the game before it ({type(e).__name__})"))
            break
        reading.aggregate, reading.folded_to = game, event.originator_version
        reading.hashes.append(game.chain_head)
        snapshot = snapshots.pop(event.originator_version, None)
        if snapshot is not None:
            damage = _snapshot_differs(snapshot, game)
            if damage:
                reading.damage.append(damage)
    if unreadable_snapshot:
        reading.damage.append(unreadable_snapshot)
    elif snapshots and reading.folded_to == len(reading.events) and not reading.unreadable:
        version = min(snapshots)
        reading.damage.append(Damage(version, f"the snapshot at version {version} is beyond the game's last event"))
    return reading


def _snapshots(app: Any, game_id: UUID, rows: list | None = None) -> tuple[dict[int, Any], Damage | None]:
    """A game's stored snapshots by version, and the first one that does not decode (if any)."""
    if app.snapshots is None:
        return {}, None
    topic, game_topic = get_topic(Snapshot), get_topic(Game)
    out = {}
    for row in app.snapshots.recorder.select_events(game_id) if rows is None else rows:
        version = row.originator_version
        try:
            if row.topic != topic:
                raise TypeError("not a snapshot")
            snapshot = app.mapper.to_domain_event(row)
            if snapshot.topic != game_topic or not isinstance(snapshot.state, dict):
                raise TypeError("not a game's snapshot")
        except Exception as e:
            return out, Damage(version, f"the snapshot at version {version} cannot be read: {_why_undecodable(e)}")
        out[version] = snapshot
    return out, None


def _settled_fields(game: Any) -> dict:
    """A game's public fields with the clock of its last batch of events settled (Game.clock_now): a snapshot the
    service takes from the game it just saved holds the settled clock, a fold of the events up to the same version
    the unsettled one, and both are the same game."""
    fields = {k: v for k, v in vars(game).items() if not k.startswith("_")}
    if "clock" in fields:
        fields["clock"] = game.clock_now()
    return fields


def _snapshot_differs(snapshot: Any, game: Any) -> Damage | None:
    version = snapshot.originator_version
    try:
        taken = snapshot.mutate(None)
    except Exception as e:
        return Damage(version, f"the snapshot at version {version} cannot be read ({type(e).__name__})")
    if _settled_fields(game) != _settled_fields(taken):
        return Damage(version, f"the snapshot at version {version} differs from the events it summarises")
    return None
