"""The Flask app on the event loop's server: each request runs whole in one thread of a pool.

a2wsgi's WSGIMiddleware (what api.http.asgi used before) streams both ways: the thread asks the loop for each piece
of the request body and hands it each piece of the answer (the status line, every body chunk, the end), waiting
each time for the loop to take it. A move crossed between the threads five times or more, and on a 2-core
machine every crossing is a wake-up of a thread that then waits for the GIL. Here the loop reads the whole
request body first (arbiter's requests are small JSON documents, bounded by Flask's MAX_CONTENT_LENGTH), the
thread runs the app and collects the whole answer, and the loop writes it: one crossing each way.

A body larger than `max_body` is not kept: the app sees its true length and refuses it (413) as it would have.
Every answer of the app is finite here: a live stream is handed over to api.http.asgi, which goes on writing it.

The crossing itself is a queue the request threads take jobs from and an asyncio future each job settles with
`call_soon_threadsafe`: asyncio's `run_in_executor` (a concurrent Future with its condition, a work item, the
pool's thread-count check, and a chain of callbacks copying one future's state into another) cost several times
that per request. The answer goes out in two messages (its status and headers, then its whole body).
"""

from __future__ import annotations

import asyncio
import io
import logging
import queue
import threading
from typing import Callable

from a2wsgi.wsgi import build_environ

log = logging.getLogger("arbiter.api")


class ThreadedWSGI:
    """ASGI application running a WSGI app in `threads` threads, one request per thread, answers buffered."""

    def __init__(self, app, threads: int, max_body: int, on_shutdown: Callable[[], None] | None = None):
        """`on_shutdown`: run (in a thread) when the server shuts down gracefully (the ASGI lifespan's shutdown)."""
        self.app = app
        self.on_shutdown = on_shutdown
        self.max_body = max_body
        self.threads = threads
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._started: list[threading.Thread] = []
        self._start_guard = threading.Lock()

    def submit(self, environ: dict, loop: asyncio.AbstractEventLoop) -> asyncio.Future:
        """Run the app on `environ` in a request thread; the future (of `loop`) gets (status, headers, body)."""
        if len(self._started) < self.threads:
            self._start()
        future = loop.create_future()
        self._jobs.put((environ, future, loop))
        return future

    def _start(self) -> None:
        """The request threads, started by the first request (in the serving process, after any fork)."""
        with self._start_guard:
            while len(self._started) < self.threads:
                thread = threading.Thread(target=self._serve, name=f"WSGI_{len(self._started)}", daemon=True)
                thread.start()
                self._started.append(thread)

    def _serve(self) -> None:
        while True:
            environ, future, loop = self._jobs.get()
            try:
                answer, error = self._run(environ), None
            except BaseException as e:  # noqa: BLE001 - raised on the loop, in the request's coroutine
                answer, error = None, e
            try:
                loop.call_soon_threadsafe(_settle, future, answer, error)
            except RuntimeError:  # the loop closed meanwhile: nobody waits for this answer
                pass

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send, self.on_shutdown)
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
        status, headers, body = await self.submit(environ, asyncio.get_running_loop())
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})  # api.http.asgi may hold back its end

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


def _settle(future: asyncio.Future, answer, error: BaseException | None) -> None:
    if future.cancelled():  # the request's coroutine was cancelled (the client left)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(answer)


def _no_write(data: bytes) -> None:  # the WSGI write() callable: Flask never uses it
    raise RuntimeError("write() is not supported: return the body instead")


async def _lifespan(receive, send, on_shutdown: Callable[[], None] | None) -> None:
    """The server's start and graceful shutdown. The shutdown is the process's last chance to act: uvicorn raises
    the signal that stopped it again once it is done, with its default action, so the process then dies without
    running `atexit` (uvicorn.Server.capture_signals, under gunicorn's uvicorn worker)."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if on_shutdown is not None:
                try:
                    await asyncio.get_running_loop().run_in_executor(None, on_shutdown)
                except Exception as e:  # noqa: BLE001 - the shutdown goes on: what was not done, another host does
                    log.warning("arbiter: the shutdown's last words failed: %s", type(e).__name__)
            await send({"type": "lifespan.shutdown.complete"})
            return

