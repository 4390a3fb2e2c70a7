"""The detailed row decoder: a game's stored rows read one at a time with the library's mapper, a damaged row reported
at its version, never raised.

A row is damaged when it does not decode (not JSON, not UTF-8, not an object, a number too long to read), when its
topic is not one of the stream's event classes, when a field its event class declares is missing, of the wrong type
or not declared at all (service.verification.row_shapes), or when the event cannot be applied to the game folded
from the rows before it. Snapshots are read the same way and each is compared with the game folded from the events
up to its version (service.verification.fold).

Damage is described by version, field and kind of damage, never by a stored value: a value may be a card that the
reader of a public verification may not see. This decoder takes every game; the plain one
(service.verification.plain_rows) takes the common game faster, and gives the same decoded rows.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.game import Game

from .decoded import Damage, DecodedGame, DecodedRow
from .fold import fold_game, read_snapshots
from .row_shapes import AGGREGATE_TOPICS, GAME_EVENTS, HINTS, shape_ok, shape_problem, why_undecodable

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
    event = object.__new__(HINTS[row.topic][0])
    object.__setattr__(event, "__dict__", fields)
    return event


def read_stream(app: Any, stream_id: UUID, allowed: tuple[type, ...], name: str = "stored event",
                rows: list | None = None) -> DecodedGame:
    """Decode a stream's rows one by one (their topics must be among `allowed`), checking each against its class
    (`rows`: the stream's rows in version order, already read in bulk; else they are read here). Nothing is folded."""
    reading = DecodedGame()
    topics = {get_topic(cls) for cls in allowed}
    for row in app.recorder.select_events(stream_id) if rows is None else rows:
        version = row.originator_version
        if row.topic not in topics:
            reading.unreadable = Damage(version, f"{name} {version} is not a known event (its topic was changed)")
            break
        try:
            event = _plain_event(app.mapper, row) or app.mapper.to_domain_event(row)
        except Exception as e:  # whatever the library raises on a damaged row
            reading.unreadable = Damage(version, f"{name} {version} cannot be read: {why_undecodable(e)}")
            break
        cls, hints = HINTS[row.topic]
        problem = None if shape_ok(event, row.topic) and (
            cls not in AGGREGATE_TOPICS or event.originator_topic == AGGREGATE_TOPICS[cls]) \
            else shape_problem(event, cls, hints)
        if problem:
            reading.damage.append(Damage(version, f"{name} {version} is damaged: {problem}"))
        if cls is Game.SeedRevealed and reading.first_reveal is None:
            reading.first_reveal = len(reading.rows)
        reading.rows.append(DecodedRow(version, cls, event.__dict__, None, event))
    if reading.unreadable:
        reading.damage.append(reading.unreadable)
    return reading


def read_game(app: Any, game_id: UUID, rows: list | None = None, snapshot_rows: list | None = None) -> DecodedGame:
    """A game's rows decoded and checked one by one, folded into the game up to the first event that cannot be
    applied, and each stored snapshot compared with the fold at its version (`rows`, `snapshot_rows`: read in
    bulk already, in version order)."""
    decoded = read_stream(app, game_id, GAME_EVENTS, rows=rows)
    snapshots, unreadable_snapshot = read_snapshots(app, game_id, snapshot_rows)
    fold_game(decoded, snapshots, unreadable_snapshot)
    decoded.rows[:len(decoded.hashes)] = [row._replace(hash=head) for row, head in zip(decoded.rows, decoded.hashes)]
    return decoded


class DetailedDecoder:
    """Every game's rows, decoded with the library's mapper, folded, and every damage named (read_game)."""

    def decode(self, app: Any, game_id: UUID, rows: Any = None) -> DecodedGame:
        """The game's rows decoded (`rows`: service.verification.bulk.GameRows read in bulk, else read here)."""
        if rows is None:
            return read_game(app, game_id)
        return read_game(app, game_id, rows.events, rows.snapshots)


DETAILED = DetailedDecoder()
