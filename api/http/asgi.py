"""The ASGI entry point `arbiter serve` runs: the Flask app in a thread pool, the live streams on the event loop.

Every request goes to the Flask app (api.http.wsgi_bridge runs each whole in one thread of a pool of `threads`), so every route keeps
one definition, its checks and its error pages. A stream view (api.http.stream) finds a hand-over slot in the
request's ASGI scope: it subscribes there and returns at once, and the stream then goes on here as a
coroutine waiting on its queue, which the process's follower of the store (service.views.feed) fills from its
thread. A thousand open streams hold no thread and read nothing from the store themselves.
"""

from __future__ import annotations

import asyncio
import threading

from service.views.subscription import Entries

from .stream import LIVE_SLOT, ends_stream, message
from .wsgi_bridge import ThreadedWSGI

KEEPALIVE_SECONDS = 15.0  # a stream with no news this long writes a comment (proxies close idle streams): at most 2x apart
HEALTH = "/api/v1/health"
SWITCH_INTERVAL = 0.001  # seconds: the loop waits less for the GIL behind the request threads (default 0.005)
MAX_QUEUED = 1000  # batches waiting for a client that does not read: past this, the stream ends (it resumes by id)


def create_asgi_app(config: dict | None = None, threads: int = 8):
    """The arbiter app as an ASGI application: `api.create_app(config)` in `threads` threads, streams on the loop."""
    import sys

    from api import create_app

    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(config)
    arbiter = app.extensions["arbiter"]
    return LiveStreams(ThreadedWSGI(app, threads, app.config["MAX_CONTENT_LENGTH"], on_shutdown=arbiter.stop_serving))


def _health_body() -> bytes:
    """The answer of the Flask route `GET /api/v1/health` (service.views.lobby.health_report), built once."""
    import json

    from service.views.lobby import health_report

    return json.dumps(health_report()).encode()


class Mail:
    """What the feed's thread hands the streams of one event loop: collected, and put in their inboxes by one callback
    on the loop for all the streams given something at once (the feed's fan-out of a batch to a thousand
    subscriptions wakes the loop once, not a thousand times)."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._items: list = []
        self._lock = threading.Lock()
        self._due = False  # a delivery is scheduled on the loop and has not run yet

    def post(self, inbox: asyncio.Queue, entries) -> None:
        """From any thread: `entries` for the stream of `inbox`."""
        with self._lock:
            self._items.append((inbox, entries))
            if self._due:
                return
            self._due = True
        self.loop.call_soon_threadsafe(self._deliver)

    def _deliver(self) -> None:
        with self._lock:
            items, self._items, self._due = self._items, [], False
        for inbox, entries in items:
            inbox.put_nowait(entries)


class LiveStreams:
    """ASGI middleware: requests to the WSGI app; a stream it hands over is pumped here until it ends."""

    def __init__(self, wsgi):
        self.wsgi = wsgi
        self.health = _health_body()
        self.mail: Mail | None = None
        self._open: set[asyncio.Queue] = set()  # the inboxes of the streams being pumped
        self._ending = False

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)
            return
        if scope["path"] == HEALTH and scope["method"] in ("GET", "HEAD"):
            # answered on the loop: the process is alive and serving, whatever moves are queued for the threads
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(self.health)).encode())]})
            await send({"type": "http.response.body", "body": self.health if scope["method"] == "GET" else b""})
            return
        loop = asyncio.get_running_loop()
        if self.mail is None or self.mail.loop is not loop:
            self.mail = Mail(loop)
        inbox: asyncio.Queue = asyncio.Queue()
        post = self.mail.post
        slot: dict = {"sink": lambda entries: post(inbox, entries)}

        async def until_handed_over(msg) -> None:
            if "subscription" in slot and msg["type"] == "http.response.body" and not msg.get("more_body"):
                if msg.get("body"):
                    await send({**msg, "more_body": True})
                return  # the response goes on in pump()
            await send(msg)

        await self.wsgi({**scope, LIVE_SLOT: slot}, receive, until_handed_over)
        if "subscription" in slot:
            self._open.add(inbox)
            try:
                if self._ending:
                    inbox.put_nowait(_DEADLINE)
                await pump(slot, inbox, receive, send)
            finally:
                self._open.discard(inbox)

    def end_streams(self) -> None:
        """On the event loop: every open stream ends now, as at its time limit (each client resumes, on another host,
        from the last id it received), and any opened from now on ends at once: the server is shutting down, and
        uvicorn waits for open responses before the application's last words (api.http.worker)."""
        self._ending = True
        for inbox in list(self._open):
            inbox.put_nowait(_DEADLINE)


def body_of(batch: list, named: bool) -> bytes:
    """The SSE text of a batch the feed gave: made once for all the subscriptions of its viewer (the feed hands each
    the same `Entries`, service.views.subscription), else (a subscription's own share of it) for this one."""
    if isinstance(batch, Entries):
        return batch.rendered(("sse", named), lambda entries: b"".join(message(e, named) for e in entries))
    return b"".join(message(e, named) for e in batch)


async def pump(slot: dict, inbox: asyncio.Queue, receive, send) -> None:
    """Send the backlog, then each batch the feed queues, until the time limit, the game's end or the client goes.

    A batch costs a wake-up and a write: no timer is armed per batch (the limit is one timer for the whole stream,
    a heartbeat another, which writes only if nothing was written since its last turn)."""
    subscription, named = slot["subscription"], slot["named"]
    loop = asyncio.get_running_loop()
    written = [False]  # any news written since the heartbeat's last turn

    def heartbeat() -> None:  # a quiet stream writes a comment every KEEPALIVE_SECONDS, a busy one none
        if not written[0]:
            inbox.put_nowait(_HEARTBEAT)
        written[0] = False
        timers[1] = loop.call_later(KEEPALIVE_SECONDS, heartbeat)

    timers = [loop.call_later(slot["limit"], inbox.put_nowait, _DEADLINE), loop.call_later(KEEPALIVE_SECONDS, heartbeat)]

    async def watch() -> None:  # the client going away is the only thing a GET stream receives
        while (await receive())["type"] != "http.disconnect":
            pass
        inbox.put_nowait(None)

    watcher = asyncio.create_task(watch())
    gone = False
    try:
        body, ended = body_of(slot["backlog"], named), ends_stream(slot["backlog"])
        while True:
            if body:
                await send({"type": "http.response.body", "body": body, "more_body": True})
                written[0] = written[0] or body is not _BEAT
            if ended or inbox.qsize() > MAX_QUEUED:
                break
            parts, stop = [], False
            batch = await inbox.get()
            while True:  # whatever else is waiting goes out in the same write
                if batch is None:
                    gone = stop = True
                    break
                if batch is _DEADLINE:
                    stop = True
                    break
                if batch is not _HEARTBEAT:
                    parts.append(body_of(batch, named))
                    ended = ended or ends_stream(batch)
                if inbox.empty():
                    break
                batch = inbox.get_nowait()
            body = b"".join(parts) if parts else _BEAT
            if stop:
                if parts and not gone:  # what arrived before the limit still goes out
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                break
    except OSError:  # the connection broke while writing
        gone = True
    finally:
        subscription.close()
        watcher.cancel()
        for timer in timers:
            timer.cancel()
    if not gone:
        try:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass


_HEARTBEAT, _DEADLINE = object(), object()  # the stream's own marks in its inbox (never a batch)
_BEAT = b": heartbeat\n\n"
