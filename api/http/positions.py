"""The replay viewer's positions (GET /api/v1/games/{id}/positions and the replay page's own copy): the document's
schema for the OpenAPI description, and its answer as compact JSON, gzip'd when the client accepts it.

A 5,000-event game's positions are some hundreds of kilobytes of JSON that compress about tenfold (each version's
difference repeats the same keys), and nothing else in arbiter's stack (the WSGI/ASGI servers, a proxy in front)
compresses answers, so the route does it itself: gzip level 6, `Vary: Accept-Encoding`.
"""

from __future__ import annotations

import gzip
import json

from flask import Response, request
from marshmallow import Schema, fields

MIN_GZIP = 1024  # bytes: smaller answers go as they are


class Positions(Schema):
    """Every version's view of a game as the caller may see it, compactly (projections.positions, docs/api.md)."""

    format = fields.String(required=True, metadata={"description": "arbiter.positions/1"})
    first = fields.Integer(required=True, metadata={"description": "the version of `view` (1)"})
    latest = fields.Integer(required=True, metadata={"description": "the last version held (a delayed spectator's "
                                                                    "cut)"})
    view = fields.Dict(required=True, metadata={"description": "the view at `first`, as GET /replay gives it, "
                                                               "without chain_head, commitment and id"})
    diffs = fields.List(fields.List(fields.Raw()), required=True, metadata={
        "description": "one entry per later version: its operations on the view before it, [path, value] to set, "
                       "[path] to delete (a path: dict keys and list indexes)"})


def positions_response(doc: dict) -> Response:
    """`doc` as compact JSON, gzip'd for a client that accepts gzip; never cached by a shared cache (it is one
    viewer's: a seat's positions hold its hand)."""
    body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
    response = Response(mimetype="application/json")
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = "private, no-cache"
    if len(body) >= MIN_GZIP and "gzip" in request.headers.get("Accept-Encoding", "").lower():
        body = gzip.compress(body, compresslevel=6)
        response.headers["Content-Encoding"] = "gzip"
    response.set_data(body)
    return response
