"""First start (issue 23): `arbiter serve` with 2 workers on a NEW store answers its very first requests.

The server is started on a store that does not exist yet (a SQLite file in a new directory; a new PostgreSQL schema
of the database named by ARBITER_TEST_POSTGRES_URL, skipped without it), and REQUESTS requests are sent at once as
soon as the port accepts connections, while both workers are still booting: the lobby page, the games list, game
creations and the tournaments list (the catalogue and the standings read models create their tables on these).
Each answer must be the expected success (no 5xx), and the server's log must hold no traceback and no error.
This is done STARTS times a store kind, each time on a fresh store, as the race depends on timing.

Before the fix, on SQLite most starts answered some of these requests 500 (`IntegrityError: Failed to record
tracking for __migration__ 1`, or `database is locked`, in the read models' table creation).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest

from tests.support import drop_store_schema

ROOT = Path(__file__).resolve().parents[2]
ARBITER = ROOT / ".venv" / "bin" / "arbiter"
POSTGRES_ENV = "ARBITER_TEST_POSTGRES_URL"

STARTS = 3             # fresh stores a kind
REQUESTS = 20          # sent at once as soon as the port accepts
PORT_TIMEOUT = 30.0    # seconds for the port to accept
REQUEST_TIMEOUT = 60.0  # a request without an answer fails the test
SPEC = {"game": "el-royale", "options": {"edition": "revised"}, "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}
# (method, path, body, expected status): the lobby page, the catalogue, creations, the standings
KINDS = [("GET", "/", None, 200), ("GET", "/api/v1/games", None, 200), ("POST", "/api/v1/games", SPEC, 201),
         ("GET", "/api/v1/tournaments", None, 200)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def send(port: int, method: str, path: str, body: dict | None) -> int | str:
    """The answer's status, or what went wrong as text."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        head = {"Accept": "text/html" if path == "/" else "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            head["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=head)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except Exception as e:  # noqa: BLE001 - reported by the test
        return f"{type(e).__name__}: {e}"
    finally:
        conn.close()


def first_requests(url: str, workdir: Path) -> tuple[list[tuple[str, str, int | str]], str]:
    """Start the server on `url`, send REQUESTS at once as soon as the port accepts; (method, path, answer) each, and
    the server's log."""
    port = free_port()
    log_path = workdir / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([str(ARBITER), "serve", "--workers", "2", "--port", str(port), "--database-url", url],
                                cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + PORT_TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server never accepted on port {port}:\n{log_path.read_text(errors='replace')}")
                time.sleep(0.01)
        answers: list = [None] * REQUESTS
        go = threading.Barrier(REQUESTS)

        def one(i: int) -> None:
            method, path, body, _ = KINDS[i % len(KINDS)]
            go.wait(timeout=30)
            answers[i] = (method, path, send(port, method, path, body))

        threads = [threading.Thread(target=one, args=(i,)) for i in range(REQUESTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=REQUEST_TIMEOUT + 30)
        time.sleep(0.3)  # what the workers log about the last answers
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    return answers, log_path.read_text(errors="replace")


@pytest.fixture(params=["sqlite", "postgres"])
def fresh_store(request, tmp_path):
    """A function giving the URL of a new store each call (PostgreSQL: a new schema, dropped afterwards)."""
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    if request.param == "sqlite":
        yield lambda n: f"sqlite:///{tmp_path / f'start-{n}' / 'arbiter.db'}"
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    schemas: list[str] = []

    def make(n: int) -> str:
        schemas.append(f"arbiter_first_{uuid.uuid4().hex[:12]}")
        return f"{base}{'&' if '?' in base else '?'}schema={schemas[-1]}"

    try:
        yield make
    finally:
        import psycopg
        from psycopg import sql

        with psycopg.connect(base.split("?", 1)[0], autocommit=True, connect_timeout=10) as conn:
            for schema in schemas:
                drop_store_schema(conn, schema)


def test_two_workers_on_a_new_store_answer_their_first_requests(fresh_store, tmp_path):
    problems = []
    for n in range(STARTS):
        workdir = tmp_path / f"start-{n}"
        workdir.mkdir()
        answers, log = first_requests(fresh_store(n), workdir)
        expected = {(method, path): status for method, path, _, status in KINDS}
        wrong = [a for a in answers if a is None or a[2] != expected[a[:2]]]
        server_errors = [a for a in answers if a is not None and isinstance(a[2], int) and a[2] >= 500]
        if wrong or server_errors:
            problems.append(f"start {n}: {len(wrong)} of {REQUESTS} answers wrong "
                            f"({len(server_errors)} 5xx): {dict(Counter(wrong))}")
        if "Traceback" in log or "[ERROR]" in log or re.search(r"unexpected \S+ in a request", log):
            problems.append(f"start {n}: the server logged an error:\n{log[-3000:]}")
    assert not problems, "\n".join(problems)
