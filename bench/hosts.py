"""Several hosts on one PostgreSQL (issue 25): moves/s and CPU per move with 1, 2 and 3 `arbiter serve` hosts.

For each number of hosts N (default 1, 2, 3), on a fresh schema ``arbiter_bench_hosts_<random>`` of the database
(dropped at the end), N hosts are started as an operator would start them on N machines, each with its own folder
(its working directory and ARBITER_STATE_DIR) and its own copy of one signing key:

    arbiter serve --database-url postgresql://...?schema=S --port P --workers W --threads T   (ARBITER_KEY_FILE=copy)

C clients (default 16, threads over 2 processes, as bench.api) each play their own prepared game (bench.api.corpus:
random legal El Royale moves from a fixed seed, so each answer's version is known), every move a POST on a new
connection to the next host in turn (client i's move k goes to host (i + k) mod N): a game's moves hop between hosts
as a player behind a load balancer without affinity would. Games are created untimed; one untimed warm-up first.

Measured over each timed repetition (the headline is the best of R):
- moves/s: moves / (last answer - first request);
- hosts' CPU: user + system seconds of every process of every host (gunicorn masters and workers, /proc);
- the database's CPU: the backends of the hosts' connections (named by PGAPPNAME, read from pg_stat_activity, their
  CPU from /proc) and, as an upper bound, every PostgreSQL process of the server together with the backends that
  exited meanwhile (the postmaster's reaped-children time): the WAL writer, checkpointer and any other session
  on a shared server are in that one;
- the clients' CPU (their processes).

Each divided by the moves gives CPU ms per move: on this 2-core machine N hosts, the database and the clients share
the same two cores, so moves/s cannot grow with N here; the CPU per move says what N real machines would carry.

References in the same run (pgbench, 16 clients, DEFAULT_SECONDS each, on a scratch table shaped like the events
table): (a) the transaction a move's save is, one row insert under `LOCK TABLE ... IN EXCLUSIVE MODE` with a NOTIFY
(service/adapters/pg_recorder.py), and (b) the same insert without the lock and the NOTIFY: their TPS and the
database's CPU per transaction, the ceiling of the store alone and what the lock costs.

Usage:  python -m bench.hosts [--quick] [--json] [--hosts 1,2,3] [--clients C] [--repeat R] [--workers W]
                              [--threads T] [--postgres URL]
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import multiprocessing
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.api import (ARBITER, DEFAULT_POSTGRES, POSTGRES_ENV, Server, check_games, corpus, cpu_seconds, create_games,
                       machine, source_digest, worker_pids)

FULL = {"clients": 16, "client_procs": 2, "moves_per_game": 150, "repeat": 2, "workers": 1, "threads": 8,
        "seed": 2026, "warmup_moves": 15, "hosts": [1, 2, 3], "pgbench_seconds": 8}
QUICK = {**FULL, "moves_per_game": 60, "repeat": 1, "pgbench_seconds": 4}
APP_NAME = "arbiter-bench-hosts"
TICK = os.sysconf("SC_CLK_TCK")


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- CPU from /proc


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _comm(pid: int | str) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def postgres_cpu() -> float:
    """CPU seconds of the whole PostgreSQL server so far: every live postgres process, plus the children the
    postmaster has reaped (backends that exited)."""
    total = 0.0
    for path in Path("/proc").glob("[0-9]*"):
        if _comm(path.name) != "postgres" or (fields := _stat(int(path.name))) is None:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
        if _comm(fields[1]) != "postgres":  # the postmaster: add its reaped children's time
            total += (int(fields[13]) + int(fields[14])) / TICK
    return total


def backends_cpu(conn, app_name: str) -> dict[int, float]:
    """CPU seconds so far of each backend serving a connection named `app_name`."""
    pids = [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", (app_name,))]
    return {pid: cpu for pid in pids if (cpu := cpu_seconds(pid)) is not None}


class Meter:
    """CPU seconds of the hosts, their backends, the whole database server, between `start` and `stop`."""

    def __init__(self, conn, hosts: list[Server], app_name: str):
        self.conn, self.hosts, self.app_name = conn, hosts, app_name

    def _hosts(self) -> dict[int, float]:
        pids = [pid for h in self.hosts for pid in [h.proc.pid, *worker_pids(h.proc.pid)]]
        return {pid: cpu for pid in pids if (cpu := cpu_seconds(pid)) is not None}

    def start(self) -> None:
        self.h0, self.b0, self.p0 = self._hosts(), backends_cpu(self.conn, self.app_name), postgres_cpu()

    def stop(self) -> dict:
        h1, b1, p1 = self._hosts(), backends_cpu(self.conn, self.app_name), postgres_cpu()
        return {"hosts_cpu_s": sum(h1[p] - self.h0.get(p, 0.0) for p in h1),
                "backends_cpu_s": sum(b1[p] - self.b0.get(p, 0.0) for p in b1),
                "backends_gone": len(set(self.b0) - set(b1)), "connections": len(b1),
                "postgres_cpu_s": p1 - self.p0}


# --------------------------------------------------------------------------- the clients (separate processes)


def _client_thread(ports: list[int], offset: int, job: dict, barrier, out: dict, by_game: bool) -> None:
    perf, lat = time.perf_counter, []
    try:
        headers = [{"Content-Type": "application/json", "Authorization": f"Bearer {t}", "Connection": "close"}
                   for t in job["tokens"]]
        requests = [(json.dumps(body), headers[seat], version) for seat, body, version in job["moves"]]
        path = f"/api/v1/games/{job['game']}/moves"
        barrier.wait()
        start = perf()
        for k, (body, head, version) in enumerate(requests):
            t0 = perf()
            port = ports[offset % len(ports)] if by_game else ports[(offset + k) % len(ports)]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("POST", path, body=body, headers=head)
            resp = conn.getresponse()
            data = resp.read()
            conn.close()
            lat.append(perf() - t0)
            if resp.status != 200 or json.loads(data)["version"] != version:
                raise RuntimeError(f"{path}: {resp.status} {data[:300]!r} (expected version {version})")
        out.update(start=start, end=perf(), latencies=lat, problems=[])
    except BaseException as e:  # noqa: BLE001 - reported to the benchmark, which stops on it
        barrier.abort()
        out.update(problems=[f"{type(e).__name__}: {e}"])


def _client_process(ports: list[int], jobs: list[tuple[int, dict]], barrier, results, by_game: bool) -> None:
    outs = [{} for _ in jobs]
    cpu0 = time.process_time()
    threads = [threading.Thread(target=_client_thread, args=(ports, i, job, barrier, out, by_game))
               for (i, job), out in zip(jobs, outs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put({"cpu_s": time.process_time() - cpu0, "clients": outs})


def run_clients(ports: list[int], jobs: list[dict], procs: int, by_game: bool = False) -> dict:
    """Every job's moves, the clients released together; a move goes to the next host in turn, or (`by_game`) every
    move of a game to one host."""
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(len(jobs), timeout=120), ctx.Queue()
    numbered = list(enumerate(jobs))
    processes = [ctx.Process(target=_client_process, args=(ports, numbered[i::procs], barrier, results, by_game),
                                 daemon=True)
                 for i in range(procs) if numbered[i::procs]]
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
    latencies = sorted(x for c in clients for x in c["latencies"])
    wall = max(c["end"] for c in clients) - min(c["start"] for c in clients)
    return {"moves": len(latencies), "wall_s": wall, "rate": len(latencies) / wall, "latencies": latencies,
            "client_cpu_s": sum(r["cpu_s"] for r in collected)}


# --------------------------------------------------------------------------- hosts


def start_hosts(n: int, url: str, tmp: Path, key: bytes, cfg: dict) -> list[Server]:
    """n hosts, each in a folder of its own with its own state folder and copy of the key."""
    hosts = []
    for i in range(n):
        folder = tmp / f"host-{n}-{i}"
        folder.mkdir(parents=True)
        (folder / "signing.key").write_bytes(key)
        (folder / "signing.key").chmod(0o600)
        env = {"ARBITER_STATE_DIR": str(folder / "state"), "ARBITER_KEY_FILE": str(folder / "signing.key"),
               "PGAPPNAME": APP_NAME, "PGOPTIONS": "-c track_functions=pl"}  # the insert function's calls counted
        hosts.append(Server(url, cfg["workers"], cfg["threads"], str(folder), env, label=f"host{i}"))
    for host in hosts:
        host.start()
    return hosts


ROUTINGS = {"round-robin": False, "by game": True}


def insert_calls(conn, schema: str) -> int:
    """How many transactions have written events so far: calls of the store's locked insert function (PGOPTIONS
    turns track_functions on for the hosts' sessions; the statistics reach the view within a second)."""
    row = conn.execute("SELECT calls FROM pg_stat_user_functions WHERE schemaname = %s AND funcname LIKE %s",
                       (schema, "%insert_locked")).fetchone()
    return row[0] if row else 0


def bench_hosts(n: int, base: str, games: list[dict], cfg: dict, tmp: Path, key: bytes) -> list[dict]:
    """n hosts on a fresh schema: each routing's repetitions; one summary per routing."""
    import psycopg
    from psycopg import sql

    schema = f"arbiter_bench_hosts_{secrets.token_hex(4)}"
    url = f"{base}{'&' if '?' in base else '?'}schema={schema}"
    from service.play.referee import Referee

    Referee(url).close()  # the tables, before the hosts start (bench.api.Stores.prepare)
    hosts = start_hosts(n, url, tmp, key, cfg)
    ports = [h.port for h in hosts]
    out = []
    try:
        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            _log(f"[{n} host(s)] warm-up (untimed) ...")
            run_clients(ports, create_games(ports[0], games, cfg["warmup_moves"]), cfg["client_procs"])
            meter = Meter(conn, hosts, APP_NAME)
            for routing, by_game in ROUTINGS.items() if n > 1 else [("-", False)]:
                reps = []
                for rep in range(cfg["repeat"]):
                    _log(f"[{n} host(s), {routing}] repetition {rep + 1}/{cfg['repeat']} ...")
                    jobs = create_games(ports[rep % n], games)
                    time.sleep(1.2)
                    calls = insert_calls(conn, schema)
                    meter.start()
                    result = run_clients(ports, jobs, cfg["client_procs"], by_game)
                    result.update(meter.stop())
                    time.sleep(1.2)
                    result["transactions"] = insert_calls(conn, schema) - calls
                    check_games(ports[-1], jobs)
                    reps.append(result)
                out.append(summary(n, routing, reps))
            logs = [h.log() for h in hosts]
    finally:
        for h in hosts:
            h.stop()
        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    if any("Traceback" in log or "[ERROR]" in log for log in logs):
        raise SystemExit("bench: a host logged errors:\n" + "\n".join(log[-2000:] for log in logs))
    return out


def summary(n: int, routing: str, reps: list[dict]) -> dict:
    best = max(reps, key=lambda r: r["rate"])
    moves = sum(r["moves"] for r in reps)
    per_move = {k: 1000 * sum(r[k] for r in reps) / moves
                for k in ("hosts_cpu_s", "backends_cpu_s", "postgres_cpu_s", "client_cpu_s")}
    lat = best["latencies"]
    transactions = sum(r["transactions"] for r in reps)
    return {"hosts": n, "routing": routing, "best_rate": best["rate"], "rates": [r["rate"] for r in reps],
            "moves_per_rep": best["moves"], "p50_ms": 1000 * lat[len(lat) // 2],
            "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], "cpu_ms_per_move": per_move,
            "moves_per_transaction": moves / transactions if transactions else None,
            "backends_gone": sum(r["backends_gone"] for r in reps),
            "connections_per_host": max(r["connections"] for r in reps) / n}


# --------------------------------------------------------------------------- the pgbench references


INSERT = ("INSERT INTO {t} (originator_id, originator_version, topic, state) VALUES "
          "(gen_random_uuid(), 1, 'bench', convert_to(repeat('x', 400), 'UTF8')) RETURNING notification_id;\n")
LOCK = "SET LOCAL lock_timeout = '5s';\nLOCK TABLE {t} IN EXCLUSIVE MODE;\n"
NOTIFY = "NOTIFY {ch};\n"
# what a move's save is (service/adapters/pg_recorder.py), then each part taken away, then a setting that moves it
REFERENCE_SCRIPTS = {
    "locked insert + NOTIFY (a save)": "BEGIN;\n" + LOCK + NOTIFY + INSERT + "COMMIT;\n",
    "the same, synchronous_commit=off": "BEGIN;\nSET LOCAL synchronous_commit = off;\n" + LOCK + NOTIFY + INSERT + "COMMIT;\n",
    "insert + NOTIFY, no table lock": "BEGIN;\n" + NOTIFY + INSERT + "COMMIT;\n",
    "locked insert, no NOTIFY": "BEGIN;\n" + LOCK + INSERT + "COMMIT;\n",
    "plain insert": INSERT,
}


def pgbench_references(base: str, cfg: dict, tmp: Path) -> dict:
    """TPS and database CPU ms per transaction of each reference script, 16 clients (None without pgbench)."""
    import psycopg
    from psycopg import sql

    if shutil.which("pgbench") is None:
        return {}
    schema = f"arbiter_bench_hosts_ref_{secrets.token_hex(4)}"
    table = f"{schema}.events"
    out = {}
    with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        try:
            conn.execute(f"CREATE TABLE {table} (originator_id uuid NOT NULL, originator_version bigint NOT NULL, "
                         "topic text, state bytea, notification_id bigserial, PRIMARY KEY (originator_id, originator_version))")
            conn.execute(f"CREATE UNIQUE INDEX ON {table} (notification_id)")
            for name, script in REFERENCE_SCRIPTS.items():
                path = tmp / f"ref-{len(out)}.sql"
                path.write_text(script.format(t=table, ch=f"{schema}_ch"))
                before = postgres_cpu()
                done = subprocess.run(["pgbench", "-n", "-c", str(cfg["clients"]), "-j", "2", "-T",
                                       str(cfg["pgbench_seconds"]), "-f", str(path), base.split("?", 1)[0]],
                                      capture_output=True, text=True, timeout=120)
                db_cpu = postgres_cpu() - before
                tps, count = None, None
                for line in done.stdout.splitlines():
                    if line.startswith("tps ="):
                        tps = float(line.split()[2])
                    if "number of transactions actually processed" in line:
                        count = int(line.split(":")[1].split("/")[0])
                if tps is None or not count:
                    raise SystemExit(f"bench: pgbench failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
                out[name] = {"tps": tps, "db_cpu_ms_per_tx": 1000 * db_cpu / count, "transactions": count}
        finally:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    return out


# --------------------------------------------------------------------------- the run


def run(cfg: dict, base: str) -> dict:
    if not ARBITER.exists():
        raise SystemExit(f"bench: {ARBITER} is missing (run `make test` or pip install -e . first)")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption())
    load_before = os.getloadavg()
    _log(f"preparing {cfg['clients']} games of up to {cfg['moves_per_game']} moves ...")
    games = corpus(cfg)
    tmp = Path(tempfile.mkdtemp(prefix="arbiter-bench-hosts-"))
    try:
        results = [r for n in cfg["hosts"] for r in bench_hosts(n, base, games, cfg, tmp, key)]
        _log("pgbench references ...")
        references = pgbench_references(base, cfg, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine(),
            "config": dict(cfg), "source_digest": source_digest(),
            "load_average": {"before": load_before, "after": os.getloadavg()}, "runs": results,
            "references": references, "projection": projection(results, references)}


def projection(results: list[dict], references: dict, machines: int = 3, cores: int = 2, db_cores: int = 2) -> dict:
    """What `machines` hosts of `cores` cores and a database of `db_cores` cores would carry, from the CPU per move
    of the run with the most hosts: each side's cores / its CPU per move, and the locked insert's TPS as the
    store's serial ceiling."""
    last = max(results, key=lambda r: (r["hosts"], r["routing"] == "round-robin"))
    host_ms, db_ms = last["cpu_ms_per_move"]["hosts_cpu_s"], last["cpu_ms_per_move"]["backends_cpu_s"]
    hosts_carry = machines * cores * 1000 / host_ms
    db_carry = db_cores * 1000 / db_ms if db_ms else None
    lock = references.get("locked insert + NOTIFY (a save)", {}).get("tps")
    return {"machines": machines, "cores_per_machine": cores, "db_cores": db_cores, "host_cpu_ms_per_move": host_ms,
            "db_cpu_ms_per_move": db_ms, "hosts_carry_moves_per_s": hosts_carry, "db_carry_moves_per_s": db_carry,
            "locked_insert_tps": lock,
            "bound_moves_per_s": min(x for x in (hosts_carry, db_carry) if x is not None)}


def print_report(result: dict) -> None:
    m, cfg = result["machine"], result["config"]
    print(f"arbiter several-hosts benchmark  {result['date']}  (source {result['source_digest']})")
    print(f"machine: {m['platform']}, {m['python']}, {m['cpu_count']} CPUs; load average before "
          f"{' '.join(f'{x:.2f}' for x in result['load_average']['before'])}, after "
          f"{' '.join(f'{x:.2f}' for x in result['load_average']['after'])} (a shared machine: rates swing, CPU per move "
          "holds)")
    print(f"each host: arbiter serve --workers {cfg['workers']} --threads {cfg['threads']}; {cfg['clients']} clients over "
          f"{cfg['client_procs']} processes, a move's request to the next host in turn, best of {cfg['repeat']}")
    print(f"{'hosts':>5} {'routing':>11} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'moves/tx':>8} "
          f"{'conns/host':>10} | "
          f"CPU ms per move: {'hosts':>6} {'backends':>8} {'all PG':>7} {'clients':>7}")
    for r in result["runs"]:
        c = r["cpu_ms_per_move"]
        per_tx = f"{r['moves_per_transaction']:.2f}" if r["moves_per_transaction"] else "?"
        print(f"{r['hosts']:>5} {r['routing']:>11} {r['moves_per_rep']:>6} {r['best_rate']:>8.0f} {r['p50_ms']:>7.1f} "
              f"{r['p99_ms']:>7.1f} {per_tx:>8} {r['connections_per_host']:>10.0f} | {'':17}{c['hosts_cpu_s']:>6.2f} {c['backends_cpu_s']:>8.2f} "
              f"{c['postgres_cpu_s']:>7.2f} {c['client_cpu_s']:>7.2f}")
    for name, ref in result["references"].items():
        print(f"reference pgbench, {name:34} {cfg['clients']} clients: {ref['tps']:>6.0f} tx/s, "
              f"{ref['db_cpu_ms_per_tx']:.2f} ms of database CPU a transaction")
    p = result["projection"]
    print(f"projection: {p['machines']} hosts of {p['cores_per_machine']} cores carry {p['hosts_carry_moves_per_s']:.0f} "
          f"moves/s ({p['host_cpu_ms_per_move']:.2f} ms a move); a database of {p['db_cores']} cores "
          f"{p['db_carry_moves_per_s']:.0f} moves/s ({p['db_cpu_ms_per_move']:.2f} ms a move); the bound: "
          f"{p['bound_moves_per_s']:.0f} moves/s; the locked insert alone: {p['locked_insert_tps'] or 0:.0f} tx/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hosts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK['moves_per_game']} moves a game, one repetition")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (progress goes to stderr)")
    parser.add_argument("--hosts", help="numbers of hosts, comma-separated (default 1,2,3)")
    parser.add_argument("--clients", type=int, help="concurrent clients, each with its own game (default 16)")
    parser.add_argument("--repeat", type=int, help="timed repetitions (default 2, or 1 with --quick)")
    parser.add_argument("--workers", type=int, help="gunicorn workers per host (default 1)")
    parser.add_argument("--threads", type=int, help="threads per worker (default 8)")
    parser.add_argument("--postgres", default=os.environ.get(POSTGRES_ENV, DEFAULT_POSTGRES),
                        help=f"PostgreSQL base URL (default ${POSTGRES_ENV} or {DEFAULT_POSTGRES})")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    for name in ("clients", "repeat", "workers", "threads"):
        if getattr(args, name):
            cfg[name] = getattr(args, name)
    if args.hosts:
        cfg["hosts"] = [int(x) for x in args.hosts.split(",")]
    result = run(cfg, args.postgres)
    if args.json:
        print(json.dumps(result))
    else:
        print_report(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
