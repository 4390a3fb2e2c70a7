"""A plain game's stored rows decoded in one pass for the one-pass check (service.verification.fast_verify): fields and chain hashes.

A plain game's rows are versions 1..n: a Created event, then Happened and SeedRevealed events, each row's JSON
holding exactly its class's fields with only its timestamp in the library's encoding. For such rows this module
does, per row, what the mapper, stored_rows' shape check and domain.audit's hash each did on their own:

- the row is decoded once (orjson), and the fields are checked against the class (every declared field present,
  of its type, none other);
- the chain hash is computed on that same dict, the timestamp kept as the text the row holds: the canonical JSON
  (sorted keys, no spaces, UTF-8) is written by orjson, whose bytes are those of domain.audit's encoder for every
  value a decoded row can hold except a float (tests/unit/test_plain_rows.py) — so a row holding a float, anywhere,
  is not plain, and neither is a timestamp that is not written the way `datetime.isoformat` writes it;
- each row's `prev` is held against the hash of the row before it.

Event objects are built only for the few events a report needs (`event_of`). Any row that is not plain raises
Unusual: the game then takes the detailed road (service.verification.stored_rows, service.verification.integrity), which decodes every row
with the library's mapper and names any damage. A row the fast decoding takes is always one the mapper decodes to
the same fields (the tests hold both to that), so the two roads never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.utils import get_topic

from domain.audit import GENESIS
from domain.game import Game

from service.adapters.canonical_json import canonical_hash

from .stored_rows import _shape_ok

CREATED, HAPPENED, REVEALED = (cls.__qualname__ for cls in (Game.Created, Game.Happened, Game.SeedRevealed))
_CREATED_TOPIC, _HAPPENED_TOPIC, _REVEALED_TOPIC = (get_topic(c) for c in (Game.Created, Game.Happened, Game.SeedRevealed))
_GAME_TOPIC = get_topic(Game)
_MARK = b'"_type_"'  # the library's mark of an encoded value: a plain row holds one, its timestamp
_HAPPENED_FIELDS = 9  # timestamp, prev, kind, data, actor, clause, engine_version, idempotency_key, automatic
# how datetime.isoformat writes a UTC time, microseconds present (not all zero) or absent: such a text, if it is a
# time at all (fromisoformat), is what isoformat writes of the time read back from it
_ISO_UTC = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.(?!000000)[0-9]{6})?\+00:00").fullmatch
_fromisoformat = datetime.fromisoformat


class Unusual(Exception):
    """The game is not one the fast pass checks: the detailed road takes it."""


@dataclass
class PlainGame:
    """A plain game's rows: each event's fields as hashed (timestamp as text, id as text, `class` added; the Created
    event's without its secret seed), the chain hash of each version, and the Created and SeedRevealed events."""

    fields: list
    hashes: list
    created: Any
    reveals: list


def _float_free(value: Any) -> bool:
    """No float anywhere in a decoded JSON value (orjson and json write floats differently; big integers decode
    to floats in orjson)."""
    kind = value.__class__
    if kind is dict:
        value = value.values()
    elif kind is not list:
        return kind is not float
    for item in value:
        kind = item.__class__
        if kind is float or ((kind is dict or kind is list) and not _float_free(item)):
            return False
    return True


def _stamp(fields: dict) -> str:
    """The row's timestamp as the text the hash covers; Unusual unless it is a time written as isoformat writes it."""
    stamp = fields["timestamp"]
    if stamp.__class__ is not dict or len(stamp) != 2 or stamp["_type_"] != "datetime_iso":
        raise Unusual
    text = stamp["_data_"]
    if text.__class__ is not str or _ISO_UTC(text) is None:
        raise Unusual
    _fromisoformat(text)  # a month 13 or a second 60 is no time: ValueError, and the mapper's road says so
    return text


def _event(cls: type, fields: dict, game_id: UUID) -> Any:
    """The event of `cls` whose fields are `fields` in their hashed form (the dict is not changed)."""
    values = dict(fields)
    del values["class"]
    values["timestamp"] = _fromisoformat(values["timestamp"])
    values["originator_id"] = game_id
    event = object.__new__(cls)
    object.__setattr__(event, "__dict__", values)
    return event


def _checked(cls: type, topic: str, fields: dict, version: int, game_id: UUID, oid: str) -> Any:
    """A Created or SeedRevealed row's fields, checked in full against the class: (its event, its fields as hashed)."""
    text = _stamp(fields)
    if not _float_free(fields):
        raise Unusual
    fields["timestamp"], fields["originator_id"], fields["originator_version"] = text, oid, version
    fields["class"] = cls.__qualname__
    event = _event(cls, fields, game_id)
    if not _shape_ok(event, topic) or (cls is Game.Created and event.originator_topic != _GAME_TOPIC):
        raise Unusual
    return event


def decode_game(game_id: UUID, raw: list) -> PlainGame:
    """A plain game's rows `raw` ((stream id, version, topic, state) in version order) decoded, checked and hashed, the chain
    followed from the genesis; raises Unusual for a game that is not plain or whose chain breaks."""
    if not raw:
        raise Unusual
    oid, loads = str(game_id), orjson.loads
    fields: list = []
    hashes: list = []
    reveals: list = []
    created = None
    head = GENESIS
    version = 0
    for _, version_stored, topic, state in raw:
        version += 1
        if version_stored != version or state.__class__ is not bytes or state.count(_MARK) != 1:
            raise Unusual
        f = loads(state)
        if topic == _HAPPENED_TOPIC and version > 1:
            if len(f) != _HAPPENED_FIELDS:
                raise Unusual
            text = _stamp(f)
            key = f["idempotency_key"]
            if f["prev"] != head or f["kind"].__class__ is not str or f["actor"].__class__ is not str \
                    or f["clause"].__class__ is not str or f["engine_version"].__class__ is not str \
                    or (key is not None and key.__class__ is not str) or f["automatic"].__class__ is not bool \
                    or f["data"].__class__ is not dict or not _float_free(f["data"]):
                raise Unusual
            f["timestamp"], f["originator_id"], f["originator_version"], f["class"] = text, oid, version, HAPPENED
            hashed = f
        elif topic == _REVEALED_TOPIC and version > 1:
            if f["prev"] != head:
                raise Unusual
            reveals.append(_checked(Game.SeedRevealed, topic, f, version, game_id, oid))
            hashed = f
        elif topic == _CREATED_TOPIC and version == 1:
            if f["prev"] != head:
                raise Unusual
            created = _checked(Game.Created, topic, f, version, game_id, oid)
            hashed = dict(f)
            del hashed["seed"]  # domain.audit: the secret seed is not hashed (the commitment is)
        else:
            raise Unusual
        head = canonical_hash(hashed)
        fields.append(hashed)
        hashes.append(head)
    return PlainGame(fields, hashes, created, reveals)


def event_of(cls: type, fields: dict, game_id: UUID) -> Any:
    """The event object of a plain row's hashed fields (`fields` as decode_game gives them; not the Created event's,
    which decode_game gives whole)."""
    return _event(cls, fields, game_id)


def timestamp_of(fields: dict) -> datetime:
    """A plain row's time."""
    return _fromisoformat(fields["timestamp"])
