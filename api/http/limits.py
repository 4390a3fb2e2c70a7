"""Bounds on what a request may carry: a JSON body is read within domain.json_limits before anything else sees it.

- a body that is not JSON: 400; a JSON body nested too deeply or holding a number out of range
  (integers beyond 2^53 - 1, NaN, Infinity): 422 naming the field (both problem+json);
- a body over MAX_CONTENT_LENGTH (256 KiB): 413 problem+json;
- a body sent to the API (/api/) as anything but JSON (`application/json` or `+json`), or with no Content-Type: 415
  naming the Content-Type (webargs would read no body and answer that the first field is missing).

Query integers (`offset`, `after`, `version`, `length`) are bounded by their schemas (api.http.schemas,
service.bounds.MAX_POSITION), and the service checks them again for the pages and the stream.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from domain import json_limits

from .problems import problem

API_PREFIX = "/api/"


def install(app: Flask) -> None:
    """Check every JSON request body against the bounds before the routes parse it."""

    @app.before_request
    def bounded_json_body():
        if request.method in ("GET", "HEAD", "OPTIONS", "DELETE"):
            return None
        if not request.is_json:  # the pages' forms are read by their routes; the API reads JSON bodies only
            if request.path.startswith(API_PREFIX) and request.get_data(cache=True):
                sent = f"as {request.content_type!r}" if request.content_type else "without a Content-Type header"
                return problem(415, "Unsupported Media Type", f"Content-Type: the request body came {sent}; the API "
                               "reads JSON bodies only: send it as application/json", field="Content-Type")
            return None
        data = request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: RequestEntityTooLarge (413)
        if not data:
            return None
        try:
            json_limits.loads(data)
        except json_limits.LimitError as e:
            if e.not_json:
                return problem(400, "Malformed JSON", f"the request body is {e}")
            return problem(422, "Invalid input", str(e), field=e.field)
        return None

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(e: RequestEntityTooLarge):
        limit = app.config.get("MAX_CONTENT_LENGTH") or 0
        return problem(413, "Content too large", f"the request body is larger than {limit // 1024} KiB ({limit} bytes)")
