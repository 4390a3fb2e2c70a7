"""Errors as `application/problem+json` (RFC 9457): never a traceback, never a hidden card."""

from __future__ import annotations

import logging

from flask import Flask, Response, json
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from service.errors import ServiceError

from api.pages.errors import on_a_page, page_error

log = logging.getLogger("arbiter.api")
PROBLEM = "application/problem+json"


class ProblemApi(Api):
    """flask-smorest's Api with its generic error responses (422, default) documented as they are sent: problem+json."""

    def _register_responses(self):
        from .schemas import Problem

        self.ERROR_SCHEMA = Problem
        self.DEFAULT_RESPONSE_CONTENT_TYPE = PROBLEM  # only while the error responses are registered
        try:
            super()._register_responses()
        finally:
            del self.DEFAULT_RESPONSE_CONTENT_TYPE


def problem(status: int, title: str, detail: str, **extra) -> Response:
    """A problem+json response."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(json.dumps(body), status=status, mimetype=PROBLEM)


def _field_detail(errors) -> tuple[str, str | None]:
    """One readable line naming the first bad field of a marshmallow/webargs error dict."""
    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("json", "query", "headers", "form", "files", "path", "view_args"):
                    yield from walk(value, path)
                else:
                    yield from walk(value, path + [str(key)])
        elif isinstance(node, list) and node and all(isinstance(x, str) for x in node):
            yield ".".join(path), node[0]
        elif isinstance(node, list):
            for item in node:
                yield from walk(item, path)

    for field, message in walk(errors, []):
        return f"{field}: {message}" if field else message, field or None
    return "the request is malformed", None


def _rule_url(rule, under: tuple[str, dict] | None = None) -> str | None:
    """The page of a refusal's clause (an added member beside `rule`: contract §3's members stay as they are), in the
    edition of the game it was refused in (`under`: its game and options, when the refusal carries them)."""
    from api.pages.rules import clause_url

    try:
        return clause_url(rule, *(under or ())) if rule else None
    except Exception:  # an unreadable rulebook never turns a refusal into a server error
        log.warning("no rulebook link for clause %s", rule)
        return None


def service_problem(e: ServiceError) -> Response:
    """A service's refusal as problem+json (the API's, and a page's own JSON routes')."""
    response = problem(e.status, e.title, e.detail, rule=e.rule, rule_url=_rule_url(e.rule, getattr(e, "under", None)),
                       field=e.field, attempt=getattr(e, "attempt", None), seat_attempt=getattr(e, "seat_attempt", None),
                       promise=getattr(e, "promise", None))
    if e.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="arbiter"'
    if getattr(e, "retry_after", None) is not None:  # 429: when to ask again (service.errors.TooBusy)
        response.headers["Retry-After"] = str(e.retry_after)
    return response


def install(app: Flask, api) -> None:
    """Map every error to problem+json."""

    app.register_error_handler(ServiceError, service_problem)

    def http_error(e: HTTPException):
        data = getattr(e, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        if errors:
            detail, field = _field_detail(errors)
            response = problem(e.code or 400, "Invalid input", detail, field=field, errors=errors)
        elif on_a_page():
            body, status = page_error(e.code or 500, e.name, e.description or e.name)
            response = Response(body, status=status, mimetype="text/html")
        else:
            response = problem(e.code or 500, e.name, e.description or e.name)
        for key, value in (e.get_headers() if e.code else []):
            if key.lower() != "content-type":
                response.headers[key] = value
        return response

    api.handle_http_exception = http_error
    app.register_error_handler(HTTPException, http_error)

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        log.error("unexpected %s in a request", type(e).__name__)  # no traceback, no body: they may hold cards
        if on_a_page():
            try:
                return page_error(500, "Internal server error", "arbiter could not answer this request")
            except Exception:  # the page itself failed: the plain answer
                pass
        return problem(500, "Internal server error", "arbiter could not answer this request")
