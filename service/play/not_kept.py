"""The refusals the bound on refused attempts turned away (domain/attempts.py; docs/api.md "Limits"): counted per game
and seat in this process, never stored, and logged at 1, 2, 4, 8, ... so a flood is one line per doubling."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from uuid import UUID

log = logging.getLogger("arbiter.referee")


class NotKept(Counter):
    """(game id, actor) -> how many of that seat's refusals this process did not keep."""

    def __init__(self) -> None:
        super().__init__()
        self._guard = threading.Lock()

    def count(self, game_id: UUID, actor: str) -> int:
        """Count one refusal the bound did not keep; the count so far."""
        with self._guard:
            self[(str(game_id), actor)] += 1
            n = self[(str(game_id), actor)]
        if n & (n - 1) == 0:  # 1, 2, 4, 8, ...
            log.warning("game %s: %d refusals of %s not kept (over the bound on refusals)", game_id, n, actor)
        return n
