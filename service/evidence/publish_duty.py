"""The duty loop's part that keeps the log's promises (service.duty): every publishing round, each process first writes
one checkpoint line for every game whose events or refused attempts moved since its latest line (in one batch:
`Cover`), then publishes the tree of the lines it has read, unless a head of that size is published already
(service.evidence.published_heads holds the lock: every host may try, each size is stored once).

The round comes every ARBITER_LOG_PUBLISH_SECONDS (default 5), and at least twice per maximum merge delay
(ARBITER_LOG_MMD, default 10 s: service.evidence.promises), so that whatever was acknowledged is in a published
checkpoint within the MMD whatever its game does next. No lease: every process follows the whole store's
notifications, so any host still running covers what a host that died acknowledged; two processes covering the same
game at the same instant write two lines for it, which is harmless (each signs what the store holds)."""

from __future__ import annotations

import logging
import time
from typing import Any
from uuid import UUID

from domain.attempts import attempts_id
from domain.audit import event_hash

from .attempts_heads import stored_count, stored_head

log = logging.getLogger("arbiter.evidence")
GAME_TOPIC = "domain.game:Game."
ATTEMPTS_TOPIC = "domain.attempts:Attempts."
RECENT = 10_000  # a process's first round also covers what the store's last this many notifications touched
CACHE = 100_000  # attempts streams whose game was read, kept


class Cover:
    """Which games moved since the last round (from the store's notifications), and their lines written in one batch."""

    def __init__(self, evidence):
        self.evidence = evidence
        self._games: set[UUID] = set()
        self._attempts: set[UUID] = set()  # attempts streams, resolved to their games when covered
        self._game_of: dict[UUID, UUID] = {}  # attempts stream -> its game, read from the stream (bounded: CACHE)
        self._started = False

    def notice(self, notification: Any) -> None:
        topic = notification.topic
        if topic.startswith(GAME_TOPIC):
            self._games.add(notification.originator_id)
        elif topic.startswith(ATTEMPTS_TOPIC):
            self._attempts.add(notification.originator_id)

    def _recent(self) -> None:
        """On the first round: what the last RECENT notifications touched (a restart covers what was acknowledged
        just before it, by this process or one that died)."""
        recorder = self.evidence.app.recorder
        top = recorder.max_notification_id() or 0
        for n in recorder.select_notifications(start=max(0, top - RECENT), limit=RECENT, inclusive_of_start=False):
            self.notice(n)

    def _game(self, stream: UUID) -> UUID | None:
        """The game of an attempts stream (derived from ids seen, else read from the stream's opening entry)."""
        if stream not in self._game_of:
            app = self.evidence.app
            rows = app.recorder.select_events(stream, lte=1)
            if not rows:
                return None
            if len(self._game_of) >= CACHE:
                self._game_of.clear()
            self._game_of[stream] = UUID(app.mapper.to_domain_event(rows[0]).game_id)
        return self._game_of[stream]

    def due(self) -> list[tuple]:
        """The lines to write: (game, version, head, "mmd", attempts, attempts head) of every moved game the log's lines
        do not cover yet."""
        if not self._started:
            self._started = True
            self._recent()
        games, streams = self._games, self._attempts
        self._games, self._attempts = set(), set()
        moved = {attempts_id(game): game for game in games}  # a refusal's game that moved too needs no read
        games |= {g for g in (moved.get(s) or self._game(s) for s in streams) if g is not None}
        app, tree = self.evidence.app, self.evidence.transparency.tree
        tree.sync()
        lines = []
        for game in games:
            rows = app.recorder.select_events(game, desc=True, limit=1)
            if not rows:
                continue
            version, attempts = rows[0].originator_version, stored_count(app, game)
            have = tree.covered(str(game))
            if have is not None and have[0] >= version and have[1] >= attempts:
                continue
            lines.append((str(game), version, event_hash(app.mapper.to_domain_event(rows[0])), "mmd",
                          *stored_head(app, game)))
        return lines

    def run(self) -> int:
        """Write the due lines in one batch; returns how many (games left uncovered by an error are tried again)."""
        lines = self.due()
        if not lines:
            return 0
        try:
            self.evidence.log.append_many(lines)
        except Exception:
            self._games |= {UUID(line[0]) for line in lines}
            raise
        return len(lines)


class PublishDuty:
    topics: tuple[str, ...] = ()

    def __init__(self, transparency, seconds: float, cover: Cover | None = None):
        self.transparency = transparency
        self.seconds = seconds
        self.cover = cover
        self._last = 0.0

    def notice(self, notification) -> None:
        if self.cover is not None:
            self.cover.notice(notification)

    def at_stop(self) -> None:
        """A clean shutdown's last round (service.duty.Duty.stop): what moved is covered and published now."""
        self._last = 0.0
        self.act(None, False)

    def act(self, leases, claim: bool) -> None:
        now = time.monotonic()
        if now - self._last < self.seconds or getattr(self.transparency.evidence.app, "closed", False):
            return  # not due, or the store was closed under the loop (its reads would only retry until they fail)
        self._last = now
        try:
            if self.cover is not None:
                self.cover.run()
        except Exception as e:  # noqa: BLE001 - what is not covered now is tried again next round
            log.error("arbiter: the games that moved were not checkpointed: %s", e)
        try:
            self.transparency.publish()
        except Exception as e:  # noqa: BLE001 - a log that cannot be published now is tried again next time
            log.error("arbiter: the transparency log's checkpoint was not published: %s", e)
