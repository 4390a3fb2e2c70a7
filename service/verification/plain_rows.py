"""The plain row decoder: a plain game's stored rows decoded in one pass, fields and chain hashes, for the common game.

A plain game's rows are versions 1..n: a Created event, then Happened and SeedRevealed events, each row's JSON
holding exactly its class's fields with only its timestamp in the library's encoding, the hash chain unbroken, its
snapshots (if any) readable and within the game (each is held against the game in the checks' pass:
service.verification.snapshot_line). For such rows this decoder does, per row, what the mapper,
the shape check (service.verification.row_shapes) and domain.audit's hash each did on their own:

- the row is decoded once (orjson), and the fields are checked against the class (every declared field present,
  of its type, none other);
- the chain hash is computed on that same dict, the timestamp kept as the text the row holds: the canonical JSON
  (sorted keys, no spaces, UTF-8) is written by orjson, whose bytes are those of domain.audit's encoder for every
  value a decoded row can hold except a float (tests/unit/test_plain_rows.py) — so a row holding a float, anywhere,
  is not plain, and neither is a timestamp that is not written the way `datetime.isoformat` writes it;
- each row's `prev` is held against the hash of the row before it.

It gives the same decoded rows as the detailed decoder (service.verification.stored_rows), each row's fields in their
hashed form (timestamp and id as text, `class` added; the Created event's without its secret seed); an event object
is built only when a check asks for it (`DecodedRow.event`). Any game that is not plain raises NotPlain: the detailed
decoder then takes it, and names any damage. A row this decoder takes is always one the mapper decodes to the same
fields (the tests hold both to that), so the two never disagree.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.utils import get_topic

from domain.audit import GENESIS
from domain.game import Game
from domain.games import DECIDERS

from service.adapters.canonical_json import canonical_hash

from .decoded import DecodedGame, DecodedRow, NotPlain
from .fold import read_snapshots
from .row_shapes import shape_ok

HAPPENED = Game.Happened.__qualname__
_Happened = Game.Happened
_CREATED_TOPIC, _HAPPENED_TOPIC, _REVEALED_TOPIC = (get_topic(c) for c in (Game.Created, Game.Happened, Game.SeedRevealed))
_GAME_TOPIC = get_topic(Game)
_MARK = b'"_type_"'  # the library's mark of an encoded value: a plain row holds one, its timestamp
_HAPPENED_FIELDS = 9  # timestamp, prev, kind, data, actor, clause, engine_version, idempotency_key, automatic
# how datetime.isoformat writes a UTC time, microseconds present (not all zero) or absent: such a text, if it is a
# time at all (fromisoformat), is what isoformat writes of the time read back from it
_ISO_UTC = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.(?!000000)[0-9]{6})?\+00:00").fullmatch
_fromisoformat = datetime.fromisoformat


_row = tuple.__new__  # DecodedRow made in C: a row a stored event


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
    """The row's timestamp as the text the hash covers; NotPlain unless it is a time written as isoformat writes it."""
    stamp = fields["timestamp"]
    if stamp.__class__ is not dict or len(stamp) != 2 or stamp["_type_"] != "datetime_iso":
        raise NotPlain
    text = stamp["_data_"]
    if text.__class__ is not str or _ISO_UTC(text) is None:
        raise NotPlain
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
        raise NotPlain
    fields["timestamp"], fields["originator_id"], fields["originator_version"] = text, oid, version
    fields["class"] = cls.__qualname__
    event = _event(cls, fields, game_id)
    if not shape_ok(event, topic) or (cls is Game.Created and event.originator_topic != _GAME_TOPIC):
        raise NotPlain
    return event


def decode_game(game_id: UUID, raw: list) -> DecodedGame:
    """A plain game's rows `raw` ((stream id, version, topic, state) in version order) decoded, checked and hashed, the chain
    followed from the genesis; raises NotPlain for a game that is not plain or whose chain breaks."""
    if not raw:
        raise NotPlain
    oid, loads = str(game_id), orjson.loads
    rows: list = []
    hashes: list = []
    first_reveal = None
    head = GENESIS
    version = 0
    for _, version_stored, topic, state in raw:
        version += 1
        if version_stored != version or state.__class__ is not bytes or state.count(_MARK) != 1:
            raise NotPlain
        f = loads(state)
        if topic == _HAPPENED_TOPIC and version > 1:
            if len(f) != _HAPPENED_FIELDS:
                raise NotPlain
            text = _stamp(f)
            key = f["idempotency_key"]
            if f["prev"] != head or f["kind"].__class__ is not str or f["actor"].__class__ is not str \
                    or f["clause"].__class__ is not str or f["engine_version"].__class__ is not str \
                    or (key is not None and key.__class__ is not str) or f["automatic"].__class__ is not bool \
                    or f["data"].__class__ is not dict or not _float_free(f["data"]):
                raise NotPlain
            f["timestamp"], f["originator_id"], f["originator_version"], f["class"] = text, oid, version, HAPPENED
            head = canonical_hash(f)
            rows.append(_row(DecodedRow, (version, _Happened, f, head, None, _event, game_id)))
        elif topic == _REVEALED_TOPIC and version > 1:
            if f["prev"] != head:
                raise NotPlain
            event = _checked(Game.SeedRevealed, topic, f, version, game_id, oid)
            head = canonical_hash(f)
            if first_reveal is None:
                first_reveal = len(rows)
            rows.append(_row(DecodedRow, (version, Game.SeedRevealed, f, head, event, _event, game_id)))
        elif topic == _CREATED_TOPIC and version == 1:
            if f["prev"] != head:
                raise NotPlain
            event = _checked(Game.Created, topic, f, version, game_id, oid)
            hashed = dict(f)
            del hashed["seed"]  # domain.audit: the secret seed is not hashed (the commitment is)
            head = canonical_hash(hashed)
            rows.append(_row(DecodedRow, (version, Game.Created, hashed, head, event, _event, game_id)))
        else:
            raise NotPlain
        hashes.append(head)
    return DecodedGame(rows=rows, hashes=hashes, plain=True, first_reveal=first_reveal)


class PlainDecoder:
    """The plain games' rows as they were read in bulk (service.verification.bulk.GameRows); NotPlain for any other
    game, any store whose rows are enciphered or compressed, or rows not read in bulk."""

    def decode(self, app: Any, game_id: UUID, rows: Any = None) -> DecodedGame:
        """The game's rows decoded and hashed, its snapshots read; raises NotPlain."""
        if rows is None or app.mapper.cipher is not None or app.mapper.compressor is not None:
            raise NotPlain
        decoded = decode_game(game_id, rows.raw)
        if decoded.created.game not in DECIDERS:
            raise NotPlain
        if rows.snapshots:  # decoded here, held against the game in the checks' pass (snapshot_line)
            decoded.snapshots, unreadable = read_snapshots(app, game_id, rows.snapshots)
            if unreadable or max(decoded.snapshots) > len(decoded.rows):
                raise NotPlain
        return decoded


PLAIN = PlainDecoder()
