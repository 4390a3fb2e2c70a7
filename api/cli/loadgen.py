"""The load generator (`arbiter simulate --server URL --clients C`): bots play whole games against a running arbiter.

Each of C client threads takes the next game of the plan, creates it (POST /games, with the plan's
seed for that game and players named after their bots, as in self-play), and plays it to the end:
GET the view of the seat to act with that seat's token, let the seat's bot choose from that view
(the very data a person at the seat gets), POST the move (a PlayMove's body) with `expected_version`. Meanwhile one
more connection per game follows the game's server-sent event stream as a spectator, and the
delay between a move's answer and the stream delivering that version is measured. Since the
games, seeds and bots are the plan's, a game played here is the same game as in self-play.

Measured per kind of request (create, view, move) and for the stream: count, latency percentiles
(from sending a request to having read its answer), and errors by kind (an HTTP status, a
connection failure, a stream that did not deliver a version). Only the standard library speaks
HTTP here, one keep-alive connection per client.
"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import click
from rich.console import Console
from rich.table import Table

from domain import json_limits
from bots import SeatView, make_bot

from service.play.commands import PlayMove, RecordMove

from .progress import games_progress

API = "/api/v1"
TIMEOUT = 30.0


class RemoteError(RuntimeError):
    """A request that failed: `kind` is how it is counted (e.g. `HTTP 422 move`, `connection`)."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


@dataclass
class Stats:
    """Latencies (seconds) by kind and errors by kind, shared by the client threads."""

    latency: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    games: dict[int, str] = field(default_factory=dict)  # plan index -> id of each game played to the end
    moves: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def time(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(seconds)

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] = self.errors.get(kind, 0) + 1


class Client:
    """One keep-alive connection to the server, JSON in and out, each request timed."""

    def __init__(self, base: str, stats: Stats):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.stats = stats
        self.conn: http.client.HTTPConnection | None = None

    def call(self, kind: str, method: str, path: str, body: Any = None, token: str | None = None) -> dict:
        """The JSON answer of one request; raises RemoteError (and counts it)."""
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
            self.conn.request(method, self.prefix + API + path, data, headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as e:
            self.close()
            self.stats.error("connection")
            raise RemoteError("connection", str(e)) from None
        self.stats.time(kind, time.perf_counter() - start)
        if response.status >= 400:
            self.stats.error(f"HTTP {response.status} {kind}")
            raise RemoteError(f"HTTP {response.status} {kind}", raw[:200].decode(errors="replace"))
        try:  # a server's answer, read within the JSON bounds
            return json_limits.read_document(raw)
        except json_limits.LimitError as e:
            self.stats.error(f"unreadable {kind}")
            raise RemoteError(f"unreadable {kind}", str(e)[:200]) from None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class StreamWatch(threading.Thread):
    """Follows a game's event stream as a spectator, reconnecting with Last-Event-ID as a browser does; notes when
    each version arrived."""

    def __init__(self, client: Client, game_id: str):
        super().__init__(daemon=True)
        self.client, self.game_id = client, game_id
        self.arrived: dict[int, float] = {}
        self.done = threading.Event()

    def run(self) -> None:
        """Read the stream; when the server ends it (STREAM_SECONDS) before the game's end, reconnect from the last id."""
        while not self.done.is_set():
            if self._follow():
                return

    def _follow(self) -> bool:
        """One connection's worth of the stream; True once the game's end was seen (or the stream failed)."""
        conn = http.client.HTTPConnection(self.client.host, self.client.port, timeout=TIMEOUT)
        headers = {"Accept": "text/event-stream"}
        if self.arrived:
            headers["Last-Event-ID"] = str(max(self.arrived))
        try:
            conn.request("GET", f"{self.client.prefix}{API}/games/{self.game_id}/stream", headers=headers)
            response = conn.getresponse()
            if response.status != 200:
                self.client.stats.error(f"HTTP {response.status} stream")
                return True
            while not self.done.is_set():
                line = response.fp.readline()
                if not line:
                    return False  # the server closed this stream: reconnect
                if line.startswith(b"id: "):
                    self.arrived[int(line[4:].strip())] = time.perf_counter()
                elif line.startswith(b"event: seed_revealed"):
                    return True
            return True
        except (OSError, http.client.HTTPException, ValueError):
            self.client.stats.error("stream connection")
            return True
        finally:
            conn.close()


def play_remote(client: Client, plan, index: int) -> str:
    """Create game `index` of the plan on the server and let its bots play it; its id. Raises RemoteError."""
    players = plan.players_of(index)
    created = client.call("create", "POST", "/games", {"game": plan.game, "options": plan.options, "players": players,
                                                       "seed": plan.game_seed(index)})
    gid = created["id"]
    tokens = [s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
    bots = [make_bot(kind, plan.game, seat, plan.bot_rng(index, seat), plan.heuristic)
            for seat, kind in enumerate(plan.lineup(index))]
    watch = StreamWatch(client, gid)
    watch.start()
    answered: dict[int, float] = {}
    seat, idle, moves = 0, 0, 0
    try:
        while moves < plan.max_moves:
            view = client.call("view", "GET", f"/games/{gid}/view", token=tokens[seat])
            if view["status"] == "finished":
                break
            legal = view["table"].get("legal_moves")
            if not legal:  # not this seat's turn: ask the seat the table names, else the next one
                idle += 1
                if idle > len(tokens):
                    raise RemoteError("no seat may move", f"game {gid} is in progress but no seat has a legal move")
                to_act = view["table"].get("to_act")
                seat = to_act if isinstance(to_act, int) and to_act != seat else (seat + 1) % len(tokens)
                continue
            idle = 0
            move = bots[seat].choose(SeatView.from_http(view))
            command = PlayMove(gid, RecordMove({k: v for k, v in move.items() if k != "seat"}), expected_version=view["version"])
            answer = client.call("move", "POST", f"/games/{gid}/moves", command.as_body(), tokens[seat])
            answered[answer["version"]] = time.perf_counter()
            moves += 1
        with client.stats.lock:
            client.stats.moves += moves
    finally:
        watch.join(timeout=5.0)
        watch.done.set()
    for version, at in answered.items():
        if version in watch.arrived:
            client.stats.time("stream delay", max(0.0, watch.arrived[version] - at))
        else:
            client.stats.error("stream missed a version")
    return gid


def load(plan, server: str, clients: int, advance=None) -> tuple[Stats, float]:
    """Play every game of the plan against `server` with `clients` threads; (stats, wall seconds)."""
    stats = Stats()
    counter = iter(range(plan.games))
    lock = threading.Lock()

    def worker() -> None:
        client = Client(server, stats)
        while True:
            with lock:
                index = next(counter, None)
            if index is None:
                break
            try:
                gid = play_remote(client, plan, index)
                with stats.lock:
                    stats.games[index] = gid
            except RemoteError:
                pass  # counted where it happened; the next game goes on
            if advance:
                advance(1)
        client.close()

    start = time.perf_counter()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(clients, plan.games))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return stats, time.perf_counter() - start


def summary(stats: Stats, seconds: float) -> dict:
    """The run in numbers: per kind count, rate and latency percentiles (ms); errors; games and moves."""
    kinds = {}
    for kind, values in sorted(stats.latency.items()):
        values = sorted(values)
        q = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else values * 99
        kinds[kind] = {"count": len(values), "per_s": len(values) / seconds, "p50_ms": 1000 * q[49],
                       "p90_ms": 1000 * q[89], "p99_ms": 1000 * q[98], "max_ms": 1000 * values[-1]}
    return {"seconds": seconds, "games": len(stats.games), "moves": stats.moves, "moves_per_s": stats.moves / seconds,
            "requests": kinds, "errors": dict(sorted(stats.errors.items()))}


def load_command(plan, server: str, clients: int, as_json: bool = False) -> dict:
    """`arbiter simulate --server`: run, print the latency table (or JSON), exit 1 if any request failed."""
    console = Console(stderr=True)
    try:
        probe = Client(server, Stats())
        probe.call("health", "GET", "/health")
        probe.close()
    except (RemoteError, ValueError) as e:
        raise click.BadParameter(f"no arbiter answers at {server}: {e}", param_hint="--server") from None
    with games_progress(console) as bar:
        task = bar.add_task(f"{plan.game} × {plan.players} against {server}, {clients} clients", total=plan.games)
        stats, seconds = load(plan, server, clients, lambda k: bar.advance(task, k))
    result = summary(stats, seconds)
    if as_json:
        click.echo(json.dumps(result))
    else:
        _print(result, Console())
    if result["errors"]:
        raise SystemExit(1)
    return result


def _print(result: dict, console: Console) -> None:
    table = Table(title=f"{result['games']} games, {result['moves']} moves in {result['seconds']:.1f} s "
                        f"({result['moves_per_s']:.0f} moves/s)", title_justify="left")
    for col in ("request", "count", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms"):
        table.add_column(col, justify="left" if col == "request" else "right")
    for kind, r in result["requests"].items():
        table.add_row(kind, str(r["count"]), f"{r['per_s']:.0f}", f"{r['p50_ms']:.1f}", f"{r['p90_ms']:.1f}",
                      f"{r['p99_ms']:.1f}", f"{r['max_ms']:.1f}")
    console.print(table)
    errors = result["errors"]
    console.print("errors: " + (", ".join(f"{k}: {v}" for k, v in errors.items()) if errors else "none"))
