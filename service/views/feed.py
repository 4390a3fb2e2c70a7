"""Live entries: ONE follower per process of the store's notification log, fanning each new event out to the
subscribers of its game, each as its viewer may see it (projections.event_log, exactly as the event log).

The follower is a daemon thread started with the first subscription. It waits for news — PostgreSQL's
`LISTEN` on the channel the library's insert function `NOTIFY`s (an event written by any process, any worker,
wakes every process), else a poll of the notification log every `POLL_SECONDS` (SQLite: the same file is
shared by every worker; in memory: one process) — then reads every notification after its position, once
for the whole process, and for each game that has subscribers turns the new events into one list of log
entries per distinct viewer (a seat, the spectators, the referee), serialised once and handed to every
subscription of that viewer. A subscription is never polled: it is given entries by the follower, and it
forwards those after the version it has passed on to its sink (a non-blocking callable of the entry point:
a queue put), so the backlog a subscriber is given on connecting and the live entries meet without a gap
or a duplicate, in version order.

A viewer's own news (a computer analysis' progress) is told to that viewer's subscriptions alone (`tell`), never
through the notification log: it is not an event of the game.

Refused attempts (their own stream, never a version of the game) are in the backlog of a (re)connection, as
in the event log after that version; the follower does not forward them live; nor anything to the spectators of
a game a hold now keeps from them (service.access.Access.watchable: they could not subscribe to it now). The holds
are asked once per game and batch of events (Access.holds_now), whatever the number of viewers and subscribers: whether
a viewer sees the end follows from that one answer (service.access.withheld_when).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from typing import Any, Callable, Iterable
from uuid import UUID

from domain.game import Game
from projections.viewers import SPECTATOR, Viewer
from projections.views import event_log

from service.access import withheld_when
from service.store.server_clock import server_ms

from .spectator_delay import Held
from .subscription import Entries, Entry, Sink, Subscription, as_entries, news_entry

__all__ = ["Feed", "Subscription", "Entry", "Entries", "Sink", "as_entries"]

POLL_SECONDS = 0.05  # SQLite and memory: how often the log is read for news (one SELECT per process)
LISTEN_TIMEOUT = 1.0  # PostgreSQL: a read also happens this often without a NOTIFY (a missed one costs a second)
BATCH = 500
IDLE_SECONDS = 10.0  # a follower without subscribers this long stops (and lets a closed application go)
log = logging.getLogger("arbiter.feed")

class _Channel:
    """The follower's state for one subscribed game: its Created event, whether it has ended, its subscribers."""

    def __init__(self, created: Any, ended: bool):
        self.created, self.ended = created, ended
        self.subscriptions: list[Subscription] = []
        self.held: Held | None = None  # a delayed game's events its spectators may not see yet (service.views.spectator_delay)


class Feed:
    """The process's one follower of the notification log and its fan-out to subscriptions."""

    def __init__(self, app: Any, poll_seconds: float = POLL_SECONDS,
                 holds_now: Callable[[], Callable[[UUID], bool]] | None = None):
        self.app = app
        self.poll_seconds = poll_seconds
        self._channels: dict[UUID, _Channel] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        self._position = 0
        self.delivered = 0  # entries handed to subscriptions (for tests and benchmarks)
        # the holds as they stand now, each game asked once (service.access.Access.holds_now; set by the views): taken
        # once per batch of events, so a batch costs one hold question per game, whatever the number of viewers
        self.holds_now: Callable[[], Callable[[UUID], bool]] = holds_now or (lambda: _never)
        before_close = getattr(app, "before_close", None)
        if before_close is not None:
            before_close(self._halt)  # the follower ends before the store's connections close (sqlite3 would crash)

    # -- subscriptions (request threads) ------------------------------------------------------

    def subscribe(self, game_id: UUID, viewer: Viewer, after: int, sink: Sink, created: Any, ended: bool) -> Subscription:
        """Register a subscriber; the caller then reads its backlog and hands it to `Subscription.start`."""
        sub = Subscription(self, game_id, viewer, after, sink)
        with self._lock:  # one hold: a follower about to stop for want of subscribers sees this one
            self._ensure_running()
            channel = self._channels.get(game_id)
            if channel is None:
                channel = self._channels[game_id] = _Channel(created, ended)
            channel.ended = channel.ended or ended
            delay = getattr(created, "spectator_delay", None)
            if viewer == SPECTATOR and delay and not channel.ended and channel.held is None:
                channel.held = Held(created, delay, self.app.read_events(game_id), server_ms())
            channel.subscriptions.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            channel = self._channels.get(sub.game_id)
            if channel is None:
                return
            try:
                channel.subscriptions.remove(sub)
            except ValueError:
                pass
            if not channel.subscriptions:
                del self._channels[sub.game_id]

    def tell(self, game_id: UUID, viewers: Iterable[Viewer], kind: str, data: dict) -> int:
        """A viewer's own news (not an event of the game: no version) to the subscriptions of `viewers` of this game
        only, now (service.views.subscription); returns how many subscriptions it reached."""
        wanted = set(viewers)
        with self._lock:
            channel = self._channels.get(game_id)
            subscriptions = [s for s in channel.subscriptions if s.viewer in wanted] if channel is not None else []
        entries = [news_entry(kind, data)]
        for sub in subscriptions:
            sub.tell(entries)
        return len(subscriptions)

    def subscribers(self) -> int:
        with self._lock:
            return sum(len(c.subscriptions) for c in self._channels.values())

    def _ensure_running(self) -> None:
        """Start the follower unless it runs (called holding the lock)."""
        if self._thread is not None:
            return
        # every event stored before this position is in the backlog of any subscription made from now on
        self._position = self.app.recorder.max_notification_id() or 0
        self._thread = threading.Thread(target=self._run, name="arbiter-feed", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def _halt(self) -> None:
        """Stop the follower and wait (a few seconds at most) until it has stopped reading the store."""
        self._stopped.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=LISTEN_TIMEOUT + 1.0)

    # -- the follower (its own thread) --------------------------------------------------------

    def _run(self) -> None:
        waiter, close = None, None
        idle_since = time.monotonic()
        try:
            while not self._stopped.is_set() and not getattr(self.app, "closed", False):
                with self._lock:
                    if self._channels:
                        idle_since = time.monotonic()
                    elif time.monotonic() - idle_since > IDLE_SECONDS:
                        self._thread = None  # the next subscription starts a follower again
                        return
                try:
                    if waiter is None:
                        waiter, close = self._listener()
                    waiter()
                    self._pull()
                    self._release_due()
                except Exception:  # noqa: BLE001 - the follower must outlive a dropped connection; it reads again
                    if self._stopped.is_set() or getattr(self.app, "closed", False):
                        return  # the store was closed under it (a shutdown, a test's teardown): nothing more to read
                    log.exception("the live feed could not read the notification log; retrying in a second")
                    self._stopped.wait(1.0)
                    _quietly(close)
                    waiter, close = None, None
        finally:
            _quietly(close)

    def _listener(self) -> tuple[Callable[[], None], Callable[[], None] | None]:
        """How to wait for news, and how to stop: PostgreSQL LISTEN on the library's channel, else a short sleep."""
        channel = getattr(self.app.recorder, "channel_name", None)
        if channel is None:
            return (lambda: self._stopped.wait(min(self.poll_seconds, self._until_release()))), None
        from psycopg import sql

        from service.adapters.stores import connect, persistence_env

        conn = connect(persistence_env(self.app.database_url))
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))

        def wait() -> None:
            for _ in conn.notifies(timeout=min(LISTEN_TIMEOUT, self._until_release()), stop_after=1):
                pass

        return wait, conn.close

    def _pull(self) -> None:
        """Read every notification after the position (all of each transaction) and fan the news out."""
        news = []
        while True:
            batch = self.app.recorder.select_notifications(start=self._position, limit=BATCH, inclusive_of_start=False)
            news.extend(batch)
            if batch:
                self._position = batch[-1].id
            if len(batch) < BATCH:
                break
        if news:
            self._fan_out(news)

    def _fan_out(self, notifications: list) -> None:
        with self._lock:
            wanted = set(self._channels)
        by_game: dict[UUID, list] = defaultdict(list)
        for n in notifications:
            if n.originator_id in wanted:
                by_game[n.originator_id].append(self.app.mapper.to_domain_event(n))
        holds = _Holds(self.holds_now) if by_game else None  # read after the events: as fresh as what it decides
        for game_id, events in by_game.items():
            with self._lock:
                channel = self._channels.get(game_id)
                if channel is None:
                    continue
                subscriptions = list(channel.subscriptions)
                ended = channel.ended
                channel.ended = ended or any(isinstance(e, Game.SeedRevealed) for e in events)
            after, held = events[0].originator_version - 1, channel.held
            per_viewer: dict[Viewer, list[Entry]] = {}
            if held is not None:  # spectators of a delayed game get these once they are old enough (_release_due)
                held.add(events, lambda gt, lte, gid=game_id: self.app.read_events(gid, gt=gt, lte=lte))
            if held is not None or any(s.viewer == SPECTATOR for s in subscriptions) and holds(game_id):
                subscriptions = [sub for sub in subscriptions if sub.viewer != SPECTATOR]  # (or no longer watchable)
            for sub in subscriptions:
                entries = per_viewer.get(sub.viewer)
                if entries is None:
                    withheld = channel.ended and withheld_when(holds(game_id), sub.viewer, channel.ended)
                    entries = per_viewer[sub.viewer] = as_entries(
                        event_log([channel.created, *events], sub.viewer, after=after, ended=ended, withheld=withheld))
                sub.give(entries)
                self.delivered += len(entries)

    def _release_due(self) -> None:
        """Give each delayed game's spectators what has become visible (the only timer: this follower's sleep)."""
        now = server_ms()
        with self._lock:
            channels = [c for c in self._channels.values() if c.held is not None]
        holds = _Holds(self.holds_now)
        for channel in channels:
            due = channel.held.due(now)
            if due is None or holds(channel.created.originator_id):  # (held from spectators)
                continue
            after, events, ended = due
            with self._lock:
                spectators = [sub for sub in channel.subscriptions if sub.viewer == SPECTATOR]
            over = ended or any(isinstance(e, Game.SeedRevealed) for e in events)
            withheld = withheld_when(holds(channel.created.originator_id), SPECTATOR, over)
            entries = as_entries(event_log([channel.created, *events], SPECTATOR, after, ended, withheld=withheld))
            for sub in spectators:
                sub.give(entries)
                self.delivered += len(entries)

    def _until_release(self) -> float:
        """Seconds until a held event becomes visible to spectators (a long time if none is waiting)."""
        with self._lock:
            times = [c.held.next_ms() for c in self._channels.values() if c.held is not None]
        times = [t for t in times if t is not None]
        return max(0.0, (min(times) - server_ms()) / 1000) if times else 3600.0


def _never(game_id: UUID) -> bool:
    return False


class _Holds:
    """Whether a game is held, for one batch: the holds taken (`holds_now()`) only if a game is asked, each game
    asked of them at most once (Access.holds_now keeps the answers)."""

    def __init__(self, holds_now: Callable[[], Callable[[UUID], bool]]):
        self._holds_now, self._held = holds_now, None

    def __call__(self, game_id: UUID) -> bool:
        if self._held is None:
            self._held = self._holds_now()
        return self._held(game_id)


def _quietly(close: Callable[[], None] | None) -> None:
    """Close a listening connection that may already be broken."""
    try:
        if close is not None:
            close()
    except Exception:  # noqa: BLE001
        pass
