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

from domain.audit import event_hash

from .attempts_heads import stored_head
from .checkpoint_lines import NO_ATTEMPTS

log = logging.getLogger("arbiter.evidence")
GAME_TOPIC = "domain.game:Game."
ATTEMPTS_TOPIC = "domain.attempts:Attempts."
RECENT = 10_000  # a process's first round also covers what the store's last this many notifications touched
CACHE = 100_000  # attempts streams' games, and games' refused attempts, remembered


class Cover:
    """Which games moved since the last round, and their lines written in one batch.

    A round reads nothing of the store it need not: each game's newest entry, and its refused attempts' newest
    entry, come with the store's notifications that the duty loop follows (a notification is the stored row), so a
    round's reads are the log's tail, its one append and its publish, whatever the number of games that moved. (Each
    read gives the interpreter's lock away and waits to get it back behind the threads serving moves: a round of three
    reads per game took up to 6.9 s under 16 clients, bench.merge_delay.) The reads left: the game of an attempts
    stream this process never saw open, and the refused attempts of a game it never saw from its start (each once,
    then remembered), and the newest entry of a game whose refused attempts alone moved in the round."""

    def __init__(self, evidence):
        self.evidence = evidence
        self._games: dict[UUID, Any] = {}  # game -> its newest notification since the last round
        self._attempts: dict[UUID, Any] = {}  # attempts stream -> its newest notification since the last round
        self._game_of: dict[UUID, UUID] = {}  # attempts stream -> its game (bounded: CACHE)
        self._heads: dict[UUID, tuple[int, str]] = {}  # game -> (refused attempts, their head) as last seen (CACHE)
        self._started = False

    def notice(self, notification: Any) -> None:
        topic = notification.topic
        if topic.startswith(GAME_TOPIC):
            newest = self._games
        elif topic.startswith(ATTEMPTS_TOPIC):
            newest = self._attempts
        else:
            return
        game = notification.originator_id
        had = newest.get(game)
        if had is None or had.originator_version < notification.originator_version:
            newest[game] = notification
        if notification.originator_version == 1:  # a stream's opening entry
            if newest is self._games and game not in self._heads:
                _remember(self._heads, game, NO_ATTEMPTS)  # seen from its start: its refused attempts come as news too
            elif newest is self._attempts and game not in self._game_of:
                _remember(self._game_of, game, UUID(self._decode(notification).game_id))  # it names its game

    def _recent(self) -> None:
        """On the first round: what the last RECENT notifications touched (a restart covers what was acknowledged
        just before it, by this process or one that died)."""
        recorder = self.evidence.app.recorder
        top = recorder.max_notification_id() or 0
        for n in recorder.select_notifications(start=max(0, top - RECENT), limit=RECENT, inclusive_of_start=False):
            self.notice(n)

    def _decode(self, row: Any) -> Any:
        return self.evidence.app.mapper.to_domain_event(row)

    def _game(self, stream: UUID) -> UUID | None:
        """The game of an attempts stream (its opening entry names it: noticed, else read once from the store)."""
        if stream not in self._game_of:
            rows = self.evidence.app.recorder.select_events(stream, lte=1)
            if not rows:
                return None
            _remember(self._game_of, stream, UUID(self._decode(rows[0]).game_id))
        return self._game_of[stream]

    def _head(self, game: UUID) -> tuple[int, str]:
        """(refused attempts, their head) of a game: as last noticed, else read once from the store."""
        if game not in self._heads:
            _remember(self._heads, game, stored_head(self.evidence.app, game))
        return self._heads[game]

    def due(self) -> list[tuple]:
        """The lines to write: (game, version, head, "mmd", attempts, attempts head) of every moved game the log's lines
        do not cover yet."""
        if not self._started:
            self._started = True
            self._recent()
        games, streams = self._games, self._attempts
        self._games, self._attempts = {}, {}
        for stream, newest in streams.items():
            game = self._game(stream)
            if game is None:
                continue
            count = newest.originator_version - 1  # entry 1 opens the stream
            if self._heads.get(game, (-1, ""))[0] < count:
                _remember(self._heads, game, (count, event_hash(self._decode(newest))))
            if game not in games:
                games[game] = None  # only its refused attempts moved: its newest entry is read below
        tree = self.evidence.transparency.tree
        tree.sync()
        lines = []
        for game, newest in games.items():
            if newest is None:
                rows = self.evidence.app.recorder.select_events(game, desc=True, limit=1)
                if not rows:
                    continue
                newest = rows[0]
            version, (attempts, attempts_head) = newest.originator_version, self._head(game)
            have = tree.covered(str(game))
            if have is not None and have[0] >= version and have[1] >= attempts:
                continue
            lines.append((str(game), version, event_hash(self._decode(newest)), "mmd", attempts, attempts_head))
        return lines

    def run(self) -> int:
        """Write the due lines in one batch; returns how many (games left uncovered by an error are tried again)."""
        lines = self.due()
        if not lines:
            return 0
        try:
            self.evidence.log.append_many(lines)
        except Exception:
            for line in lines:
                self._games.setdefault(UUID(line[0]), None)
            raise
        return len(lines)


def _remember(cache: dict, key: Any, value: Any) -> None:
    if len(cache) >= CACHE and key not in cache:
        cache.clear()
    cache[key] = value


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
