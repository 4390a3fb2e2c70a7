"""Serving a witness with gunicorn (one worker: its threads share the witness; the state file serialises anyway)."""

from __future__ import annotations

import sys

from gunicorn.app.base import BaseApplication


class WitnessServer(BaseApplication):
    """gunicorn running the app of one witness, built by `make_app` in the worker."""

    def __init__(self, make_app, options: dict):
        self.make_app, self.options = make_app, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.make_app()


def serve(make_app, host: str, port: int, threads: int, banner: str) -> None:
    """Run gunicorn in the foreground; print where it serves once bound (port 0: a free one)."""

    def when_ready(server) -> None:
        for listener in server.LISTENERS:
            print(f"arbiter witness is serving on {listener}/  {banner}".rstrip(), flush=True)

    options = {"bind": f"{host}:{port}", "workers": 1, "threads": threads, "worker_class": "gthread",
               "accesslog": None, "errorlog": "-", "loglevel": "warning", "timeout": 60, "graceful_timeout": 5,
               "when_ready": when_ready}
    WitnessServer(make_app, options).run()
    sys.stdout.flush()
