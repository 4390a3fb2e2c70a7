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
EVENT_KINDS = (  # the `event:` of each message (docs/api.md, "Live updates"); `data` is that event-log entry
    ("created", "the game was set up (players, options, commitment)"),
    ("<the game's own kinds>", "each move and engine step, as the game names it (its decider's events), its "
                               "`data` redacted for the caller"),
    ("player_named", "a seat gave its name"),
    ("dispute_filed", "a seat disputed a move or a refused attempt"),
    ("dispute_ruled", "the referee ruled on a dispute"),
    ("rewound", "an upheld dispute rewound the game"),
    ("time_expired", "a seat ran out of time (recorded for the referee)"),
    ("move_rejected", "a refused attempt (the seat's own, or any for the referee)"),
    ("seed_revealed", "the game is over and its seed revealed: the stream's last message"),
    ("analysis_progress", "the caller's own computer analysis progressed: no `id`, never resumed from"),
)
SSE = {200: {"description": "server-sent events (text/event-stream): one message per event the caller may see, "
                              "`id:` its version (what Last-Event-ID resumes after), `event:` its kind, `data:` the "
                              "event-log entry as JSON (the `Event` schema); a comment line `: heartbeat` every few "
                              "seconds; the stream ends after a minute or after `seed_revealed` (reconnect with "
                              "Last-Event-ID). Event kinds:\n\n"
                              + "\n".join(f"- `{kind}`: {what}" for kind, what in EVENT_KINDS),
               # OpenAPI 3.0 cannot say "a stream of these messages": `schema` is read as the stream's text by a generated
               # client (a string) and as one message by schemathesis (OpenAPI 3.2's itemSchema): both are declared
               "content": {"text/event-stream": {"schema": {"anyOf": [
                   {"type": "string", "description": "the stream's text, message after message",
                    "example": "retry: 1000\n\nid: 3\nevent: attacked\ndata: {\"version\": 3, ...}\n\n"},
                   {"$ref": "#/components/schemas/StreamMessage"}]}}}}}
STREAM_MESSAGE = {"type": "object", "required": ["data"], "description": "one message of the stream", "properties": {
    "id": {"type": "string", "description": "the event's version (absent on the caller's own news)"},
    "event": {"type": "string", "description": "the event's kind (the catalogue: the stream's 200 answer)"},
    "data": {"type": "string", "description": "the event-log entry as JSON (the `Event` schema)"}}}

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
