"""Serving arbiter with gunicorn (a production server) from the command line.

By default each worker is uvicorn's (an asyncio event loop) running `api.http.asgi`: the Flask app in a pool
of `threads` threads, the live streams as coroutines fed by the worker's one follower of the store. The
`gthread` worker class serves the plain WSGI app instead, where every open stream holds one of the
worker's threads (the behaviour before the event loop; kept to compare against).
"""

from __future__ import annotations

import os
import sys

from gunicorn.app.base import BaseApplication

WORKER_CLASSES = {"uvicorn": "api.http.worker.ArbiterWorker", "gthread": "gthread"}
GRACEFUL_SECONDS = 10  # a worker not gone this long after SIGTERM is killed (it cuts its streams after 2: api.http.worker)


class Server(BaseApplication):
    """gunicorn running arbiter with the given database URL; each worker builds its own app."""

    def __init__(self, database_url: str | None, options: dict, asgi: bool, threads: int):
        self.database_url = database_url
        self.options = options
        self.asgi, self.threads = asgi, threads
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self):
        config = {"DATABASE_URL": self.database_url} if self.database_url else {}
        config["WATCH_CLOCKS"] = True
        config["DUTIES"] = True
        for name in ("JOB_LEASE_SECONDS", "ANALYSIS_WORKERS"):  # the background jobs' settings (docs/analysis.md "Jobs")
            if os.environ.get(f"ARBITER_{name}"):
                config[name] = os.environ[f"ARBITER_{name}"]
        if self.asgi:
            from .asgi import create_asgi_app

            return create_asgi_app(config, self.threads)
        from api import create_app

        return create_app(config)


def serve(host: str, port: int, database_url: str | None, workers: int, threads: int, worker_class: str = "uvicorn",
          banner: str = "") -> None:
    """Run gunicorn in the foreground; print where it serves once the port is bound (port 0: a free one)."""

    def when_ready(server) -> None:
        for listener in server.LISTENERS:
            print(f"arbiter is serving on {listener}/  {banner}".rstrip(), flush=True)

    options = {"bind": f"{host}:{port}", "workers": workers, "threads": threads, "worker_class": WORKER_CLASSES[worker_class],
               "accesslog": None, "errorlog": "-", "loglevel": "warning", "timeout": 120, "graceful_timeout": GRACEFUL_SECONDS,
               "when_ready": when_ready}
    Server(database_url, options, worker_class == "uvicorn", threads).run()
    sys.stdout.flush()
