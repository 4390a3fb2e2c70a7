"""HTTP API benchmark: moves per second and move latency through gunicorn, with a trivial endpoint as the ceiling.

For each store, a SQLite file (in a fresh temporary directory) and PostgreSQL (a fresh schema
``arbiter_bench_api_<random>`` in the ``test`` database, dropped at the end; skipped with a note
when the server cannot be reached), one server is started exactly as a user would start it:

    arbiter serve --workers W --threads T --port P --database-url URL

Then C concurrent clients (default 16) are released together (a barrier). Two phases, alternating
in each repetition:

(1) ``moves``   each client plays its OWN game: one request = one POST /api/v1/games/{id}/moves
                with the seat's token. The moves are prepared beforehand in memory by random legal play
                through the bare decider (4-player El Royale, revised edition; each move drawn from the
                legal moves, a play preferred over a pass now and then, as in domain.autoplay), from the
                same explicit ``seed`` that the game is then created with (POST /games), so the server
                deals the same cards and every prepared move is legal. (Always the FIRST legal move, as a
                naive client would send, is a degenerate game: the defender always concedes, and a
                3-player game cycles forever.)
                No GET is sent while timing. Each answer must be 200 with the predicted version
                (checked by the client, outside its latency clock). The games are created before the
                clock starts, fresh for every repetition (same seeds, so the same moves).
(2) ``health``  the same C clients, each sending GET /api/v1/health back to back. The server answers it
                on its event loop (api.http.asgi), without Flask or a request thread: the ceiling of the HTTP
                stack alone (uvicorn's parsing, the connection, the load generator).
(3) ``flask``   the same C clients, each sending GET /api/v1/keys back to back: a trivial route served
                like a move (the request thread pool, Flask, flask-smorest's response schema, the facade),
                with no store: the ceiling of a request that goes through Flask.

Connections: by default every request opens a new connection (``Connection: close``). With one
keep-alive connection per client (``--keepalive``), gunicorn hands each connection to one worker for
its whole life; 16 connections opened at once were split unevenly between the 2 workers (one did
about 60 % of the work), so the run measured the luck of that split more than the server.

Server: 2 gunicorn workers (one per core) x 8 threads by default. A move is mostly Python CPU work,
so one worker (GIL) uses one core at most; 4 workers were no faster on SQLite or PostgreSQL here
and had a worse tail on SQLite (more processes contending for its single write lock).

Load generator: the clients run as threads spread over P separate processes (default 2, 8 threads
each), not as threads of the benchmark process: on a 2-core machine one Python process of 16 threads
is GIL-bound at roughly the rate of one server worker and would measure itself. The client processes
still share the 2 cores with the server; their CPU time is reported so that you can see it.

Measures per phase: rate = requests / (last answer - first request) over all clients (time.perf_counter,
which is CLOCK_MONOTONIC on Linux and so comparable across processes), and the latency of each request
(from sending it to having read its whole answer). Repeated R times (repetitions interleave the two
phases); the headline rate is the BEST repetition (the median is also given); the latency percentiles
pool every timed request of every repetition. One untimed warm-up of both phases runs first on each
server. Also reported: the CPU seconds each gunicorn worker and each client process used while timing
(from /proc; blank where not available), the workers' CPU per request over every repetition ("CPU ms/req", the
number to compare on a shared machine, where rates swing with the neighbours and the disk) and its kernel share.
`--profile DIR` samples each worker with py-spy during the timed moves and prints where the CPU went
(bench.pyspy).

Targets (issue 11 part 2; 2-core machine; reported as PASS/MISS, never asserted):
  moves/s >= 1,000 on SQLite and >= 700 on PostgreSQL          p99 move latency <= 50 ms
The ratios of moves/s to the two references are printed beside them. The clients' share of the machine's
CPU (their CPU seconds over wall time x cores) is printed too: it is taken from the server.

Usage:  python -m bench.api [--quick] [--json] [--repeat N] [--clients C] [--client-procs P]
                            [--workers W] [--threads T] [--moves M] [--keepalive] [--server-env KEY=VALUE] [--profile DIR]
                            [--postgres URL | --no-postgres]
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import multiprocessing
import os
import platform
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from domain.autoplay import pick_move

FULL = {"clients": 16, "client_procs": 2, "moves_per_game": 200, "health_per_client": 400, "repeat": 3,
        "workers": 2, "threads": 8, "seed": 2026, "warmup_moves": 20, "warmup_health": 50}
QUICK = {"clients": 16, "client_procs": 2, "moves_per_game": 50, "health_per_client": 100, "repeat": 2,
         "workers": 2, "threads": 8, "seed": 2026, "warmup_moves": 10, "warmup_health": 20}

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
POSTGRES_ENV = "ARBITER_BENCH_POSTGRES_URL"
ROOT = Path(__file__).resolve().parent.parent
ARBITER = ROOT / ".venv" / "bin" / "arbiter"

TARGET_MOVES_PER_S = {"sqlite": 1000.0, "postgres": 700.0}
TARGET_P99_MS = 50.0
PHASES = (("moves", "POST /moves"), ("health", "GET /health (loop)"), ("flask", "GET /keys (Flask)"))

GAME = "el-royale"
PLAYERS = 4
BOOT_TIMEOUT = 60.0
REQUEST_TIMEOUT = 60.0


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the prepared games (untimed)




def prepared_game(seed: str, rng: random.Random, max_moves: int) -> dict:
    """A random legal game played in memory: the POST /games body, each move's request body and expected version.

    The version after a move = the version before + the events the move adds (+1 for the seed's
    reveal when it ends the game), as the Game aggregate stores them.
    """
    from domain.cards import format_cards
    from domain.games import decider_for
    from domain.randomness import Chance

    d = decider_for(GAME)
    players = [{"name": f"P{k}"} for k in range(PLAYERS)]
    options = {"edition": "revised"}
    setup = d.configure(options, players, None, None)
    chance = Chance(seed)
    state = d.initial_state(setup)
    opening = d.start(setup, chance)
    for e in opening:
        state = d.evolve(state, e)
    version = 1 + len(opening)
    moves: list[tuple[int, dict, int]] = []  # (seat, body, version after)
    while len(moves) < max_moves and not d.outcome(state).is_over:
        move = pick_move(list(d.legal_moves(state)), rng)
        events, state = d.step(state, move, chance)
        version += len(events) + (1 if d.outcome(state).is_over else 0)
        body = {"type": move["type"]}
        if "cards" in move:
            body["cards"] = format_cards(move["cards"])
        moves.append((move["seat"], body, version))
    return {"spec": {"game": GAME, "options": options, "players": players, "seed": seed},
            "start_version": 1 + len(opening), "moves": moves, "over": d.outcome(state).is_over}


def corpus(cfg: dict) -> list[dict]:
    """One prepared game per client (seeds derived from cfg["seed"])."""
    rng = random.Random(cfg["seed"])
    return [prepared_game(f"{cfg['seed']:04x}{i:04x}", rng, cfg["moves_per_game"]) for i in range(cfg["clients"])]


# --------------------------------------------------------------------------- HTTP


def _connection(port: int) -> http.client.HTTPConnection:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    conn.connect()
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return conn


def _call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One request on a fresh connection (set-up and checks, never timed)."""
    conn = _connection(port)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


# --------------------------------------------------------------------------- the clients (in separate processes)


def _requests(job: dict, keepalive: bool) -> list[tuple[str, str | None, dict, int | None]]:
    """A job's requests as (path, JSON body or None for a GET, headers, expected version or None), built untimed."""
    close = {} if keepalive else {"Connection": "close"}
    if job["kind"] in ("health", "flask"):
        return [("/api/v1/health" if job["kind"] == "health" else "/api/v1/keys", None, close, None)] * job["count"]
    auth = [{"Content-Type": "application/json", "Authorization": f"Bearer {t}", **close} for t in job["tokens"]]
    return [(f"/api/v1/games/{job['game']}/moves", json.dumps(body), auth[seat], version) for seat, body, version in job["moves"]]


def _client_thread(port: int, job: dict, keepalive: bool, barrier, out: dict) -> None:
    """One client, released by the barrier, then its requests back to back (one connection, or one per request)."""
    perf, cpu = time.perf_counter, time.process_time
    lat: list[float] = []
    try:
        requests = _requests(job, keepalive)
        conn = _connection(port) if keepalive else None
        barrier.wait()
        start, cpu_start = perf(), cpu()
        for path, body, headers, version in requests:
            t0 = perf()
            if not keepalive:
                conn = _connection(port)
            conn.request("GET" if body is None else "POST", path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            if not keepalive:
                conn.close()
            lat.append(perf() - t0)
            if resp.status != 200:
                raise RuntimeError(f"{path}: {resp.status} {data[:300]!r}")
            if version is not None and (got := json.loads(data)["version"]) != version:
                raise RuntimeError(f"{path}: the answer says version {got}, expected {version}")
        end, cpu_end = perf(), cpu()
        conn.close()
        out.update(start=start, end=end, cpu_start=cpu_start, cpu_end=cpu_end, latencies=lat, problems=[])
    except BaseException as e:  # noqa: BLE001 - reported to the benchmark, which stops on it
        barrier.abort()
        out.update(problems=[f"{type(e).__name__}: {e}"])


def _client_process(port: int, jobs: list[dict], keepalive: bool, barrier, results) -> None:
    """A load-generator process: one thread per job; puts the timings and the process's CPU time on `results`."""
    outs = [{} for _ in jobs]
    threads = [threading.Thread(target=_client_thread, args=(port, job, keepalive, barrier, out)) for job, out in zip(jobs, outs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done = [o for o in outs if not o.get("problems")]
    cpu_s = max(o["cpu_end"] for o in done) - min(o["cpu_start"] for o in done) if done else 0.0  # process-wide clock
    results.put({"pid": os.getpid(), "cpu_s": cpu_s, "clients": outs})


def run_clients(port: int, jobs: list[dict], procs: int, keepalive: bool) -> dict:
    """Run the jobs as threads over `procs` processes, all released together; the phase's timings."""
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(len(jobs), timeout=120)
    results = ctx.Queue()
    shares = [jobs[i::procs] for i in range(procs)]
    processes = [ctx.Process(target=_client_process, args=(port, share, keepalive, barrier, results), daemon=True)
                 for share in shares if share]
    for p in processes:
        p.start()
    collected = [results.get(timeout=900) for _ in processes]
    for p in processes:
        p.join(timeout=30)
    clients = [c for r in collected for c in r["clients"]]
    problems = [p for c in clients for p in c["problems"] if "BrokenBarrierError" not in p] or \
        [p for c in clients for p in c["problems"]]
    if problems:
        raise SystemExit("bench: a request failed:\n  " + "\n  ".join(problems[:10]))
    latencies = [x for c in clients for x in c["latencies"]]
    wall = max(c["end"] for c in clients) - min(c["start"] for c in clients)
    return {"requests": len(latencies), "wall_s": wall, "rate": len(latencies) / wall, "latencies": latencies,
            "client_cpu_s": sorted(r["cpu_s"] for r in collected)}


# --------------------------------------------------------------------------- the server


def worker_pids(master: int) -> list[int]:
    """gunicorn's workers: the children of the master, from /proc (empty where there is no /proc)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                pids.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return sorted(pids)


def cpu_seconds(pid: int, kernel_only: bool = False) -> float | None:
    """A process's CPU seconds so far, user + system (or system alone), from /proc; None where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return ((0 if kernel_only else int(fields[11])) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`arbiter serve` as a subprocess on one store URL."""

    def __init__(self, url: str, workers: int, threads: int, log_dir: str, env: dict[str, str] | None = None,
                 worker_class: str | None = None, label: str = "server", boot_timeout: float = BOOT_TIMEOUT,
                 arbiter: Path | None = None):
        self.url, self.workers, self.threads, self.worker_class = url, workers, threads, worker_class
        self.arbiter = arbiter or ARBITER  # another checkout's `arbiter` (bench.streams --against: the release)
        self.env = {**os.environ, **(env or {})}
        self.port = free_port()
        self.log_path = Path(log_dir) / f"{label}-{self.port}.log"
        self.boot_timeout = boot_timeout
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        command = [str(self.arbiter), "serve", "--port", str(self.port), "--database-url", self.url,
                   "--workers", str(self.workers), "--threads", str(self.threads)]
        if self.worker_class:
            command += ["--worker-class", self.worker_class]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(command, cwd=self.log_path.parent, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.boot_timeout
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"bench: the server exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            try:
                if _call(self.port, "GET", "/api/v1/health")[0] == 200 and \
                        (len(worker_pids(self.proc.pid)) >= self.workers or not Path("/proc/self").exists()):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"bench: the server did not come up within {self.boot_timeout:.0f} s:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def workers_cpu(self, kernel_only: bool = False) -> dict[int, float | None]:
        return {pid: cpu_seconds(pid, kernel_only) for pid in worker_pids(self.proc.pid)} if self.proc else {}

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


# --------------------------------------------------------------------------- stores


class Stores:
    """The SQLite file and the PostgreSQL schema of this run."""

    def __init__(self, tmp: str, postgres_base: str | None):
        self.tmp = tmp
        self.postgres_base = postgres_base
        self.schema = f"arbiter_bench_api_{secrets.token_hex(4)}"
        self.postgres_note: str | None = None

    def urls(self) -> dict[str, str]:
        out = {"sqlite": f"sqlite:///{os.path.join(self.tmp, 'api.db')}"}
        if self.postgres_base:
            out["postgres"] = f"{self.postgres_base}{'&' if '?' in self.postgres_base else '?'}schema={self.schema}"
        return out

    def _pg(self, **kw):
        import psycopg

        return psycopg.connect(self.postgres_base.split("?", 1)[0], **kw)

    def probe_postgres(self) -> None:
        if not self.postgres_base:
            self.postgres_note = "PostgreSQL skipped: --no-postgres"
            return
        try:
            with self._pg(connect_timeout=3, autocommit=True) as conn:
                conn.execute("SELECT 1")
        except Exception as e:  # noqa: BLE001 - any failure to connect means: skip, and say why
            self.postgres_note = f"PostgreSQL skipped: {self.postgres_base} is unreachable ({type(e).__name__}: {str(e).strip()[:200]})"
            self.postgres_base = None

    def prepare(self, store: str) -> None:
        """Create the store's tables before the server starts (one Referee, then closed).

        Without this, two gunicorn workers booting at once on a fresh PostgreSQL schema can both
        run CREATE SCHEMA IF NOT EXISTS and one fails, which takes the whole server down.
        """
        from service.play.referee import Referee

        Referee(self.urls()[store]).close()

    def drop_postgres(self) -> None:
        if not self.postgres_base:
            return
        from psycopg import sql

        try:
            with self._pg(connect_timeout=5, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))
        except Exception as e:  # noqa: BLE001
            _log(f"warning: could not drop schema {self.schema}: {e}")


# --------------------------------------------------------------------------- one store


def create_games(port: int, games: list[dict], moves_per_game: int | None = None) -> list[dict]:
    """POST /games for each prepared game (untimed); the clients' move jobs."""
    jobs = []
    for g in games:
        status, created = _call(port, "POST", "/api/v1/games", g["spec"])
        if status != 201 or created["version"] != g["start_version"]:
            raise SystemExit(f"bench: POST /games answered {status} {str(created)[:300]}")
        moves = g["moves"] if moves_per_game is None else g["moves"][:moves_per_game]
        jobs.append({"kind": "moves", "game": created["id"], "tokens": [s["token"] for s in created["seats"]],
                     "moves": moves, "referee": created["referee_token"], "final": moves[-1][2] if moves else None})
    return jobs


def check_games(port: int, jobs: list[dict]) -> None:
    """After a phase (untimed): each game is at its predicted version and its audit chain verifies."""
    for job in jobs:
        status, view = _call(port, "GET", f"/api/v1/games/{job['game']}/view", token=job["referee"])
        if status != 200 or view["version"] != job["final"]:
            raise SystemExit(f"bench: game {job['game']} is at version {view.get('version')}, expected {job['final']}")
    status, verified = _call(port, "GET", f"/api/v1/games/{jobs[0]['game']}/audit/verify")
    if status != 200 or not verified["chain"]["ok"]:
        raise SystemExit(f"bench: the audit chain of game {jobs[0]['game']} does not verify: {verified}")


def _timed(server: Server, jobs: list[dict], cfg: dict, profile: str | None = None) -> dict:
    """One timed phase; `profile` (a label): each worker sampled by py-spy meanwhile, into cfg["profile"]."""
    from bench import pyspy

    before, before_sys = server.workers_cpu(), server.workers_cpu(kernel_only=True)
    spies = pyspy.start(list(before), cfg["profile"], profile) if profile and cfg.get("profile") else []
    try:
        result = run_clients(server.port, jobs, cfg["client_procs"], cfg["keepalive"])
    finally:
        pyspy.stop(spies)
    after, after_sys = server.workers_cpu(), server.workers_cpu(kernel_only=True)
    result["worker_sys_s"] = round(sum(after_sys[p] - before_sys[p] for p in before_sys
                                       if before_sys.get(p) is not None and after_sys.get(p) is not None), 2)
    result["worker_cpu_s"] = sorted(round(after[p] - before[p], 2) for p in before
                                    if before.get(p) is not None and after.get(p) is not None)
    return result


def bench_store(store: str, url: str, games: list[dict], cfg: dict, log_dir: str) -> dict:
    server = Server(url, cfg["workers"], cfg["threads"], log_dir, cfg["server_env"])
    _log(f"[{store}] starting arbiter serve --workers {cfg['workers']} --threads {cfg['threads']} ...")
    server.start()
    health_jobs = [{"kind": "health", "count": cfg["health_per_client"]} for _ in range(cfg["clients"])]
    flask_jobs = [{"kind": "flask", "count": cfg["health_per_client"]} for _ in range(cfg["clients"])]
    try:
        _log(f"[{store}] warm-up (untimed) ...")
        warm = create_games(server.port, games, cfg["warmup_moves"])
        run_clients(server.port, warm, cfg["client_procs"], cfg["keepalive"])
        check_games(server.port, warm)
        for kind in ("health", "flask"):
            run_clients(server.port, [{"kind": kind, "count": cfg["warmup_health"]}] * cfg["clients"], cfg["client_procs"],
                        cfg["keepalive"])
        moves, health, flask = [], [], []
        for rep in range(cfg["repeat"]):
            _log(f"[{store}] repetition {rep + 1}/{cfg['repeat']}: creating {len(games)} games, then moves and health ...")
            jobs = create_games(server.port, games)
            moves.append(_timed(server, jobs, cfg, f"moves-{store}-{rep + 1}"))
            check_games(server.port, jobs)
            health.append(_timed(server, health_jobs, cfg))
            flask.append(_timed(server, flask_jobs, cfg))
        log = server.log()
    finally:
        server.stop()
    problems = [line for line in log.splitlines() if "[ERROR]" in line or "Traceback" in line]
    if problems:
        raise SystemExit(f"bench: the {store} server logged errors:\n{log[-3000:]}")
    return {"moves": summary(moves), "health": summary(health), "flask": summary(flask)}


def _ms(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


def summary(reps: list[dict]) -> dict:
    rates = [r["rate"] for r in reps]
    lat = [x for r in reps for x in r["latencies"]]
    best = max(range(len(reps)), key=lambda i: rates[i])
    return {"requests_per_rep": reps[0]["requests"], "rates": rates, "best_rate": rates[best],
            "median_rate": statistics.median(rates), "p50_ms": _ms(lat, 0.50), "p90_ms": _ms(lat, 0.90),
            "p99_ms": _ms(lat, 0.99), "max_ms": 1000 * max(lat), "latency_samples": len(lat),
            "wall_s": [r["wall_s"] for r in reps], "worker_cpu_s": reps[best]["worker_cpu_s"],
            "client_cpu_s": reps[best]["client_cpu_s"],
            "client_share": sum(reps[best]["client_cpu_s"]) / (reps[best]["wall_s"] * (os.cpu_count() or 1)),
            "worker_cpu_ms_per_request": 1000 * sum(x for r in reps for x in r["worker_cpu_s"]) / sum(r["requests"] for r in reps),
            "worker_sys_share": sum(r["worker_sys_s"] for r in reps) / (sum(x for r in reps for x in r["worker_cpu_s"]) or 1)}


# --------------------------------------------------------------------------- the run


def machine() -> dict:
    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "?"

    return {"platform": platform.platform(), "machine": platform.machine(),
            "python": f"{platform.python_implementation()} {platform.python_version()}", "cpu_count": os.cpu_count(),
            "eventsourcing": version("eventsourcing"), "gunicorn": version("gunicorn"), "flask": version("flask"),
            "psycopg": version("psycopg")}


def source_digest() -> str:
    """A short SHA-256 of the served code (domain/, projections/, api/), to tie the numbers to a version of it."""
    import hashlib

    h = hashlib.sha256()
    for path in sorted(p for d in ("domain", "projections", "api") for p in (ROOT / d).rglob("*.py")):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def run(cfg: dict, postgres: str | None) -> dict:
    if not ARBITER.exists():
        raise SystemExit(f"bench: {ARBITER} is missing (run `make test` or pip install -e . first)")
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
    _log(f"preparing {cfg['clients']} games of up to {cfg['moves_per_game']} moves (random legal play, seed {cfg['seed']}) ...")
    games = corpus(cfg)
    tmp = tempfile.mkdtemp(prefix="arbiter-bench-api-")
    stores = Stores(tmp, postgres)
    stores.probe_postgres()
    results: dict[str, dict] = {}
    try:
        for store, url in stores.urls().items():
            stores.prepare(store)
            results[store] = bench_store(store, url, games, cfg, tmp)
    finally:
        stores.drop_postgres()
        shutil.rmtree(tmp, ignore_errors=True)
    for store, r in results.items():
        m = r["moves"]
        r["vs_health"] = m["best_rate"] / r["health"]["best_rate"]
        r["vs_flask"] = m["best_rate"] / r["flask"]["best_rate"]
        target = TARGET_MOVES_PER_S[store]
        r["targets"] = {
            "moves_per_s": {"target": target, "measured": m["best_rate"], "met": m["best_rate"] >= target},
            "p99_ms": {"target": TARGET_P99_MS, "measured": m["p99_ms"], "met": m["p99_ms"] <= TARGET_P99_MS},
        }
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(),
        "config": dict(cfg),
        "moves_total": sum(len(g["moves"]) for g in games),
        "source_digest": source_digest(),
        "load_average": {"before": load_before, "after": os.getloadavg() if hasattr(os, "getloadavg") else None},
        "method": (f"{cfg['clients']} clients (threads over {cfg['client_procs']} processes), "
                   f"{'one keep-alive connection each' if cfg['keepalive'] else 'a new connection per request'}; "
                   f"server: arbiter serve --workers {cfg['workers']} --threads {cfg['threads']} (gunicorn, uvicorn workers); "
                   f"rate = best of {cfg['repeat']} (median also given); latency percentiles over all repetitions"),
        "postgres_note": stores.postgres_note,
        "stores": results,
    }


def print_table(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # piped or captured: wide enough for the table rather than 80 columns
        console = Console(width=130)
    m, cfg = result["machine"], result["config"]
    console.print(f"[bold]arbiter HTTP API benchmark[/bold]  {result['date']}")
    console.print(f"machine: {m['platform']} ({m['machine']}), {m['python']}, {m['cpu_count']} CPUs; eventsourcing "
                  f"{m['eventsourcing']}, gunicorn {m['gunicorn']}, flask {m['flask']}, psycopg {m['psycopg']}")
    console.print(f"method: {result['method']}")
    load = result["load_average"]
    if load["before"] is not None:
        console.print(f"load average (1/5/15 min) before: {' '.join(f'{x:.2f}' for x in load['before'])}, after: "
                      f"{' '.join(f'{x:.2f}' for x in load['after'])}  (the machine is shared: a busy one lowers every rate)")
    if cfg["server_env"]:
        console.print(f"server environment: {' '.join(f'{k}={v}' for k, v in cfg['server_env'].items())}")
    console.print(f"source digest (domain/, projections/, api/): {result['source_digest']}")
    console.print(f"games: {cfg['clients']} x 4-player El Royale (revised), {result['moves_total']:,} moves per repetition")
    if result["postgres_note"]:
        console.print(f"[yellow]{result['postgres_note']}[/yellow]")

    table = Table(title="requests per second and latency")
    for col in ("store", "phase", "requests", "best /s", "median /s", "p50 ms", "p90 ms", "p99 ms", "max ms",
                "worker CPU s", "CPU ms/req", "client CPU s", "clients' share"):
        table.add_column(col, justify="left" if col in ("store", "phase") else "right")
    for store, r in result["stores"].items():
        for phase, label in PHASES:
            p = r[phase]
            table.add_row(store, label, f"{p['requests_per_rep']:,}", f"{p['best_rate']:,.0f}", f"{p['median_rate']:,.0f}",
                          f"{p['p50_ms']:.1f}", f"{p['p90_ms']:.1f}", f"{p['p99_ms']:.1f}", f"{p['max_ms']:.0f}",
                          " + ".join(f"{x:.2f}" for x in p["worker_cpu_s"]), f"{p['worker_cpu_ms_per_request']:.2f}",
                          " + ".join(f"{x:.1f}" for x in p["client_cpu_s"]),
                          f"{100 * p['client_share']:.0f} %")
    console.print(table)
    console.print("CPU s: used by each gunicorn worker / each client process during the best repetition's phase; "
                  "CPU ms/req: the workers' CPU over every repetition / its requests; "
                  "clients' share: their CPU over wall time x cores.")
    for store, r in result["stores"].items():
        console.print(f"{store}: moves/s = {r['vs_health']:.2f}x the loop's /health, {r['vs_flask']:.2f}x Flask's /keys")

    targets = Table(title="targets")
    for col in ("store", "target", "required", "measured", "verdict"):
        targets.add_column(col)
    for store, r in result["stores"].items():
        t = r["targets"]
        for name, key, required, fmt in (("moves/s", "moves_per_s", f">= {TARGET_MOVES_PER_S[store]:,.0f}", "{:,.0f}"),
                                         ("p99 move latency", "p99_ms", f"<= {TARGET_P99_MS:g} ms", "{:.1f} ms")):
            verdict = "[green]PASS[/green]" if t[key]["met"] else "[red]MISS[/red]"
            targets.add_row(store, name, required, fmt.format(t[key]["measured"]), verdict)
    console.print(targets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.api", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"shorter games ({QUICK['moves_per_game']} moves), {QUICK['health_per_client']} health "
                             f"requests per client, {QUICK['repeat']} repetitions")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (progress goes to stderr)")
    parser.add_argument("--repeat", type=int, help="timed repetitions (default 3, or 2 with --quick)")
    parser.add_argument("--clients", type=int, help="concurrent clients, each with its own game (default 16)")
    parser.add_argument("--client-procs", type=int, help="processes the clients are spread over (default 2)")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default 2: one per core)")
    parser.add_argument("--threads", type=int, help="threads per gunicorn worker (default 8)")
    parser.add_argument("--moves", type=int, dest="moves_per_game", help="moves per game (default 200, or 50 with --quick)")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment variable for the server, for experiments (repeatable), "
                             "e.g. PYTHONOPTIMIZE=1")
    parser.add_argument("--profile", metavar="DIR",
                        help="sample each worker with py-spy during the timed moves phases (raw files in DIR) and "
                             "print where their CPU went (bench.pyspy); profiling slows the server a little")
    parser.add_argument("--keepalive", action="store_true",
                        help="one keep-alive connection per client (default: a new connection for every request)")
    pg = parser.add_mutually_exclusive_group()
    pg.add_argument("--postgres", default=os.environ.get(POSTGRES_ENV, DEFAULT_POSTGRES),
                    help=f"PostgreSQL base URL (default ${POSTGRES_ENV} or {DEFAULT_POSTGRES})")
    pg.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    cfg["quick"] = args.quick
    for key in ("repeat", "clients", "client_procs", "workers", "threads", "moves_per_game"):
        value = getattr(args, key)
        if value is not None:
            if value < 1:
                parser.error(f"--{key.replace('_', '-')} must be at least 1")
            cfg[key] = value
    cfg["client_procs"] = min(cfg["client_procs"], cfg["clients"])
    cfg["keepalive"] = args.keepalive
    cfg["profile"] = args.profile
    cfg["server_env"] = {}
    for item in args.server_env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--server-env {item!r}: expected KEY=VALUE")
        cfg["server_env"][key] = value
    result = run(cfg, None if args.no_postgres else args.postgres)
    if args.json:
        for r in result["stores"].values():
            for phase, _ in PHASES:
                r[phase].pop("latencies", None)
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    if args.profile:
        from bench import pyspy

        for store in result["stores"]:
            files = sorted(Path(args.profile).glob(f"moves-{store}-*.txt"))
            print(f"\n== where the workers' CPU went during the {store} moves (py-spy, {len(files)} files in {args.profile})")
            print(pyspy.report(pyspy.read(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
