"""The routes the documentation names are the routes the app serves: every `METHOD /path` written in docs/api.md
is one of the app's URL rules as served (prefix included, so that `GET /health` cannot stand for
`/api/v1/health`, nor an API route for the browser page at the same path without the prefix)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import RequestRedirect

from api import create_app

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
ROUTE = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE) (/[^\s`|()]*)")
PLACEHOLDER = re.compile(r"\{[^}/]*\}")


@pytest.fixture(scope="module")
def app():
    return create_app({"DATABASE_URL": "memory://"})


def documented_routes(text: str) -> list[tuple[str, str]]:
    """(method, path) of every `METHOD /path` in a text: the query string and trailing punctuation dropped."""
    out = []
    for method, path in ROUTE.findall(text):
        path = path.split("?", 1)[0].rstrip(".,;:")
        out.append((method, path))
    return out


def served(app, method: str, path: str) -> str | None:
    """None when the app answers `method path` (each `{placeholder}` as a value) with a rule of its own; else why not."""
    concrete = PLACEHOLDER.sub("1", path)
    try:
        app.url_map.bind("localhost").match(concrete, method=method)
    except NotFound:
        return "no such path"
    except MethodNotAllowed as e:
        return f"only {', '.join(sorted(set(e.valid_methods or []) - {'HEAD', 'OPTIONS'}))}"
    except RequestRedirect as e:
        return f"redirected to {e.new_url}"
    return None


def test_the_route_pattern_reads_methods_paths_and_drops_queries():
    text = "`GET /api/v1/games?status=&game=` and (`POST /api/v1/games/{id}/moves`), `POST /`"
    assert documented_routes(text) == [("GET", "/api/v1/games"), ("POST", "/api/v1/games/{id}/moves"), ("POST", "/")]


def test_every_route_docs_api_md_names_is_served_by_the_app_at_that_path_and_method(app):
    routes = documented_routes(API_DOC.read_text(encoding="utf-8"))
    assert len(routes) > 30, "docs/api.md names its routes as `METHOD /path`"
    wrong = {f"{m} {p}": why for m, p in routes if (why := served(app, m, p))}
    assert not wrong, f"docs/api.md names routes the app does not serve: {wrong}"


def test_every_api_route_the_app_serves_is_named_in_docs_api_md(app):
    adapter = app.url_map.bind("localhost")
    named = set()
    for method, path in documented_routes(API_DOC.read_text(encoding="utf-8")):
        if served(app, method, path) is None:
            named.add((method, adapter.match(PLACEHOLDER.sub("1", path), method=method)[0]))
    missing = [f"{method} {rule.rule}" for rule in app.url_map.iter_rules()
               if rule.rule.startswith("/api/v1/") and not rule.rule.endswith("/openapi.json")
               for method in sorted(rule.methods - {"HEAD", "OPTIONS"}) if (method, rule.endpoint) not in named]
    assert not missing, f"docs/api.md does not name these routes of the API: {missing}"


# ---------------------------------------------------------------- the OpenAPI document holds every route of the API


def openapi_path(rule: str) -> str:
    """A URL rule as the OpenAPI document writes it: `<int:number>` becomes `{number}`."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def test_every_route_under_api_v1_is_in_the_openapi_document_with_each_of_its_methods(app):
    paths = app.test_client().get("/api/v1/openapi.json").get_json()["paths"]
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/") or rule.rule == "/api/v1/openapi.json":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method.lower() not in paths.get(openapi_path(rule.rule), {}):
                missing.append(f"{method} {rule.rule} ({rule.endpoint})")
    assert not missing, f"routes the app serves under /api/v1 that its OpenAPI document leaves out: {missing}"


def test_the_openapi_document_describes_handing_a_seat_to_a_bot(app):
    operation = app.test_client().get("/api/v1/openapi.json").get_json()["paths"]["/api/v1/games/{game_id}/bot"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert "201" in operation["responses"] and {"401", "403", "404", "409", "422"} <= set(operation["responses"])
    assert "application/problem+json" in operation["responses"]["409"]["content"]
    assert body  # a schema of its own, {bot: heuristic | random}
