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

from flask import Blueprint, Response, current_app, request, stream_with_context

from service.facade import MAX_POSITION

from .routes import arbiter, bearer

stream_blp = Blueprint("stream", __name__, url_prefix="/api/v1")
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
        return min(MAX_POSITION, max(0, int(request.headers.get("Last-Event-ID") or request.args.get("after") or 0)))
    except ValueError:  # not an integer, or one of more than 4,300 digits
        return 0


@stream_blp.get("/games/<game_id>/stream")
def stream(game_id: str):
    """Server-sent events of the game as the caller may see it."""
    facade = arbiter()
    token = bearer()
    facade.viewer(game_id, token)  # 401/403/404 before the stream starts
    return sse_response(facade, game_id, token, resume_point(), float(current_app.config.get("STREAM_SECONDS", 300)))
