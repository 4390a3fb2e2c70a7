"""A transparency log served over real HTTP for the tlog-tiles tests: an app on a store, a werkzeug server in a
thread, and lines appended to the checkpoint log in bulk (signed as the facade signs them) so that a tree reaches
past a full tile in a moment."""

from __future__ import annotations

import threading
import uuid
from contextlib import contextmanager

from werkzeug.serving import make_server

from api import create_app

PREFIX = "/api/v1/log"


class ServedLog:
    """A served app's log: its tiles prefix URL, its facade, a test client and the log's verifier key."""

    def __init__(self, url: str, app):
        self.url, self.app = url, app
        self.arbiter = app.extensions["arbiter"]
        self.client = app.test_client()

    @property
    def prefix(self) -> str:
        return self.url + PREFIX

    @property
    def log(self):
        return self.arbiter.evidence.transparency

    @property
    def key(self) -> str:
        return self.log.key_text().strip()

    def get(self, path: str) -> bytes | None:
        """A file under the tiles prefix as served, None for a 404."""
        r = self.client.get(f"{PREFIX}/{path}")
        assert r.status_code in (200, 404), r.get_data(as_text=True)
        return r.data if r.status_code == 200 else None

    def grow(self, lines: int, game: str | None = None) -> str:
        """Append `lines` checkpoint lines of one game (versions 1, 2, ...) and publish; returns the game's id."""
        game = game or str(uuid.uuid4())
        self.arbiter.evidence.log.append_many([(game, v, f"{v:064x}", "test", 0, "") for v in range(1, lines + 1)])
        self.log.publish()
        return game


@contextmanager
def served_log(database_url: str, origin: str = "arbiter.test/tiles", key_file: str | None = None):
    config = {"DATABASE_URL": database_url, "LOG_ORIGIN": origin}
    if key_file:
        config["KEY_FILE"] = key_file
    app = create_app(config)
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield ServedLog(f"http://127.0.0.1:{http.server_port}", app)
    finally:
        http.shutdown()
        app.extensions["arbiter"].app.close()
