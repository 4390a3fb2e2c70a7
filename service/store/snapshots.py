"""Snapshots of games: a decider's State as JSON-safe data, and when a save takes them."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Transcoding

SNAPSHOT_INTERVAL = 100


class StateTranscoding(Transcoding):
    """Snapshots: a game's State as JSON-safe data, by the codec its spec declares."""

    def __init__(self, spec):
        self.type = spec.codec.State
        self.name = f"{spec.id}/state"
        self._codec = spec.codec

    def encode(self, obj: Any) -> dict:
        return self._codec.dump_state(obj)

    def decode(self, data: dict) -> Any:
        return self._codec.load_state(data)


def take_snapshots(app: Any, processing_event: Any) -> None:
    """A snapshot when a save crosses a multiple of the interval, taken from the aggregate just saved (the library
    rebuilds it from the store: the latest snapshot and up to 99 events replayed inside the request). A save that
    crosses several (an imported record) gets one at each multiple, so that any version loads with at most 99 events
    replayed."""
    if not app.snapshots:
        return
    for aggregate_id, aggregate in processing_event.aggregates.items():
        interval = app.snapshotting_intervals.get(type(aggregate))
        crossed = [e.originator_version for e in processing_event.events
                   if interval and e.originator_id == aggregate_id and e.originator_version % interval == 0]
        if len(crossed) == 1:  # a command: the game as saved, a few versions past the multiple at most
            snapshot_class = getattr(type(aggregate), "Snapshot", type(app).snapshot_class)
            app.snapshots.put([snapshot_class.take(aggregate)])
        else:  # an import (many multiples in one save): one at each, as the library takes them
            for version in crossed:
                app.take_snapshot(aggregate_id, version=version)
