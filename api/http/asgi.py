"""The ASGI entry point `arbiter serve` runs: the Flask app in a thread pool, the live streams on the event loop.

Every request goes to the Flask app (api.http.wsgi_bridge runs each whole in one thread of a pool of `threads`), so every route keeps
one definition, its checks and its error pages. A stream view (api.http.stream) finds a hand-over slot in the
request's ASGI scope: it subscribes there and returns at once, and the stream then goes on here as a
coroutine waiting on its queue, which the process's follower of the store (service.views.feed) fills from its
thread. A thousand open streams hold no thread and read nothing from the store themselves.
"""

from __future__ import annotations

import asyncio

from .stream import LIVE_SLOT, ends_stream, message
from .wsgi_bridge import ThreadedWSGI

KEEPALIVE_SECONDS = 15.0  # a comment now and then keeps proxies from closing an idle stream
HEALTH = "/api/v1/health"
SWITCH_INTERVAL = 0.001  # seconds: the loop waits less for the GIL behind the request threads (default 0.005)
MAX_QUEUED = 1000  # batches waiting for a client that does not read: past this, the stream ends (it resumes by id)


def create_asgi_app(config: dict | None = None, threads: int = 8):
    """The arbiter app as an ASGI application: `api.create_app(config)` in `threads` threads, streams on the loop."""
    import sys

    from api import create_app

    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(config)
    return LiveStreams(ThreadedWSGI(app, threads, app.config["MAX_CONTENT_LENGTH"]))


def _health_body() -> bytes:
    """The answer of the Flask route `GET /api/v1/health` (service.views.lobby.health_report), built once."""
    import json

    from service.views.lobby import health_report

    return json.dumps(health_report()).encode()


class LiveStreams:
    """ASGI middleware: requests to the WSGI app; a stream it hands over is pumped here until it ends."""

    def __init__(self, wsgi):
        self.wsgi = wsgi
        self.health = _health_body()

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
        inbox: asyncio.Queue = asyncio.Queue()
        slot: dict = {"sink": lambda entries: loop.call_soon_threadsafe(inbox.put_nowait, entries)}

        async def until_handed_over(msg) -> None:
            if "subscription" in slot and msg["type"] == "http.response.body" and not msg.get("more_body"):
                if msg.get("body"):
                    await send({**msg, "more_body": True})
                return  # the response goes on in pump()
            await send(msg)

        await self.wsgi({**scope, LIVE_SLOT: slot}, receive, until_handed_over)
        if "subscription" in slot:
            await pump(slot, inbox, receive, send)


async def pump(slot: dict, inbox: asyncio.Queue, receive, send) -> None:
    """Send the backlog, then each batch the feed queues, until the time limit, the game's end or the client goes."""
    subscription, named = slot["subscription"], slot["named"]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + slot["limit"]

    async def watch() -> None:  # the client going away is the only thing a GET stream receives
        while (await receive())["type"] != "http.disconnect":
            pass
        inbox.put_nowait(None)

    watcher = asyncio.create_task(watch())
    gone = False
    try:
        entries = slot["backlog"]
        while True:
            if entries:
                await send({"type": "http.response.body", "body": b"".join(message(e, named) for e in entries),
                            "more_body": True})
                if ends_stream(entries):
                    break
            left = deadline - loop.time()
            if left <= 0 or inbox.qsize() > MAX_QUEUED:
                break
            try:
                async with asyncio.timeout(min(KEEPALIVE_SECONDS, left)):
                    batch = await inbox.get()
            except TimeoutError:
                await send({"type": "http.response.body", "body": b": heartbeat\n\n", "more_body": True})
                entries = []
                continue
            if batch is None:
                gone = True
                break
            entries = list(batch)
            while not inbox.empty():  # whatever else is waiting goes out in the same write
                more = inbox.get_nowait()
                if more is None:
                    gone = True
                    break
                entries.extend(more)
            if gone:
                break
    except OSError:  # the connection broke while writing
        gone = True
    finally:
        subscription.close()
        watcher.cancel()
    if not gone:
        try:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass
