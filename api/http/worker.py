"""The gunicorn worker `arbiter serve` runs by default: uvicorn's, which ends the live streams when it is told to stop.

uvicorn waits for every open response before it shuts the application down, and a live stream is open until its
client leaves: with one stream open a worker would wait until gunicorn kills it (its `graceful_timeout`), and a killed
worker has no last round (the duty loop's cover and publish, service.duty.Duty.stop, through the ASGI lifespan's
shutdown: api.http.wsgi_bridge). So on SIGTERM (or SIGINT) the application's open streams end at once, as at their
time limit (`LiveStreams.end_streams`, api.http.asgi: each client resumes on another host from the last id it
received); a response still open `STREAMS_GRACE_SECONDS` later is cut by uvicorn; then the last round runs, well
within gunicorn's `graceful_timeout` (api.http.server)."""

from __future__ import annotations

import asyncio
import sys

from gunicorn.arbiter import Arbiter
from uvicorn import Server
from uvicorn_worker import UvicornWorker

STREAMS_GRACE_SECONDS = 2.0


class _Server(Server):
    """uvicorn's server, which also tells the application's streams to end when a signal tells it to stop."""

    def handle_exit(self, sig, frame) -> None:  # a signal handler: only a wake-up of the loop is scheduled here
        super().handle_exit(sig, frame)
        end = getattr(self.config.app, "end_streams", None)  # the application itself (loaded_app wraps it)
        loop = getattr(self, "loop", None)
        if end is not None and loop is not None:
            loop.call_soon_threadsafe(end)


class ArbiterWorker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "timeout_graceful_shutdown": STREAMS_GRACE_SECONDS}

    async def _serve(self) -> None:  # uvicorn_worker's, with the server above
        self.config.app = self.wsgi
        server = _Server(config=self.config)
        server.loop = asyncio.get_running_loop()
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
