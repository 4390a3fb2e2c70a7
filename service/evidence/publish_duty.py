"""The duty loop's part that publishes the transparency log's checkpoints (service.duty): every
ARBITER_LOG_PUBLISH_SECONDS (default 5) each process publishes the tree of the lines it has read, unless a head of
that size is published already (service.evidence.published_heads holds the lock: every host may try, each size is
stored once). No lease: publishing twice is harmless, and any host keeps the log's checkpoints coming."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("arbiter.evidence")


class PublishDuty:
    topics: tuple[str, ...] = ()

    def __init__(self, transparency, seconds: float):
        self.transparency = transparency
        self.seconds = seconds
        self._last = 0.0

    def notice(self, notification) -> None:
        pass

    def act(self, leases, claim: bool) -> None:
        now = time.monotonic()
        if now - self._last < self.seconds:
            return
        self._last = now
        try:
            self.transparency.publish()
        except Exception as e:  # noqa: BLE001 - a log that cannot be published now is tried again next time
            log.error("arbiter: the transparency log's checkpoint was not published: %s", e)
