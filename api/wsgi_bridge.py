"""The Flask app on the event loop's server: each request runs whole in one thread of a pool.

a2wsgi's WSGIMiddleware (what api.asgi used before) streams both ways: the thread asks the loop for each piece
of the request body and hands it each piece of the answer (the status line, every body chunk, the end), waiting
each time for the loop to take it. A move crossed between the threads five times or more, and on a 2-core
machine every crossing is a wake-up of a thread that then waits for the GIL. Here the loop reads the whole
request body first (arbiter's requests are small JSON documents, bounded by Flask's MAX_CONTENT_LENGTH), the
thread runs the app and collects the whole answer, and the loop writes it: one crossing each way.

A body larger than `max_body` is not kept: the app sees its true length and refuses it (413) as it would have.
Every answer of the app is finite here: a live stream is handed over to api.asgi, which goes on writing it.
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ


class ThreadedWSGI:
    """ASGI application running a WSGI app in `threads` threads, one request per thread, answers buffered."""

    def __init__(self, app, threads: int, max_body: int):
        self.app = app
        self.max_body = max_body
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="WSGI")

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1000})
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size <= self.max_body + 1:
                chunks.append(body)
            if not message.get("more_body"):
                break
        environ = build_environ(scope, io.BytesIO(b"".join(chunks)))
        if size or "CONTENT_LENGTH" in environ:
            # the body as received, whole (de-chunked): its true length, which refuses it if over the limit
            environ["CONTENT_LENGTH"] = str(size)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        loop = asyncio.get_running_loop()
        status, headers, body = await loop.run_in_executor(self.executor, self._run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        # two messages, so that api.asgi can hold back the end of a stream it goes on writing
        await send({"type": "http.response.body", "body": body, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _run(self, environ: dict) -> tuple[int, list, bytes]:
        started: list = []

        def start_response(status: str, headers: list, exc_info=None):
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [int(status.split(" ", 1)[0]),
                          [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers]]
            return _no_write

        iterable = self.app(environ, start_response)
        try:
            body = b"".join(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        if not started:
            raise RuntimeError("the WSGI app returned without starting a response")
        return started[0], started[1], body


def _no_write(data: bytes) -> None:  # the WSGI write() callable: Flask never uses it
    raise RuntimeError("write() is not supported: return the body instead")


async def _lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return

