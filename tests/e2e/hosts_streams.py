"""Live streams read across several hosts (test_several_hosts.py): subscribers, each a thread on one connection.

A `Subscriber` reads `GET /api/v1/games/{id}/stream` of one game with one viewer's token (a seat's, the referee's, or
none: a spectator) from one host, over a plain socket (HTTP/1.0: the body is the event stream itself, ended by the
server closing it), and keeps every message's id and data. When its connection ends without the game's end (the
host died, or the server ended the stream) it connects again, to the same host while it answers, else to the next
host of the rotation, with `Last-Event-ID` = the last id it received. `Streams` starts subscribers on the games the
clients play and stops them at the end.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from itertools import count

from .hosts_support import API, RETRY_SECONDS, Host, Rotation

READ_SLICE = 0.5        # a read waits this long before looking at the stop flag again
SETTLE_SECONDS = 8.0    # after the clients stop, how long subscribers get to receive the last entries


class Subscriber:
    """One viewer's live stream of one game, reconnecting with Last-Event-ID (see the module)."""

    def __init__(self, rotation: Rotation, game_id: str, token: str | None, role: str, start: int, host: Host):
        self.rotation, self.game_id, self.token, self.role, self.start = rotation, game_id, token, role, start
        self.host = host                          # the host it is connected (or connecting) to
        self.first_host = host.name
        self.got: list[tuple[int, str, str]] = []  # (id, host name, data JSON text), in the order received
        self.last = start
        self.connects: list[tuple[str, int]] = []  # (host name, the Last-Event-ID it sent)
        self.lost: list[str] = []                 # hosts whose connection ended before the game did
        self.ended = False                        # the server closed the stream after the game's end (its seed)
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._live = False                        # the current connection answered 200
        self.thread = threading.Thread(target=self._run, name=f"subscriber-{role}", daemon=True)

    def __repr__(self) -> str:
        return f"{self.role} subscriber of game {self.game_id} (first on host {self.first_host})"

    def begin(self, wait: float = 10.0) -> "Subscriber":
        """Start reading; returns once the first connection answered 200 (or after `wait`)."""
        self.thread.start()
        self._connected.wait(wait)
        return self

    def halt(self) -> None:
        """Ask the reading thread to stop (it looks every READ_SLICE)."""
        self._stop.set()

    def stop(self) -> None:
        self.halt()
        self.thread.join(timeout=READ_SLICE * 4 + 5)

    def received(self) -> list[tuple[int, dict]]:
        return [(version, json.loads(data)) for version, _, data in self.got]

    def _run(self) -> None:
        deadline = None  # while no host answers, since when
        try:
            while not self._stop.is_set() and not self.ended:
                try:
                    self._read(self.host)
                    deadline = None
                    if self._live and not self.ended and not self._stop.is_set():
                        self.lost.append(self.host.name)
                except OSError as e:  # refused, reset: the host is gone; the next one of the rotation
                    if self._live:
                        self.lost.append(self.host.name)
                        self._live = False
                    if deadline is None:
                        deadline = time.monotonic() + RETRY_SECONDS
                    elif time.monotonic() > deadline:
                        self.errors.append(f"no host answered the stream: {type(e).__name__}: {e}")
                        return
                    self.host = self._other(self.host)
                    time.sleep(0.05)
        except BaseException as e:  # reported by the tests
            self.errors.append(f"{type(e).__name__}: {e}")

    def _other(self, host: Host) -> Host:
        for _ in range(8):
            other = self.rotation.next()
            if other is not host:
                return other
        return host

    def _read(self, host: Host) -> None:
        """One connection: read messages until the server closes it or the subscriber is stopped."""
        self._live = False
        with socket.create_connection(("127.0.0.1", host.port), timeout=5) as sock:
            auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
            sock.sendall((f"GET {API}/games/{self.game_id}/stream HTTP/1.0\r\nHost: arbiter\r\n"
                          f"Accept: text/event-stream\r\n{auth}Last-Event-ID: {self.last}\r\n\r\n").encode())
            sock.settimeout(READ_SLICE)
            buffer, head = b"", None
            while not self._stop.is_set():
                try:
                    chunk = sock.recv(65536)
                except socket.timeout:
                    continue
                if not chunk:
                    return  # closed by the server (or by the host's death)
                buffer += chunk
                if head is None:
                    if b"\r\n\r\n" not in buffer:
                        continue
                    head, buffer = buffer.split(b"\r\n\r\n", 1)
                    status = head.split(b"\r\n", 1)[0]
                    if b" 200 " not in status + b" ":
                        raise AssertionError(f"{self} on {host}: {status!r} {buffer[:300]!r}")
                    self.connects.append((host.name, self.last))
                    self._live = True
                    self._connected.set()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self._message(block.decode(), host)

    def _message(self, block: str, host: Host) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value[1:] if value.startswith(" ") else value
        if "id" in fields and "data" in fields:
            version = int(fields["id"])
            self.got.append((version, host.name, fields["data"]))
            self.last = version
            if json.loads(fields["data"])["type"] == "seed_revealed":
                self.ended = True


class Streams:
    """The subscribers of a run: a seat, the referee and a spectator of each watched game, on three different hosts."""

    def __init__(self, rotation: Rotation):
        self.rotation = rotation
        self.subscribers: list[Subscriber] = []
        self.watched: set[str] = set()
        self._turn = count()

    def watch(self, game_id: str, tokens: list[str], referee: str) -> list[Subscriber]:
        """Subscribe a seat, the referee and a spectator from the game's current version, each on another host."""
        status, view, _ = self.rotation.request("GET", f"/games/{game_id}/view", referee)
        assert status == 200, f"view of {game_id}: {status} {view}"
        turn = next(self._turn)
        hosts = list(self.rotation.hosts)
        viewers = [(f"seat {turn % len(tokens)}", tokens[turn % len(tokens)]), ("referee", referee), ("spectator", None)]
        subs = [Subscriber(self.rotation, game_id, token, role, view["version"], hosts[(turn + i) % len(hosts)])
                for i, (role, token) in enumerate(viewers)]
        self.watched.add(game_id)
        self.subscribers += subs
        for sub in subs:
            sub.begin()
        return subs

    def settle(self, logs_of) -> None:
        """Wait (up to SETTLE_SECONDS) until every subscriber holds as many entries as its log has now, then stop all.
        `logs_of(subscriber)` is GET /events?after=<its start> with its token."""
        deadline = time.monotonic() + SETTLE_SECONDS
        waiting = list(self.subscribers)
        while waiting and time.monotonic() < deadline:
            waiting = [s for s in waiting if not s.ended and len(s.got) < len(logs_of(s))]
            if waiting:
                time.sleep(0.25)
        self.stop()

    def stop(self) -> None:
        for sub in self.subscribers:
            sub.halt()
        for sub in self.subscribers:
            sub.stop()
