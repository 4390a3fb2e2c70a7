"""Real HTTP against `arbiter serve --workers 2` on PostgreSQL: concurrent clients racing on the same games.

One gunicorn server (two worker processes, so the per-game lock of one process does not cover
every writer: only the store's version check does) on a fresh schema of the database named by
ARBITER_TEST_POSTGRES_URL (skipped without it). Client threads, using only http.client, play
several games at once:

- ``free`` games: four clients each loop GET referee view (whose turn) -> GET that seat's view ->
  POST its first legal move; half of them send ``expected_version``. They race with stale views.
- ``dup`` games: three clients send the very same move at the same moment (a barrier), every
  other round with ``expected_version``: one is applied, the others get 422 ER-3.0 or 409.
- ``key`` games: two clients send the same move with the same ``Idempotency-Key`` at the same
  moment, then one sends it once more: one move, three identical acknowledgements.

Afterwards, per game, from GET /events (referee) and GET /audit/verify: the versions are 1..N,
the chain verifies, every acknowledged move (a 200's first event and version) is in the log
exactly once, no two requests were told they made the same move, and the log has exactly as
many player moves as there are distinct acknowledged moves.
"""

from __future__ import annotations

import http.client
import json
import os
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

BOOT_TIMEOUT = 30.0       # seconds for the server to answer /health
RACE_SECONDS = 25.0       # the clients stop starting new moves after this
REQUEST_TIMEOUT = 30.0    # a request without an answer is an error (its outcome would be unknown)
MAX_VERSION = 140         # a game's clients stop here (past the snapshot at 100, rejected attempts count too)
PLAYERS = 3
GAMES = {"free": 2, "dup": 2, "key": 2}
FREE_CLIENTS, DUP_CLIENTS = 4, 3

pytestmark = pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")


# -- HTTP --------------------------------------------------------------------------------------------------------------


class Client:
    """Blocking JSON calls to the server, one fresh connection per request (no keep-alive surprises on a POST)."""

    def __init__(self, port: int):
        self.port = port

    def call(self, method: str, path: str, token: str | None = None, body: dict | None = None,
             headers: dict | None = None) -> tuple[int, dict | list]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        try:
            head = {"Accept": "application/json", **(headers or {})}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                head["Content-Type"] = "application/json"
            if token:
                head["Authorization"] = f"Bearer {token}"
            conn.request(method, f"/api/v1{path}", body=data, headers=head)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, (json.loads(raw) if raw else {})
        finally:
            conn.close()

    def ok(self, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict | list:
        status, answer = self.call(method, path, token, body)
        if status >= 300:
            raise AssertionError(f"{method} {path}: {status} {answer}")
        return answer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the server --------------------------------------------------------------------------------------------------------


def worker_pids(master: int) -> list[int]:
    """The gunicorn workers: the master's children, read from /proc (empty where /proc is not available)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == master:
            pids.append(int(stat.parent.name))
    return sorted(pids)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process, or None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """`arbiter serve --workers 2` on its own schema; stopped and the schema dropped by `stop`."""

    def __init__(self, base_url: str, tmp: Path):
        self.base = base_url.split("?", 1)[0]
        self.schema = f"arbiter_e2e_{uuid.uuid4().hex[:12]}"
        self.url = f"{base_url}{'&' if '?' in base_url else '?'}schema={self.schema}"
        self.port = free_port()
        self.log_path = tmp / "server.log"
        self.proc: subprocess.Popen | None = None
        self.boot_log = ""

    def start(self) -> None:
        """Start the server and wait for both workers; one more try if a worker crashed while booting.

        Two workers booting at once on a fresh schema can race on creating it; gunicorn then shuts
        the whole server down ("Worker failed to boot"). That is recorded in `boot_failures`
        (see test_two_workers_boot_on_a_fresh_schema_without_a_crash) and the server is started again,
        on the now existing schema, so that the race itself is still tested.
        """
        self.boot_failures: list[str] = []
        for attempt in range(2):
            self.proc = self._spawn()
            failure = self._wait_until_up()
            if failure is None:
                break
            self.boot_failures.append(failure)
            if attempt == 1 or "Worker failed to boot" not in failure:
                raise AssertionError(failure)
        time.sleep(0.5)
        self.boot_log = "\n".join(self.boot_failures + [self.log()])

    def _spawn(self) -> subprocess.Popen:
        with open(self.log_path, "wb") as log:
            return subprocess.Popen([str(ARBITER), "serve", "--workers", "2", "--port", str(self.port),
                                     "--database-url", self.url], cwd=self.log_path.parent,
                                    stdout=log, stderr=subprocess.STDOUT)

    def _wait_until_up(self) -> str | None:
        """None once /health answers and both workers run; else what went wrong (the server has exited)."""
        client, deadline = Client(self.port), time.monotonic() + BOOT_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                return f"the server exited with {self.proc.returncode}:\n{self.log()}"
            try:
                if client.call("GET", "/health")[0] == 200 and (len(worker_pids(self.proc.pid)) >= 2
                                                                 or not Path("/proc/self").exists()):
                    time.sleep(0.3)  # a worker that crashed while booting takes the master down within this
                    if self.proc.poll() is None:
                        return None
                    continue
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.proc.kill()
                self.proc.wait()
                return f"the server did not answer /health within {BOOT_TIMEOUT:.0f} s:\n{self.log()}"
            time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.base, autocommit=True, connect_timeout=10) as conn:
            drop_store_schema(conn, self.schema)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    srv = Server(os.environ[POSTGRES_ENV], tmp_path_factory.mktemp("gunicorn"))
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


# -- the clients -------------------------------------------------------------------------------------------------------


def first_legal(seat_view: dict) -> dict | None:
    """The first entry of the seat's legal_moves as a request body (a take summary becomes a concrete take)."""
    legal = seat_view["table"].get("legal_moves") or []
    if not legal:
        return None
    move = dict(legal[0])
    if move["type"] == "take" and "from" in move:
        move = {"type": "take", "cards": move["from"][: move["max"]]}
    return move


class Game:
    """A game under test: its tokens and every answer its clients got."""

    def __init__(self, kind: str, created: dict):
        self.kind = kind
        self.id = created["id"]
        self.referee = created["referee_token"]
        self.tokens = [s["token"] for s in created["seats"]]
        self.lock = threading.Lock()
        self.answers: list[dict] = []   # {"seat", "status", "body", "sent", "key"?}
        self.rounds: list[dict] = []    # dup/key games: one entry per simultaneous send

    def record(self, seat: int, status: int, body, sent: dict, key: str | None = None) -> dict:
        entry = {"seat": seat, "status": status, "body": body, "sent": sent, "key": key}
        with self.lock:
            self.answers.append(entry)
        return entry

    def acknowledged(self) -> list[dict]:
        return [a for a in self.answers if a["status"] == 200]


class Race:
    """Runs every game's clients until the games reach MAX_VERSION, end, or time is up."""

    def __init__(self, client: Client):
        self.client = client
        self.deadline = time.monotonic() + RACE_SECONDS
        self.errors: list[str] = []
        self.games: list[Game] = []

    def create_games(self) -> None:
        n = 0
        for kind, count in GAMES.items():
            for _ in range(count):
                spec = {"game": "el-royale", "options": {"edition": "revised"},
                        "players": [{"name": f"P{k}"} for k in range(PLAYERS)], "seed": f"e2e{n:05x}"}
                self.games.append(Game(kind, self.client.ok("POST", "/games", body=spec)))
                n += 1

    def running(self, game: Game) -> tuple[bool, dict]:
        """Whether a game's clients go on, and the referee's view of it."""
        view = self.client.ok("GET", f"/games/{game.id}/view", game.referee)
        going = time.monotonic() < self.deadline and view["status"] == "in_progress" and view["version"] < MAX_VERSION
        return going and not self.errors, view

    def to_act(self, game: Game) -> tuple[int, dict, dict] | None:
        """The seat to act, the move it would play (its first legal one) and the referee's view; None to stop."""
        while True:
            going, view = self.running(game)
            if not going:
                return None
            seat = view["table"]["to_act"]
            move = first_legal(self.client.ok("GET", f"/games/{game.id}/view", game.tokens[seat]))
            if move is not None:
                return seat, move, view
            # another client moved between the two views: the seat is no longer to act; look again

    def post(self, game: Game, seat: int, move: dict, key: str | None = None) -> dict:
        headers = {"Idempotency-Key": key} if key else None
        status, body = self.client.call("POST", f"/games/{game.id}/moves", game.tokens[seat], move, headers)
        # 429: a refusal past the seat's bound on refused attempts (20 a minute, docs/api.md "Limits"): a racing seat
        # whose moves keep arriving after the turn has passed meets it; nothing is kept, as for the 409
        if status not in (200, 409, 422) and not (status == 429 and "refused" in str(body.get("detail", ""))):
            raise AssertionError(f"POST move {move} for seat {seat}: {status} {body}")
        return game.record(seat, status, body, move, key)

    # each client is one of these loops
    def free_client(self, game: Game, number: int) -> None:
        while (turn := self.to_act(game)) is not None:
            seat, move, view = turn
            if number % 2:
                move = dict(move, expected_version=view["version"])
            self.post(game, seat, move)

    def dup_client(self, game: Game, number: int, barrier: threading.Barrier, shared: dict) -> None:
        rnd = 0
        while True:
            if number == 0:
                shared["turn"] = self.to_act(game)
            barrier.wait()
            turn = shared["turn"]
            if turn is None:
                return
            seat, move, view = turn
            if rnd % 2:
                move = dict(move, expected_version=view["version"])
            self.post(game, seat, move)
            barrier.wait()
            if number == 0:
                game.rounds.append({"seat": seat, "move": move, "entries": list(game.answers[-DUP_CLIENTS:]),
                                    "after": self.client.ok("GET", f"/games/{game.id}/view", game.referee)})
            barrier.wait()
            rnd += 1

    def key_client(self, game: Game, number: int, barrier: threading.Barrier, shared: dict) -> None:
        while True:
            if number == 0:
                turn = self.to_act(game)
                shared["turn"] = turn and (*turn, f"e2e-{uuid.uuid4().hex}")
            barrier.wait()
            turn = shared["turn"]
            if turn is None:
                return
            seat, move, _, key = turn
            entries = [self.post(game, seat, move, key)]
            barrier.wait()
            if number == 0:
                entries.append(self.post(game, seat, move, key))  # the same request once more, after the race
                shared["entries"] = entries
            else:
                shared["other"] = entries
            barrier.wait()
            if number == 0:
                game.rounds.append({"seat": seat, "move": move, "key": key,
                                    "entries": shared["entries"] + shared["other"]})
            barrier.wait()

    def guarded(self, fn, *args, barrier: threading.Barrier | None = None) -> None:
        try:
            fn(*args)
        except threading.BrokenBarrierError:
            pass
        except BaseException as e:  # reported by the test
            self.errors.append(f"{fn.__name__}{args[1:2]}: {type(e).__name__}: {e}")
            if barrier is not None:
                barrier.abort()

    def run(self) -> None:
        threads = []
        for game in self.games:
            if game.kind == "free":
                for i in range(FREE_CLIENTS):
                    threads.append(threading.Thread(target=self.guarded, args=(self.free_client, game, i)))
            else:
                n, fn = (DUP_CLIENTS, self.dup_client) if game.kind == "dup" else (2, self.key_client)
                barrier, shared = threading.Barrier(n, timeout=REQUEST_TIMEOUT * 2), {}
                for i in range(n):
                    threads.append(threading.Thread(target=self.guarded, args=(fn, game, i, barrier, shared),
                                                    kwargs={"barrier": barrier}))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=RACE_SECONDS + 4 * REQUEST_TIMEOUT)
        if any(t.is_alive() for t in threads):
            self.errors.append("a client thread did not finish")


@pytest.fixture(scope="module")
def race(server):
    client = Client(server.port)
    workers = worker_pids(server.proc.pid)
    cpu_before = {pid: cpu_seconds(pid) for pid in workers}
    r = Race(client)
    r.create_games()
    r.run()
    r.workers = workers
    r.cpu = {pid: (cpu_before[pid], cpu_seconds(pid)) for pid in workers}
    r.workers_after = worker_pids(server.proc.pid)
    # the game's own entries; refused attempts (their own stream) sit beside the version they met
    r.logs, r.refusals = {}, {}
    for g in r.games:
        entries = client.ok("GET", f"/games/{g.id}/events", g.referee)
        r.logs[g.id] = [e for e in entries if e["type"] != "move_rejected"]
        r.refusals[g.id] = [e for e in entries if e["type"] == "move_rejected"]
    r.verified = {g.id: client.ok("GET", f"/games/{g.id}/audit/verify") for g in r.games}
    r.views = {g.id: client.ok("GET", f"/games/{g.id}/view", g.referee) for g in r.games}
    r.seconds = time.monotonic() - (r.deadline - RACE_SECONDS)
    for g in r.games:  # shown with pytest -s (or on a failure)
        statuses = Counter((a["status"], a["body"].get("rule") if a["status"] != 200 else None) for a in g.answers)
        print(f"{g.kind} game {g.id}: version {r.views[g.id]['version']} ({r.views[g.id]['status']}), "
              f"{len(g.rounds)} rounds, answers {dict(statuses)}")
    print(f"race: {r.seconds:.1f} s; worker CPU seconds {r.cpu}")
    return r


def is_player_move(entry: dict) -> bool:
    return (entry["actor"] or "").startswith("seat:") and entry["type"] != "move_rejected"


# -- the tests ---------------------------------------------------------------------------------------------------------


def test_the_clients_met_no_unexpected_answer_and_played_enough(race):
    assert not race.errors, "\n".join(race.errors)
    for game in race.games:
        assert len({a["body"]["events"][0]["version"] for a in game.acknowledged()}) >= 5, \
            f"{game.kind} game {game.id} barely moved"


def test_the_versions_are_gapless_and_the_audit_chain_verifies(race):
    for game in race.games:
        log, verified, view = race.logs[game.id], race.verified[game.id], race.views[game.id]
        assert [e["version"] for e in log] == list(range(1, view["version"] + 1))
        assert verified["chain"]["ok"], verified["chain"]
        assert verified["chain"]["length"] == view["version"]
        assert verified["chain"]["head"] == view["chain_head"]


def test_every_acknowledged_move_is_in_the_log_exactly_once(race):
    for game in race.games:
        log = {e["version"]: e for e in race.logs[game.id]}
        first_versions: dict[int, dict] = {}
        fresh = Counter()
        for answer in game.acknowledged():
            body = answer["body"]
            first = body["events"][0]
            stored = log.get(first["version"])
            assert stored is not None, f"acknowledged move at version {first['version']} is not in the log"
            assert stored == first, f"the log's event at version {first['version']} is not the acknowledged one"
            assert stored["actor"] == f"seat:{answer['seat']}" and is_player_move(stored)
            assert body["version"] >= first["version"]
            if not body.get("replayed"):
                fresh[first["version"]] += 1
                mine = body["events"]
                assert all(first["version"] <= e["version"] <= body["version"] for e in mine)
                for e in mine:  # a seat may see redacted data of engine events, but nothing else may differ
                    assert {k: v for k, v in e.items() if k != "data"} == {k: v for k, v in log[e["version"]].items()
                                                                          if k != "data"}
            first_versions.setdefault(first["version"], first)
            assert first_versions[first["version"]] == first
        lost = {v: n for v, n in fresh.items() if n > 1}
        assert not lost, f"{game.kind} game {game.id}: several requests were told they made the move at {lost}"
        moves_in_log = sorted(v for v, e in log.items() if is_player_move(e))
        assert moves_in_log == sorted(first_versions), \
            f"{game.kind} game {game.id}: player moves in the log and acknowledged moves differ"


def test_the_same_move_sent_at_once_is_applied_once_and_the_others_are_refused(race):
    refusals = Counter()
    dup_rounds = [r for g in race.games if g.kind == "dup" for r in g.rounds]
    assert len(dup_rounds) >= 5
    for rnd in dup_rounds:
        entries = rnd["entries"]
        assert len(entries) == DUP_CLIENTS and all(e["sent"] == rnd["move"] for e in entries)
        applied = [e for e in entries if e["status"] == 200]
        refused = [e for e in entries if e["status"] != 200]
        after = rnd["after"]
        turn_passed = after["status"] == "in_progress" and after["table"]["to_act"] != rnd["seat"]
        assert applied, f"nobody's move was applied in round {rnd}"
        if turn_passed:  # the move handed the turn on, so it cannot have been legal twice
            assert len(applied) == 1, f"the same move was applied {len(applied)} times: {rnd}"
        assert len({a["body"]["events"][0]["version"] for a in applied}) == len(applied)
        for e in refused:
            assert e["status"] in (409, 422, 429), e
            if e["status"] == 422:
                assert e["body"].get("rule"), e
                if turn_passed:
                    assert e["body"]["rule"] == "ER-3.0", e
            refusals[(e["status"], e["body"].get("rule"))] += 1
    assert refusals[(422, "ER-3.0")] > 0 and refusals[(409, None)] > 0, refusals


def test_an_idempotency_key_sent_twice_at_once_and_again_makes_one_move(race):
    key_rounds = [r for g in race.games if g.kind == "key" for r in g.rounds]
    assert len(key_rounds) >= 5
    for rnd in key_rounds:
        entries = rnd["entries"]
        assert len(entries) == 3 and all(e["status"] == 200 for e in entries), entries
        firsts = [e["body"]["events"][0] for e in entries]
        assert all(f == firsts[0] for f in firsts), "the answers to one key name different moves"
        assert sorted(bool(e["body"].get("replayed")) for e in entries) == [False, True, True], entries


def test_both_workers_served_requests(race):
    if len(race.workers) != 2 or race.workers_after != race.workers:
        pytest.skip(f"the workers are not observable (workers before {race.workers}, after {race.workers_after})")
    busy = {pid: after - before for pid, (before, after) in race.cpu.items() if before is not None and after is not None}
    assert len(busy) == 2, race.cpu
    assert all(seconds >= 0.2 for seconds in busy.values()), f"CPU seconds per worker during the race: {busy}"


def test_the_server_logged_no_error_while_serving(server, race):
    later = server.log()[len(server.boot_log):]
    assert "Traceback" not in later and "[ERROR]" not in later, later[-4000:]


def test_two_workers_boot_on_a_fresh_schema_without_a_crash(server):
    """Start-up creates the schema, tables and functions under an advisory lock: no worker fails to boot."""
    assert not server.boot_failures and "Exception in worker process" not in server.boot_log, server.boot_log[-4000:]
