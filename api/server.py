"""Serving arbiter with gunicorn (a production WSGI server) from the command line."""

from __future__ import annotations

from gunicorn.app.base import BaseApplication


class Server(BaseApplication):
    """gunicorn running `api.create_app` with the given database URL; each worker builds its own app."""

    def __init__(self, database_url: str | None, options: dict):
        self.database_url = database_url
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self):
        from . import create_app

        return create_app({"DATABASE_URL": self.database_url} if self.database_url else None)


def serve(host: str, port: int, database_url: str | None, workers: int, threads: int) -> None:
    """Run gunicorn in the foreground."""
    options = {"bind": f"{host}:{port}", "workers": workers, "threads": threads, "worker_class": "gthread",
               "accesslog": None, "errorlog": "-", "loglevel": "warning", "timeout": 120, "graceful_timeout": 5}
    Server(database_url, options).run()
