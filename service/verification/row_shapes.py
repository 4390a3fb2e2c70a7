"""A stored row's fields held against its event class: every field its class declares present, of its type, and none
other; and why a row that does not decode could not (said without the stored text).

Both row decoders use it (service.verification.stored_rows, service.verification.plain_rows). A problem names the
field and the kind of damage, never a stored value: a value may be a card the reader of a public verification may
not see.
"""

from __future__ import annotations

import json
import types
import typing
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.attempts import Attempts
from domain.game import Game

# every event a stored game or its attempts stream may hold (tests/unit/test_stored_rows_known_events.py: each
# event class the aggregates declare is here, so a genuine row is never called unknown)
GAME_EVENTS = (Game.Created, Game.Happened, Game.SeedRevealed, Game.DisputeFiled, Game.DisputeRuled, Game.PlayerNamed,
               Game.Rewound, Game.TimeExpired)
ATTEMPT_EVENTS = (Attempts.Opened, Attempts.Refused)


def _hints(cls: type) -> dict[str, Any]:
    return {name: hint for name, hint in typing.get_type_hints(cls).items()
            if typing.get_origin(hint) is not typing.ClassVar}


HINTS = {get_topic(cls): (cls, _hints(cls)) for cls in GAME_EVENTS + ATTEMPT_EVENTS}
# fields an event class gained later, with a default: a row stored before has none of them (its hash never had them)
LATER = {get_topic(Game.Created): frozenset({"spectator_delay", "time_control", "imported"}),
         get_topic(Attempts.Refused): frozenset({"record_move"})}
AGGREGATE_TOPICS = {Game.Created: get_topic(Game), Attempts.Opened: get_topic(Attempts)}


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


def why_undecodable(e: Exception) -> str:
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


_CHECKS = {topic: (frozenset(hints), LATER.get(topic, frozenset()), [(name, frozenset(t for t in c[0] if t is not bool), c[0], c[1])
                                        for name, c in ((n, _compiled(h)) for n, h in hints.items()) if c])
           for topic, (cls, hints) in HINTS.items()}


def shape_ok(event: Any, topic: str) -> bool:
    """The common case of shape_problem answered fast: every declared field present, of its type, none other."""
    fields = event.__dict__
    names, later, checks = _CHECKS[topic]
    if fields.keys() != names and not (fields.keys() <= names and names - fields.keys() <= later):
        return False
    for name, exact, allowed, bool_ok in checks:
        if name not in fields:
            continue  # a field the class gained later (LATER), absent from an older row
        value = fields[name]
        if value.__class__ in exact:
            continue
        if not isinstance(value, allowed) or (value.__class__ is bool and not bool_ok):
            return False
    return True


def shape_problem(event: Any, cls: type, hints: dict[str, Any]) -> str | None:
    fields = event.__dict__
    later = LATER.get(get_topic(cls), frozenset())
    for name, hint in hints.items():
        if name not in fields:
            if name in later:
                continue
            return f"field {name!r} is missing"
        if not _fits(fields[name], hint):
            return f"field {name!r} is a {type(fields[name]).__name__} where a {_type_name(hint)} belongs"
    extra = sorted(set(fields) - set(hints))
    if extra:
        return f"field {extra[0][:40]!r} does not belong to a {cls.__qualname__} event"
    expected_aggregate = AGGREGATE_TOPICS.get(cls)
    if expected_aggregate is not None and fields["originator_topic"] != expected_aggregate:
        return "field 'originator_topic' names another kind of aggregate"
    return None
