"""Live updates: `GET /api/v1/games/{id}/stream` as server-sent events, filtered like the event log.

The stream pulls the store (every process sees every write, whatever the
database), sends each new event the caller may see as one SSE message whose id
is the event's version (so `Last-Event-ID` resumes), and a comment as a
heartbeat. It ends after `STREAM_SECONDS` (clients reconnect) or once the game
is over and drained.
"""

from __future__ import annotations

import json
import time

from flask import Response, current_app, request, stream_with_context
from flask_smorest import Blueprint

from . import schemas as s
from .routes import arbiter, bearer, errors_of

stream_blp = Blueprint("stream", __name__, url_prefix="/api/v1", description="Live updates (server-sent events)")
SSE = {"200": {"description": "server-sent events: one message per event the caller may see (`id` its version, `event` its "
                              "type, `data` the event-log entry as JSON), heartbeats as comments",
               "content": {"text/event-stream": {"schema": {  # each message (OpenAPI 3.0: `schema` describes one event)
                   "type": "object", "properties": {"id": {"type": "string", "description": "the event's version"},
                                                    "event": {"type": "string", "description": "the event's type"},
                                                    "data": {"type": "string", "description": "the event-log entry, JSON"}}}}}}}

POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 2.0  # a closed page is noticed (and its thread freed) within seconds


def sse_response(facade, game_id: str, token: str | None, after: int, limit: float, named: bool = True) -> Response:
    """A text/event-stream response of the events after `after` that the token may see.

    `named` gives each message its event type (`event: <type>`); the pages' stream leaves it out so that
    one `onmessage` handler hears every game's events."""

    def messages():
        seen = after
        started = last_beat = time.monotonic()
        yield "retry: 1000\n\n"
        while time.monotonic() - started < limit:
            events = facade.events(game_id, token, after=seen)
            for e in events:
                seen = e["version"]
                kind = f"event: {e['type']}\n" if named else ""
                yield f"id: {e['version']}\n{kind}data: {json.dumps(e)}\n\n"
            if any(e["type"] == "seed_revealed" for e in events):
                return
            if time.monotonic() - last_beat > HEARTBEAT_SECONDS:
                last_beat = time.monotonic()
                yield ": heartbeat\n\n"
            time.sleep(POLL_SECONDS)

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(messages()), mimetype="text/event-stream", headers=headers)


def resume_point() -> int:
    """Where a (re)connecting client resumes: Last-Event-ID, or ?after=, or the start."""
    try:
        return max(0, int(request.headers.get("Last-Event-ID") or request.args.get("after") or 0))
    except ValueError:
        return 0


@stream_blp.route("/games/<game_id>/stream", methods=["GET"])
@stream_blp.arguments(s.AfterQuery, location="query")
@stream_blp.arguments(s.ResumeHeaders, location="headers", as_kwargs=True)
@stream_blp.doc(responses=SSE)
@errors_of(stream_blp, 401, 403, 404)
def stream(query, game_id: str, last_event_id: int | None = None):
    """Server-sent events of the game as the caller may see it (the event log, live; ends after a minute or once
    the game is over and drained: reconnect with Last-Event-ID)."""
    facade = arbiter()
    token = bearer()
    facade.viewer(game_id, token)  # 401/403/404 before the stream starts
    after = last_event_id if last_event_id is not None else query["after"]
    return sse_response(facade, game_id, token, after, float(current_app.config.get("STREAM_SECONDS", 300)))
