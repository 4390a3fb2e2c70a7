"""CPU per move in one process, layer by layer: the facade, the Flask app as the server runs it, and what a move executes.

    python -m bench.move_cpu [--games G] [--moves M] [--store sqlite|memory|postgres] [--layer facade|wsgi]
                             [--repeat R] [--cprofile N] [--sql]

The same prepared games as bench.api (random legal 4-player El Royale, revised; the server deals the same cards
from the same seed), created through the app (untimed), then played round robin, one move at a time, in this
thread (no concurrency: each move commits alone). Timed with time.process_time (this process's CPU, every
thread) and time.perf_counter:

- ``facade``: Arbiter.move(game id, token, body): the service's whole move (load, decide, save, receipt,
  checkpoint, the answer's events) without HTTP;
- ``wsgi``: the request as api.http.wsgi_bridge runs it in a request thread (`ThreadedWSGI._run` on the environ the
  bridge builds): Flask, flask-smorest's parsing and response, the facade; without the event loop and uvicorn.

`--cprofile N` prints cProfile's top N functions (cumulative and own time) of the first repetition;
`--sql` counts the SQL statements the moves execute (SQLite: the connection's trace callback; PostgreSQL: not
counted) and prints those of one move. The server's CPU per move (bench.api, "CPU ms/req") adds uvicorn, the
event loop, the hand-over between threads and the other worker.
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import os
import random
import secrets
import sys
import tempfile
import threading
import time

from bench import api as bench_api
from service.play.commands import PlayMove


def _sql_counter():
    """Patch eventsourcing's sqlite3.connect so that every connection reports its statements; the statement list."""
    import sqlite3

    from eventsourcing import sqlite as es_sqlite

    statements: list[str] = []
    real = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    es_sqlite.sqlite3 = type("sqlite3", (), {**{k: getattr(sqlite3, k) for k in dir(sqlite3) if not k.startswith("__")},
                                            "connect": staticmethod(connect)})
    return statements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.move_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--moves", type=int, default=100, help="moves per game (default 100)")
    parser.add_argument("--store", choices=("sqlite", "memory", "postgres"), default="sqlite")
    parser.add_argument("--postgres", default=os.environ.get(bench_api.POSTGRES_ENV, bench_api.DEFAULT_POSTGRES))
    parser.add_argument("--layer", choices=("facade", "wsgi"), default="wsgi")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cprofile", type=int, metavar="N", default=0)
    parser.add_argument("--sql", action="store_true")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads playing at once, each its own games (as the server's request threads; default 1)")
    parser.add_argument("--switch-interval", type=float, help="sys.setswitchinterval (api.http.asgi sets 0.001)")
    args = parser.parse_args(argv)

    statements = _sql_counter() if args.sql else None
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    tmp = tempfile.mkdtemp(prefix="arbiter-move-cpu-")
    schema = None
    if args.store == "sqlite":
        url = f"sqlite:///{tmp}/moves.db"
    elif args.store == "memory":
        url = "memory://"
    else:
        schema = f"arbiter_move_cpu_{secrets.token_hex(4)}"
        url = f"{args.postgres}?schema={schema}"
    from a2wsgi.wsgi import build_environ

    from api import create_app
    from api.http.wsgi_bridge import ThreadedWSGI

    app = create_app({"DATABASE_URL": url, "KEY_FILE": f"{tmp}/key", "CHECKPOINT_LOG": f"{tmp}/checkpoints.jsonl"})
    facade = app.extensions["arbiter"]
    bridge = ThreadedWSGI(app, 1, app.config["MAX_CONTENT_LENGTH"])  # its _run only: each thread here is a request thread
    cfg = {"clients": args.games, "moves_per_game": args.moves, "seed": 2026}
    games = bench_api.corpus(cfg)
    client = app.test_client()
    results = []
    try:
        for rep in range(args.repeat):
            jobs = []
            for g in games:
                created = client.post("/api/v1/games", json=g["spec"]).get_json()
                assert created["version"] == g["start_version"], created
                jobs.append((created["id"], [s["token"] for s in created["seats"]], g["moves"]))
            order = [(gid, tokens, m) for i in range(args.moves) for gid, tokens, moves in jobs if i < len(moves)
                     for m in [moves[i]]]
            requests = []
            for gid, tokens, (seat, body, version) in order:
                if args.layer == "facade":
                    requests.append((gid, tokens[seat], dict(body), version))
                else:
                    raw = json.dumps(body).encode()
                    scope = {"type": "http", "http_version": "1.1", "method": "POST", "scheme": "http",
                             "path": f"/api/v1/games/{gid}/moves", "raw_path": f"/api/v1/games/{gid}/moves".encode(),
                             "query_string": b"", "root_path": "", "server": ("127.0.0.1", 8000),
                             "client": ("127.0.0.1", 50000),
                             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                                         (b"authorization", f"Bearer {tokens[seat]}".encode()),
                                         (b"content-length", str(len(raw)).encode()), (b"connection", b"close")]}
                    requests.append((scope, raw, version))
            if statements is not None:
                statements.clear()
            profiler = None
            if args.cprofile and rep == 0:
                import cProfile

                profiler = cProfile.Profile()
                profiler.enable()
            one_move: list[str] = []

            def play(share: list, sql: bool) -> None:
                first_sql = None
                for k, req in enumerate(share):
                    if args.layer == "facade":
                        gid, token, body, version = req
                        got = facade.play.move(token, PlayMove.from_body(gid, body))["version"]
                    else:
                        scope, raw, version = req
                        status, _, answer = bridge._run(build_environ(scope, io.BytesIO(raw)))
                        assert status == 200, answer[:300]
                        got = json.loads(answer)["version"]
                    assert got == version, (got, version)
                    if sql and k == len(share) // 2:
                        first_sql = len(statements)
                    if sql and k == len(share) // 2 + 1:
                        one_move[:] = statements[first_sql:]

            games_of = [[gid for gid, _, _ in jobs][t::args.threads] for t in range(args.threads)]
            shares = [[r for r, (gid, _, _) in zip(requests, order) if gid in mine] for mine in games_of]
            threads = [threading.Thread(target=play, args=(share, statements is not None and args.threads == 1))
                       for share in shares]
            cpu0, wall0 = time.process_time(), time.perf_counter()
            if args.threads == 1:  # in this thread: what cProfile sees
                play(shares[0], statements is not None)
            else:
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            if profiler is not None:
                profiler.disable()
            results.append((cpu, wall, len(requests)))
            print(f"repetition {rep + 1}: {len(requests)} moves, CPU {1000 * cpu / len(requests):.3f} ms/move, "
                  f"wall {1000 * wall / len(requests):.3f} ms/move", file=sys.stderr)
            if statements is not None and rep == 0:
                kinds = collections.Counter(s.split(None, 1)[0].upper() for s in statements)
                print(f"SQL: {len(statements)} statements for {len(requests)} moves "
                      f"({len(statements) / len(requests):.2f} per move): {dict(kinds)}")
                if one_move:
                    print("one move's statements:\n  " + "\n  ".join(s[:160] for s in one_move))
            if profiler is not None:
                import pstats

                for key in ("cumulative", "tottime"):
                    pstats.Stats(profiler).sort_stats(key).print_stats(args.cprofile)
    finally:
        facade.app.close()
        if schema:
            import psycopg
            from psycopg import sql

            with psycopg.connect(args.postgres, autocommit=True) as c:
                c.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    best = min(results)
    print(f"{args.layer} on {args.store}, {args.threads} thread(s): CPU {1000 * best[0] / best[2]:.3f} ms/move (best of {args.repeat}; "
          f"all: {', '.join(f'{1000 * c / n:.3f}' for c, _, n in results)}), wall {1000 * best[1] / best[2]:.3f} ms/move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
