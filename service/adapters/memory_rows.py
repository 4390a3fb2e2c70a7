"""The in-process (memory://) form of a materialised read model: rows in a dict, kept with the library's tracking
records, a batch of notifications folded and applied as one (its tracking rolled back if the fold fails). The
catalogue and the tournament standings share it; each gives its own fold."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from eventsourcing.persistence import Tracking
from eventsourcing.popo import POPOTrackingRecorder

Fold = Callable[[Sequence[tuple[int, Any]], Callable[[str], Any], Callable[[int], None]], dict[str, Any]]


class MemoryRows(POPOTrackingRecorder):
    """Rows by key; `fold(batch, load, before_each)` gives the rows a batch writes, `stored(rows)` what is kept."""

    fold: Fold

    def __init__(self) -> None:
        super().__init__()
        self._rows: dict[str, Any] = {}

    def create_table(self) -> None:
        pass

    def stored(self, rows: dict[str, Any]) -> dict[str, Any]:
        return rows

    def apply(self, tracking_name: str, batch: Sequence[tuple[int, Any]]) -> None:
        with self._database_lock:
            def check(nid: int) -> None:
                self._assert_tracking_uniqueness(Tracking(tracking_name, nid))
                self._insert_tracking(Tracking(tracking_name, nid))

            before = self._max_tracking_ids[tracking_name]
            try:
                rows = self.fold(batch, self._rows.get, check)
            except BaseException:
                self._max_tracking_ids[tracking_name] = before  # roll back
                raise
            self._rows.update(self.stored(rows))
