"""`GET /api/v1/health` is answered on the server's event loop (api.http.asgi), never queued behind moves in the request
threads, and says exactly what the Flask route says."""

from __future__ import annotations

import asyncio
import json

from api import create_app
from api.http.asgi import create_asgi_app


def call(app, method: str, path: str) -> tuple[int, bytes]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [], "http_version": "1.1", "scheme": "http", "server": ("test", 80), "client": ("test", 1),
             "root_path": ""}
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


class NoThreads:
    """Stands in for the WSGI app: any request that reaches the thread pool fails the test."""

    async def __call__(self, scope, receive, send):
        raise AssertionError(f"{scope['path']} reached the request threads")


def test_health_is_answered_on_the_loop_with_the_flask_routes_json():
    app = create_asgi_app({"DATABASE_URL": "memory://"})
    app.wsgi = NoThreads()
    status, body = call(app, "GET", "/api/v1/health")
    flask_answer = create_app({"DATABASE_URL": "memory://"}).test_client().get("/api/v1/health").get_json()
    assert status == 200 and json.loads(body) == flask_answer
    assert call(app, "HEAD", "/api/v1/health") == (200, b"")
