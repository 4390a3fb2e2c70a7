"""api.http.wsgi_bridge: the served app (api.http.asgi) reads a request body whole before the request thread runs, answers
exactly as the Flask app does, refuses an oversized body by its length, and crosses to the thread pool once."""

from __future__ import annotations

import asyncio
import json
import threading

from api import create_app
from api.http.asgi import create_asgi_app
from api.http.wsgi_bridge import ThreadedWSGI

SPEC = {"game": "el-royale", "options": {"edition": "revised"}, "players": [{"name": "A"}, {"name": "B"}], "seed": "5eed0001"}


def call(app, method: str, path: str, chunks: list[bytes], headers: list | None = None) -> tuple[int, dict, bytes]:
    sent: list[dict] = []
    pieces = list(chunks) or [b""]

    async def receive():
        body = pieces.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(pieces)}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": headers or [(b"content-type", b"application/json")], "http_version": "1.1", "scheme": "http",
             "server": ("test", 80), "client": ("test", 1), "root_path": ""}
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def test_a_body_sent_in_pieces_reaches_the_app_whole():
    app = create_asgi_app({"DATABASE_URL": "memory://"})
    raw = json.dumps(SPEC).encode()
    status, _, body = call(app, "POST", "/api/v1/games", [raw[:10], raw[10:40], raw[40:]])
    assert status == 201 and json.loads(body)["seats"][1]["name"] == "B"


def test_answers_are_the_flask_apps_status_headers_and_body():
    app = create_asgi_app({"DATABASE_URL": "memory://"})
    flask = create_app({"DATABASE_URL": "memory://"}).test_client()
    status, headers, body = call(app, "POST", "/api/v1/games", [b'{"game": "chess"}'])
    expected = flask.post("/api/v1/games", data=b'{"game": "chess"}', content_type="application/json")
    assert status == expected.status_code == 422
    assert json.loads(body) == expected.get_json()
    assert headers[b"content-type"] == expected.headers["Content-Type"].encode()


def test_a_body_over_the_limit_is_refused_by_its_length_and_not_kept():
    app = create_asgi_app({"DATABASE_URL": "memory://", "MAX_CONTENT_LENGTH": 1000})
    seen = []
    bridge = app.wsgi
    inner = bridge.app

    def spy(environ, start_response):
        seen.append((environ.get("CONTENT_LENGTH"), len(environ["wsgi.input"].getvalue())))
        return inner(environ, start_response)

    bridge.app = spy
    status, _, body = call(app, "POST", "/api/v1/games", [b"x" * 600] * 10, headers=[(b"content-type", b"application/json")])
    assert status == 413 and json.loads(body)["status"] == 413
    assert len(seen) == 1 and seen[0][0] == "6000"  # the app was told the true length
    assert seen[0][1] <= 1001  # and no more than the limit was kept in memory


def test_each_request_crosses_to_the_thread_pool_once():
    calls = []

    def app(environ, start_response):
        calls.append(threading.current_thread().name)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"a", b"b"]

    bridge = ThreadedWSGI(app, threads=2, max_body=100)
    submitted = []
    real_submit = bridge.submit
    bridge.submit = lambda *a, **k: submitted.append(1) or real_submit(*a, **k)
    status, _, body = call(bridge, "POST", "/x", [b"12", b"34"])
    assert (status, body) == (200, b"ab")
    assert len(submitted) == 1 and calls[0].startswith("WSGI")
