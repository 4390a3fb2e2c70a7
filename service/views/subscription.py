"""One subscriber of a game's live entries (service.views.feed): what it was given on connecting, then what the
feed's follower forwards to its sink, in version order without a gap or a duplicate.

Beside the game's events, a subscription may be told a viewer's own news (`tell`): entries without a version (a
computer analysis' progress, service.analysis.jobs), sent to the subscriptions of that one viewer only. They carry
no version, so they never move where a reconnecting client resumes.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterable
from uuid import UUID

from projections.viewers import Viewer

if TYPE_CHECKING:
    from .feed import Feed

log = logging.getLogger("arbiter.feed")

Entry = tuple[Any, str, str]  # (version, type, the log entry as JSON text); news has the version None
Sink = Callable[[list[Entry]], None]


class Entries(list):
    """One viewer's entries of one batch of news, the same list handed to every subscription of that viewer (the
    feed makes one per game, batch and viewer: a seat's is never another seat's). What the entry points make of it
    (an SSE body) is made once and kept with it (`rendered`), so a hundred subscribers of a viewer cost one
    rendering, and no other viewer can be served from it: the rendering lives on this viewer's list alone."""

    __slots__ = ("_rendered",)

    def rendered(self, key: Any, render: Callable[[list[Entry]], Any]) -> Any:
        """`render(self)`, made the first time `key` is asked and kept (the entries never change once given)."""
        try:
            cache = self._rendered
        except AttributeError:
            cache = self._rendered = {}
        out = cache.get(key)
        if out is None:
            out = cache[key] = render(self)
        return out


def as_entries(log_entries: Iterable[dict]) -> Entries:
    """Event-log entries as (version, type, JSON text): serialised once, whoever receives them."""
    return Entries((e["version"], e["type"], json.dumps(e)) for e in log_entries)


def news_entry(kind: str, data: dict) -> Entry:
    """A viewer's own news as an entry: no version (it is not an event of the game), its kind and its JSON."""
    return (None, kind, json.dumps(data))


class Subscription:
    """One subscriber's live entries: what it was given (`backlog`), then what the follower forwards to `sink`."""

    def __init__(self, feed: "Feed", game_id: UUID, viewer: Viewer, after: int, sink: Sink):
        self.feed, self.game_id, self.viewer, self.sink = feed, game_id, viewer, sink
        self.seen = after
        self.closed = False
        self._lock = threading.Lock()
        self._pending: list[Entry] | None = []  # entries the follower gave before the backlog was taken

    def start(self, backlog: list[Entry]) -> list[Entry]:
        """Take the backlog read after registering; returns it with whatever arrived meanwhile, in order."""
        with self._lock:
            out = list(backlog)  # whole: a refused attempt shares the version of the event it met
            self.seen = max([self.seen, *(entry[0] for entry in out)])
            out += self._newer(self._pending or [])
            self._pending = None
            return out

    def give(self, entries: list[Entry]) -> None:
        """From the follower: pass on the entries after what this subscriber already has."""
        with self._lock:
            if self.closed:
                return
            if self._pending is not None:
                self._pending.extend(entries)
                return
            newer = self._newer(entries)
        if newer:
            try:
                self.sink(newer)
            except Exception:  # noqa: BLE001 - a sink gone bad (its event loop closed) ends that subscription only
                log.exception("a live subscription's sink failed; closing it")
                self.close()

    def _newer(self, entries: list[Entry]) -> list[Entry]:
        """The entries after what was passed on; `entries` itself (shared with the viewer's other subscriptions,
        with its rendering) when every one of them is."""
        out = []
        for entry in entries:
            if entry[0] > self.seen:
                out.append(entry)
                self.seen = entry[0]
        return entries if len(out) == len(entries) else out

    def tell(self, entries: list[Entry]) -> None:
        """A viewer's own news (entries without a version): passed on as they come, once the backlog was taken (news
        told before that is not kept: a later word of the same news says it again)."""
        with self._lock:
            if self.closed or self._pending is not None:
                return
        try:
            self.sink(entries)
        except Exception:  # noqa: BLE001 - as in give
            log.exception("a live subscription's sink failed; closing it")
            self.close()

    def close(self) -> None:
        """Stop receiving (idempotent)."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
        self.feed.unsubscribe(self)
