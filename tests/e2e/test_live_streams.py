"""Live streams through the real server (`arbiter serve`: uvicorn workers, streams on the event loop, one
follower of the store per process): each viewer's stream is its event log, in order, with nothing hidden;
a resumed stream loses nothing; many open streams leave the server free; an event written through one
server process reaches the subscribers of another (SQLite file, and PostgreSQL's LISTEN/NOTIFY when
ARBITER_TEST_POSTGRES_URL is set).

The game is the stacked team game of tests/integration/test_api_game.py: four cards drawn (AC by West, AD
by East, AH and AS by South), none of them played, and a win for North and South at the last move.
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
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.integration.api_support import TEAMS_NSEW, cards_in, players
from tests.integration.test_api_game import AFTER_B2, DRAWS, HANDS, NORTH, PLAN, WEST
from tests.support import drop_store_schema, stacked_deck

ROOT = Path(__file__).resolve().parents[2]
ARBITER = ROOT / ".venv" / "bin" / "arbiter"
BOOT_TIMEOUT = 30.0
WAIT = 15.0
SERVING = re.compile(r"arbiter is serving on http://127\.0\.0\.1:(\d+)/")


class Server:
    """`arbiter serve --port 0` on a store: the port is read from the address it prints once bound."""

    def __init__(self, url: str, workdir: Path, workers: int = 2):
        self.log = open(workdir / f"server-{uuid.uuid4().hex[:6]}.log", "w+")
        self.process = subprocess.Popen([str(ARBITER), "serve", "--port", "0", "--database-url", url, "--workers", str(workers)],
                                        stdout=self.log, stderr=subprocess.STDOUT, cwd=workdir)
        deadline = time.monotonic() + BOOT_TIMEOUT
        self.port = None
        while self.port is None:
            self.log.seek(0)
            found = SERVING.search(self.log.read())
            if found:
                self.port = int(found.group(1))
            elif self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                self.log.seek(0)
                pytest.fail(f"arbiter serve did not say where it serves:\n{self.log.read()}")
            else:
                time.sleep(0.1)
        while True:  # bound first, then the workers come up
            try:
                if self.call("GET", "/api/v1/health")["status"] == "ok":
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("arbiter serve did not answer /api/v1/health")
                time.sleep(0.1)

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method, headers=headers,
                                         data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.seek(0)
        text = self.log.read()
        self.log.close()
        assert "Traceback" not in text and "[ERROR]" not in text, text[-3000:]


class Stream:
    """One open GET .../stream, read by a thread: the (id, event, data) messages so far, and the raw text."""

    def __init__(self, port: int, game: str, token: str | None, last_event_id: int | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", f"/api/v1/games/{game}/stream", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200 and self.response.getheader("Content-Type").startswith("text/event-stream")
        self.messages: list[dict] = []
        self.text = ""
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        fields: dict = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                self.text += raw.decode()
                if not line:
                    if "data" in fields:
                        self.messages.append({"id": int(fields["id"]), "event": fields["event"], "data": json.loads(fields["data"])})
                    fields = {}
                elif not line.startswith(":") and ":" in line:
                    name, _, value = line.partition(":")
                    fields[name] = value.lstrip(" ")
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed by the test (http.client races its own close)
            pass
        finally:
            self.ended.set()

    def wait_for(self, version: int) -> None:
        deadline = time.monotonic() + WAIT
        while not any(m["id"] >= version for m in self.messages):
            assert time.monotonic() < deadline, f"the stream did not deliver version {version}: {[m['id'] for m in self.messages]}"
            time.sleep(0.02)

    def close(self) -> None:
        self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()
        self.ended.wait(WAIT)


def create_team_game(server: Server) -> dict:
    body = {"game": "el-royale", "options": {"edition": "revised"}, "players": players(4, TEAMS_NSEW), "seed": "00ff",
            "deck": stacked_deck(HANDS, 0, DRAWS), "dealer": 0, "starter": WEST}
    return server.call("POST", "/api/v1/games", body)


def play(server: Server, game: dict, moves) -> int:
    version = None
    for seat, move in moves:
        version = server.call("POST", f"/api/v1/games/{game['id']}/moves", move, game["seats"][seat]["token"])["version"]
    return version


def log_of(server: Server, game: dict, token: str | None, after: int = 0) -> list[dict]:
    return server.call("GET", f"/api/v1/games/{game['id']}/events?after={after}", token=token)


def entries(stream: Stream, upto: int | None = None) -> list[tuple[int, str, dict]]:
    return [(m["id"], m["event"], m["data"]) for m in stream.messages if upto is None or m["id"] <= upto]


def as_log(log: list[dict]) -> list[tuple[int, str, dict]]:
    return [(e["version"], e["type"], e) for e in log]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    workdir = tmp_path_factory.mktemp("live")
    s = Server(f"sqlite:///{workdir / 'live.db'}", workdir)
    yield s
    s.stop()


def test_each_viewer_s_live_stream_is_its_event_log_in_order_and_shows_no_hidden_card(server):
    game = create_team_game(server)
    viewers = {f"seat {k}": s["token"] for k, s in enumerate(game["seats"])}
    viewers |= {"referee": game["referee_token"], "spectator": None}
    streams = {name: Stream(server.port, game["id"], token) for name, token in viewers.items()}
    before_end = play(server, game, PLAN[:-1])
    for name, stream in streams.items():
        stream.wait_for(before_end)
        assert entries(stream) == as_log(log_of(server, game, viewers[name])), name  # redacted exactly like the log
    for name in ("seat 0", "spectator"):  # North never draws, and no drawn card is played before the end
        assert not cards_in(streams[name].text) & set(DRAWS), name
        assert all("card" not in m["data"]["data"] for m in streams[name].messages if m["event"] == "drew")
    east_draw = [m["data"]["data"] for m in streams["seat 1"].messages if m["event"] == "drew"]
    assert {"seat": 1, "card": "AD"} in east_draw and all(d.get("card") in (None, "AD") for d in east_draw)

    final = play(server, game, PLAN[-1:])
    for name, stream in streams.items():
        assert stream.ended.wait(WAIT), f"{name}: the stream goes on after the revealed seed"
        assert entries(stream)[-1][1] == "seed_revealed"
        # the last move's events and the seed, disclosed to everyone as the log after that version shows them
        assert entries(stream) == entries(stream, before_end) + as_log(log_of(server, game, viewers[name], before_end)), name
        assert entries(stream)[-1][0] == final


def test_a_stream_resumed_with_last_event_id_loses_nothing(server):
    game = create_team_game(server)
    north = game["seats"][NORTH]["token"]
    first = Stream(server.port, game["id"], north)
    version = play(server, game, PLAN[:5])
    first.wait_for(version)
    first.close()
    last_id = first.messages[-1]["id"]
    play(server, game, PLAN[5:AFTER_B2])  # while nobody listens
    second = Stream(server.port, game["id"], north, last_event_id=last_id)
    version = play(server, game, PLAN[AFTER_B2:-1])
    second.wait_for(version)
    assert second.messages[0]["id"] == last_id + 1
    assert entries(first) + entries(second) == as_log(log_of(server, game, north))
    second.close()


def test_two_hundred_open_streams_leave_a_trivial_request_and_a_move_free(server):
    game = create_team_game(server)
    socks = []
    try:
        for i in range(200):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
            token = game["seats"][i % 4]["token"]
            sock.sendall(f"GET /api/v1/games/{game['id']}/stream HTTP/1.0\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
            socks.append(sock)
        for sock in socks[:: 20]:
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        assert server.call("GET", "/api/v1/health")["status"] == "ok"
        assert time.monotonic() - started < 2.0, "a health check waited behind the open streams"
        watcher = Stream(server.port, game["id"], None)
        version = play(server, game, PLAN[:1])
        watcher.wait_for(version)
        watcher.close()
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_an_event_written_through_one_server_process_reaches_the_subscribers_of_another(store, tmp_path):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    schema = None
    if store == "postgres":
        base = os.environ.get("ARBITER_TEST_POSTGRES_URL")
        if not base:
            pytest.skip("ARBITER_TEST_POSTGRES_URL is not set")
        schema = f"arbiter_live_{uuid.uuid4().hex[:10]}"
        url = f"{base}{'&' if '?' in base else '?'}schema={schema}"
        from service.play.referee import Referee

        Referee(url).close()  # the tables exist before two servers boot on them
    else:
        url = f"sqlite:///{tmp_path / 'shared.db'}"
    writer, reader = Server(url, tmp_path, workers=1), Server(url, tmp_path, workers=1)
    try:
        game = create_team_game(writer)
        streams = [Stream(reader.port, game["id"], token) for token in (game["seats"][1]["token"], None)]
        version = play(writer, game, PLAN[:AFTER_B2])
        for stream, token in zip(streams, (game["seats"][1]["token"], None)):
            stream.wait_for(version)
            assert entries(stream) == as_log(log_of(writer, game, token))
            stream.close()
    finally:
        writer.stop()
        reader.stop()
        if schema:
            import psycopg
            from psycopg import sql

            with psycopg.connect(os.environ["ARBITER_TEST_POSTGRES_URL"].split("?", 1)[0], autocommit=True) as conn:
                drop_store_schema(conn, schema)
