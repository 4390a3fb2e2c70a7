"""Live updates: `GET /api/v1/games/{id}/stream` as server-sent events, filtered like the event log.

Each event the caller may see is one SSE message whose id is the event's version (so `Last-Event-ID`
resumes), and a comment is sent as a heartbeat. A stream ends after `STREAM_SECONDS` (clients reconnect)
or once it has sent the revealed seed. A caller's own news (`analysis_progress`: service.analysis.jobs) is a named
message without an id, sent to that caller's streams only.

The view checks the caller, then subscribes (`ViewsFacade.subscribe`: the backlog after the resume point, then
each new event from the process's one follower of the store, service.views.feed). Served by `api.http.asgi` (what
`arbiter serve` runs), the view hands the subscription over in the request's ASGI scope and returns at once:
the stream goes on as a coroutine on the worker's event loop and holds no thread. Served by a plain WSGI
server (the Flask test client, gthread), the response is a generator that holds its thread while it waits
on the subscription's queue (never on the store).
"""

from __future__ import annotations

import queue
import time

from flask import Response, current_app, request
from flask_smorest import Blueprint

from service.bounds import MAX_POSITION

from api.current import arbiter

from . import schemas as s
from .games import bearer, errors_of

stream_blp = Blueprint("stream", __name__, url_prefix="/api/v1", description="Live updates (server-sent events)")
SSE = {"200": {"description": "server-sent events: one message per event the caller may see (`id` its version, `event` its "
                              "type, `data` the event-log entry as JSON), heartbeats as comments",
               "content": {"text/event-stream": {"schema": {  # each message (OpenAPI 3.0: `schema` describes one event)
                   "type": "object", "properties": {"id": {"type": "string", "description": "the event's version"},
                                                    "event": {"type": "string", "description": "the event's type"},
                                                    "data": {"type": "string", "description": "the event-log entry, JSON"}}}}}}}

HEARTBEAT_SECONDS = 2.0  # WSGI: a closed page is noticed (and its thread freed) within seconds
LIVE_SLOT = "arbiter.live"  # the key of api.http.asgi's hand-over slot in the request's ASGI scope
RETRY = b"retry: 1000\n\n"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def message(entry: tuple[int | None, str, str], named: bool) -> bytes:
    """One SSE message of a (version, type, JSON) entry; `named` adds its event type. A viewer's own news (no
    version: an analysis' progress) is always named and carries no id, so it never moves where a client resumes (and
    the pages' unnamed `onmessage` never hears it)."""
    version, kind, data = entry
    if version is None:
        return f"event: {kind}\ndata: {data}\n\n".encode()
    return (f"id: {version}\nevent: {kind}\ndata: {data}\n\n" if named else f"id: {version}\ndata: {data}\n\n").encode()


def ends_stream(entries) -> bool:
    """Whether these entries close a stream: the game's end (its revealed seed) is the last thing to say."""
    return any(entry[1] == "seed_revealed" for entry in entries)


def sse_response(facade, game_id: str, token: str | None, after: int, limit: float, named: bool = True) -> Response:
    """A text/event-stream response of the events after `after` that the token may see.

    `named` gives each message its event type (`event: <type>`); the pages' stream leaves it out so that
    one `onmessage` handler hears every game's events."""
    slot = request.environ.get("asgi.scope", {}).get(LIVE_SLOT)
    if slot is not None:  # api.http.asgi streams it on its event loop
        slot["subscription"], slot["backlog"] = facade.views.subscribe(game_id, token, after, slot["sink"])
        slot["limit"], slot["named"] = limit, named
        return Response(iter([RETRY]), mimetype="text/event-stream", headers=HEADERS)
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    subscription, backlog = facade.views.subscribe(game_id, token, after, inbox.put)

    def messages():
        try:
            yield RETRY
            started = time.monotonic()
            entries = backlog
            while True:
                if entries:
                    yield b"".join(message(e, named) for e in entries)
                if ends_stream(entries):
                    return
                left = limit - (time.monotonic() - started)
                if left <= 0:
                    return
                try:
                    entries = inbox.get(timeout=min(HEARTBEAT_SECONDS, left))
                except queue.Empty:
                    entries = []
                    yield b": heartbeat\n\n"
        finally:
            subscription.close()

    return Response(messages(), mimetype="text/event-stream", headers=HEADERS)


def resume_point() -> int:
    """Where a (re)connecting client resumes: Last-Event-ID, or ?after=, or the start."""
    return clamped(request.headers.get("Last-Event-ID") or request.args.get("after"))


def clamped(value: object) -> int:
    """A resume point as docs/api.md's limits table says: an integer clamped to 0 to MAX_POSITION; anything else (not an
    integer, or one of more than 4,300 digits) the start."""
    try:
        return min(MAX_POSITION, max(0, int(str(value).strip()))) if value is not None else 0
    except ValueError:
        return 0


@stream_blp.route("/games/<game_id>/stream", methods=["GET"])
@stream_blp.arguments(s.AfterQuery, location="query")
@stream_blp.arguments(s.ResumeHeaders, location="headers", as_kwargs=True)
@stream_blp.doc(responses=SSE)
@errors_of(stream_blp, 401, 403, 404)
def stream(query, game_id: str, last_event_id: str | None = None):
    """Server-sent events of the game as the caller may see it (the event log, live; ends after a minute or once
    the game is over and drained: reconnect with Last-Event-ID)."""
    facade = arbiter()
    token = bearer()
    facade.access.viewer(game_id, token)  # 401/403/404 before the stream starts
    after = clamped(last_event_id) if last_event_id is not None else query["after"]
    return sse_response(facade, game_id, token, after, float(current_app.config.get("STREAM_SECONDS", 300)))
