"""The floor of a move through this server stack: a prototype that does only what a move cannot do without.

    python -m bench.floor [--quick] [--json] [--no-postgres | --postgres URL] [--workers W] [--threads T] [--profile DIR]

A plain Flask route (no flask-smorest, no marshmallow, no eventsourcing, no hash chain, no receipt, no
checkpoint) on the same stack as `arbiter serve` (gunicorn, uvicorn workers, api.http.wsgi_bridge, the same
workers and threads), driven by bench.api's load generator with bench.api's prepared games (16 clients, a
new connection per request). One move is:

  1. read the JSON body and find the seat from the bearer token;
  2. bring the worker's copy of the game up to date: SELECT the moves stored after its version (the other
     worker may have played some);
  3. decide: parse the move and run the bare El Royale decider (`step`) on the game's state;
  4. INSERT one row (the game, its version, the move as JSON) and COMMIT it, with the moves that other request
     threads store at the same moment (group commit, below), on the same kind of store (SQLite file in WAL mode
     with synchronous=FULL, or PostgreSQL);
  5. answer {"version": ...}.

Moves that reach the store while another transaction is being written are grouped into the next one (the same
service.adapters.group_commit.Batches as arbiter's group commit, and on SQLite the same lock file ordering the two
workers' writes), so the floor commits as arbiter does. Its CPU per move (the workers' CPU over the moves) is
the lowest a durable move can cost on this stack: HTTP, the loop, the request thread, Flask, the decider, one
INSERT and a share of a COMMIT. The difference to arbiter's CPU per move is arbiter's own (flask-smorest,
eventsourcing, the hash chain, receipts, checkpoints, the views of the answer). `--profile DIR` samples the
floor's workers with py-spy (bench.pyspy) during the timed repetitions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench import api as bench_api

SQLITE_SCHEMA = "CREATE TABLE IF NOT EXISTS floor_moves (game TEXT, version INTEGER, move TEXT, PRIMARY KEY (game, version))"
PG_SCHEMA = "CREATE TABLE IF NOT EXISTS floor_moves (game TEXT, version INTEGER, move TEXT, PRIMARY KEY (game, version))"


# --------------------------------------------------------------------------- the prototype server (one worker)


class Store:
    """One connection per request thread; the inserts of concurrent moves share one transaction (group commit)."""

    def __init__(self, url: str):
        from service.adapters.group_commit import Batches, WriteLock

        self.url = url
        self.local = threading.local()
        self.sqlite = url.startswith("sqlite:///")
        across = WriteLock(url[len("sqlite:///"):] + ".write-lock") if self.sqlite else None  # as arbiter's workers
        self.batches = Batches(self._write, across)
        self.transactions = 0

    def conn(self):
        c = getattr(self.local, "conn", None)
        if c is None:
            if self.sqlite:
                import sqlite3

                c = sqlite3.connect(self.url[len("sqlite:///"):], isolation_level=None, timeout=30, check_same_thread=False)
                c.execute("PRAGMA journal_mode=WAL")
                c.execute("PRAGMA synchronous=FULL")
            else:
                import psycopg

                c = psycopg.connect(self.url, autocommit=True)
            self.local.conn = c
        return c

    def since(self, game: str, version: int) -> list[tuple[int, str]]:
        q = "SELECT version, move FROM floor_moves WHERE game = {p} AND version > {p} ORDER BY version"
        return list(self.conn().execute(q.format(p="?" if self.sqlite else "%s"), (game, version)).fetchall())

    def insert(self, game: str, version: int, move: str) -> None:
        """Store one move; returns once committed (with the moves of other threads), or raises its own error."""
        mine = self.batches.submit((game, version, move))
        if mine.error is not None:
            raise mine.error

    def _write(self, batch: list) -> None:
        rows = [w.item for w in batch]
        try:
            self._insert(rows)
        except Exception:  # noqa: BLE001 - one stale row refuses the whole transaction: each again on its own
            if len(batch) == 1:
                batch[0].error = sys.exc_info()[1]
                return
            for w in batch:
                try:
                    self._insert([w.item])
                except Exception as e:  # noqa: BLE001
                    w.error = e

    def _insert(self, rows: list[tuple]) -> None:
        q = "INSERT INTO floor_moves (game, version, move) VALUES ({p}, {p}, {p})".format(p="?" if self.sqlite else "%s")
        c = self.conn()
        self.transactions += 1
        if self.sqlite:
            c.execute("BEGIN")
            try:
                c.executemany(q, rows)
            except BaseException:
                c.execute("ROLLBACK")
                raise
            c.execute("COMMIT")
        else:
            with c.transaction():
                c.cursor().executemany(q, rows)


def create_floor_app(url: str, games: dict):
    """The prototype's Flask app; `games` maps a game id to (spec, seats' tokens)."""
    from flask import Flask, jsonify, request

    from domain.games import decider_for, spec_for
    from domain.randomness import Chance
    from domain.records import parse_move

    app = Flask(__name__)
    store = Store(url)
    d = decider_for(bench_api.GAME)
    copies: dict[str, list] = {}  # game -> [version, state, chance, lock]
    guard = threading.Lock()

    def fresh(game: str) -> list:
        spec = games[game][0]
        setup = d.configure(spec["options"], spec["players"], None, None)
        chance = Chance(spec["seed"])
        state = d.initial_state(setup)
        opening = d.start(setup, chance)
        for e in opening:
            state = d.evolve(state, e)
        return [1 + len(opening), state, chance, threading.Lock(), setup.n]

    def play(copy: list, move: dict) -> int:
        events, copy[1] = d.step(copy[1], move, copy[2])
        copy[0] += len(events) + (1 if d.outcome(copy[1]).is_over else 0)
        return copy[0]

    @app.post("/api/v1/games/<game>/moves")
    def move(game: str):
        seat = games[game][1].index(request.headers["Authorization"].removeprefix("Bearer "))
        raw = request.get_json()
        with guard:
            copy = copies.get(game) or copies.setdefault(game, fresh(game))
        with copy[3]:
            for _ in range(50):
                for _, stored in store.since(game, copy[0]):  # the other worker's moves
                    play(copy, json.loads(stored))
                parsed = parse_move({**raw, "seat": seat}, copy[4], spec_for(bench_api.GAME).codec)
                version = play(copy, parsed)
                try:
                    store.insert(game, version, json.dumps(parsed))
                except Exception:  # noqa: BLE001 - the other worker stored this version first: rebuild, decide again
                    lock = copy[3]
                    copy[:] = fresh(game)
                    copy[3] = lock
                    continue
                return jsonify({"version": version})
        return jsonify({"error": "busy"}), 409

    return app


def serve(port: int, url: str, games_file: str, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    from api.http.wsgi_bridge import ThreadedWSGI

    games = json.loads(Path(games_file).read_text())

    class Floor(BaseApplication):
        def load_config(self):
            for k, v in {"bind": f"127.0.0.1:{port}", "workers": workers, "worker_class": "uvicorn_worker.UvicornWorker",
                         "accesslog": None, "errorlog": "-", "loglevel": "warning"}.items():
                self.cfg.set(k, v)

        def load(self):
            sys.setswitchinterval(0.001)  # as api.http.asgi does
            return ThreadedWSGI(create_floor_app(url, games), threads, 256 * 1024)

    Floor().run()


# --------------------------------------------------------------------------- the measurement


def _prepare(url: str) -> None:
    if url.startswith("sqlite:///"):
        import sqlite3

        c = sqlite3.connect(url[len("sqlite:///"):])
        c.execute("PRAGMA journal_mode=WAL")
        c.execute(SQLITE_SCHEMA)
        c.execute("DELETE FROM floor_moves")
        c.commit()
        c.close()
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as c:
            c.execute("DROP TABLE IF EXISTS floor_moves")
            c.execute(PG_SCHEMA)


def bench_store(store: str, url: str, prepared: list[dict], cfg: dict, tmp: str) -> dict:
    reps = []
    for rep in range(cfg["repeat"] + 1):  # the first is the warm-up
        _prepare(url)
        games = {f"g{rep}-{i}": (g["spec"], [f"t{rep}-{i}-{s}" for s in range(bench_api.PLAYERS)]) for i, g in enumerate(prepared)}
        games_file = Path(tmp) / "games.json"
        games_file.write_text(json.dumps(games))
        port = bench_api.free_port()
        log = open(Path(tmp) / f"floor-{store}-{rep}.log", "wb")
        proc = subprocess.Popen([sys.executable, "-m", "bench.floor", "serve", "--port", str(port), "--url", url,
                                 "--games", str(games_file), "--workers", str(cfg["workers"]), "--threads", str(cfg["threads"])],
                                cwd=bench_api.ROOT, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while len(bench_api.worker_pids(proc.pid)) < cfg["workers"] or not _up(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"bench.floor: the prototype server did not start: {(Path(tmp) / f'floor-{store}-{rep}.log').read_text()[-2000:]}")
                time.sleep(0.1)
            jobs = [{"kind": "moves", "game": gid, "tokens": tokens, "moves": g["moves"]}
                    for (gid, (_, tokens)), g in zip(games.items(), prepared)]
            from bench import pyspy

            pids = bench_api.worker_pids(proc.pid)
            before = {p: bench_api.cpu_seconds(p) for p in pids}
            before_sys = {p: bench_api.cpu_seconds(p, kernel_only=True) for p in pids}
            spies = pyspy.start(pids, cfg["profile"], f"floor-{store}-{rep}") if rep and cfg.get("profile") else []
            try:
                result = bench_api.run_clients(port, jobs, cfg["client_procs"], False)
            finally:
                pyspy.stop(spies)
            after = {p: bench_api.cpu_seconds(p) for p in before}
            after_sys = {p: bench_api.cpu_seconds(p, kernel_only=True) for p in before}
            result["worker_cpu_s"] = sorted(round(after[p] - before[p], 2) for p in before if before[p] is not None and after[p] is not None)
            result["worker_sys_s"] = round(sum(after_sys[p] - before_sys[p] for p in before if before_sys[p] is not None
                                               and after_sys[p] is not None), 2)
        finally:
            proc.terminate()
            proc.wait(30)
            log.close()
        if rep:
            reps.append(result)
    return bench_api.summary(reps)


def _up(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        p = argparse.ArgumentParser(prog="python -m bench.floor serve")
        for name, kind in (("--port", int), ("--url", str), ("--games", str), ("--workers", int), ("--threads", int)):
            p.add_argument(name, type=kind, required=True)
        a = p.parse_args(argv[1:])
        serve(a.port, a.url, a.games, a.workers, a.threads)
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--profile", metavar="DIR", help="py-spy each worker during the timed repetitions (bench.pyspy)")
    pg = parser.add_mutually_exclusive_group()
    pg.add_argument("--postgres", default=os.environ.get(bench_api.POSTGRES_ENV, bench_api.DEFAULT_POSTGRES))
    pg.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)
    cfg = dict(bench_api.QUICK if args.quick else bench_api.FULL, workers=args.workers, threads=args.threads,
               profile=args.profile)
    load_before = os.getloadavg()
    prepared = bench_api.corpus(cfg)
    tmp = tempfile.mkdtemp(prefix="arbiter-bench-floor-")
    urls = {"sqlite": f"sqlite:///{tmp}/floor.db"}
    if not args.no_postgres:
        urls["postgres"] = args.postgres
    out = {"load_average": {"before": load_before}, "config": cfg, "stores": {}}
    for store, url in urls.items():
        bench_api._log(f"[floor {store}] {cfg['repeat']} repetitions of {sum(len(g['moves']) for g in prepared)} moves ...")
        try:
            out["stores"][store] = bench_store(store, url, prepared, cfg, tmp)
        except SystemExit as e:
            out["stores"][store] = {"error": str(e)}
        if store == "postgres":
            import psycopg

            with psycopg.connect(url, autocommit=True) as c:
                c.execute("DROP TABLE IF EXISTS floor_moves")
    out["load_average"]["after"] = os.getloadavg()
    for r in out["stores"].values():
        r.pop("latencies", None)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"load average before {out['load_average']['before']}, after {out['load_average']['after']}")
        for store, r in out["stores"].items():
            if "error" in r:
                print(f"{store}: {r['error']}")
                continue
            print(f"floor {store}: {r['best_rate']:,.0f} moves/s (median {r['median_rate']:,.0f}), p50 {r['p50_ms']:.1f} "
                  f"p99 {r['p99_ms']:.1f} ms, worker CPU s {r['worker_cpu_s']}, CPU {r['worker_cpu_ms_per_request']:.3f} ms/move "
                  f"(sys {100 * r['worker_sys_share']:.0f} %), clients' share {100 * r['client_share']:.0f} %")
        if args.profile:
            from bench import pyspy

            for store in out["stores"]:
                files = sorted(Path(args.profile).glob(f"floor-{store}-*.txt"))
                print(f"\n== where the floor's workers' CPU went ({store}, py-spy, {len(files)} files)")
                print(pyspy.report(pyspy.read(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
