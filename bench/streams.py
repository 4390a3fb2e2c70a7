"""Live-stream benchmark: many open event streams while clients play, through the real server.

For each server configuration (default: the new stack, `arbiter serve --worker-class uvicorn`, and the old
one, `--worker-class gthread` with 1 worker x 32 threads as `make run` served before, measured in the same
run), started exactly as a user would start it:

    arbiter serve --port P --database-url URL --workers W --threads T --worker-class K

(1) ``games``        G games of 4-player El Royale (revised) are created (POST /games) from explicit seeds; each
                     game's moves are prepared in memory by random legal play through the bare decider (as in
                     bench.api), so every move sent is legal and its resulting version is known. A game's last
                     move is left out when it would end the game: after the end every viewer's log discloses every
                     card (projections/event_log.py), while the entries streamed before it were, rightly, redacted,
                     so the exact comparison below holds only for games still in progress. (Before 2026-11-23 no
                     game ended within a run; at ~600 moves/s one of the 100 did, and its 9 non-referee
                     subscribers differed from the disclosed log at their first hidden draw.)
(2) ``subscribers``  S per game (4 seats, the referee, the rest spectators) open GET /api/v1/games/{id}/stream
                     at once, from asyncio client processes (one TCP connection each, HTTP/1.0, Last-Event-ID =
                     the game's version at creation). A stream that ends (the server's STREAM_SECONDS, or the
                     game's end) is reopened with Last-Event-ID = the last id received; halfway through the run,
                     every tenth subscriber drops its connection and reconnects the same way (resume check).
(3) ``play``         C clients (threads over 2 processes, a new connection per request as bench.api) play moves
                     for D seconds, each cycling over its share of the games (client i: games i, i+C, ...), one
                     move at a time, back to back; each move's send time is kept for every version it produced.
(4) ``health``       all along (from before the subscribers connect to the end), one prober sends GET
                     /api/v1/health every 25 ms (a new connection each, timeout 5 s).

Checks after the run (the run fails on any): every subscriber received exactly the entries that
GET /games/{id}/events?after=<start> gives its token afterwards (same versions, same order, same JSON:
nothing hidden, nothing missing, no duplicate), including across its reconnects. A mismatch is reported with the
subscriber's role and game and the first differing entry on both sides (each as that subscriber's token may see it).

Measures: subscribers connected (answered 200) and how long it took; delivery latency per (subscriber, event):
the time from the client sending the move to the subscriber having read the event (CLOCK_MONOTONIC across
processes), p50/p99/max; health latency p50/p99/max and how many probes were answered; moves/s during the
play phase; CPU seconds of the workers and of the client processes. The old stack cannot hold the
subscribers: its run is bounded (connections and requests time out) and only reports what got through.

Targets (2-core machine; reported as PASS/MISS, never asserted): all subscribers connected; every entry
delivered (checked); delivery p99 <= 1 s; health p99 <= 50 ms with every probe answered.

Usage:  python -m bench.streams [--quick] [--json] [--games G] [--per-game S] [--clients C] [--seconds D]
                                [--configs uvicorn,gthread] [--postgres URL | --no-postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import threading
import time

from bench.api import (ARBITER, DEFAULT_POSTGRES, POSTGRES_ENV, Server, Stores, _call, _connection, machine,
                       prepared_game, source_digest)

FULL = {"games": 100, "per_game": 10, "clients": 16, "seconds": 30.0, "moves_per_game": 400, "subscriber_procs": 2,
        "reference_seconds": 15.0, "connect_seconds": 8.0}
QUICK = {"games": 20, "per_game": 10, "clients": 4, "seconds": 6.0, "moves_per_game": 120, "subscriber_procs": 1,
         "reference_seconds": 0.0, "connect_seconds": 2.0}
CONFIGS = {  # name: (worker class, workers, threads)
    "uvicorn": ("uvicorn", 2, 8),
    "gthread": ("gthread", 1, 32),  # make run before the event loop: every open stream holds one of 32 threads
}
TARGET_DELIVERY_P99_S = 1.0
TARGET_HEALTH_P99_MS = 50.0
HEALTH_EVERY = 0.025
HEALTH_TIMEOUT = 5.0
CONNECT_TIMEOUT = 20.0
DRAIN_SECONDS = 5.0  # after the last move: time for the last events to reach every subscriber
SEED = 2026


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


# --------------------------------------------------------------------------- the server


def make_server(url: str, config: str, log_dir: str, workers: int | None = None) -> Server:
    """`arbiter serve` as a subprocess (bench.api.Server) with a configuration of CONFIGS."""
    worker_class, default_workers, threads = CONFIGS[config]
    return Server(url, workers or default_workers, threads, log_dir, worker_class=worker_class, label=f"server-{config}")


# --------------------------------------------------------------------------- subscribers (asyncio client processes)


async def _subscriber(port: int, sub: dict, t_mid: float, t_stop: float, out: dict) -> None:
    """One subscriber: reads its stream, reconnecting with Last-Event-ID, until t_stop."""
    perf = time.perf_counter
    last = sub["after"]
    auth = f"Authorization: Bearer {sub['token']}\r\n" if sub["token"] else ""
    dropped = not sub["drop"]
    while perf() < t_stop:
        writer = None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), CONNECT_TIMEOUT)
            writer.write((f"GET /api/v1/games/{sub['game']}/stream HTTP/1.0\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                          f"{auth}Last-Event-ID: {last}\r\n\r\n").encode())
            status = await asyncio.wait_for(reader.readline(), max(0.1, min(CONNECT_TIMEOUT, t_stop - perf())))
            if b" 200 " not in status:
                out["errors"].append(f"status {status[:60]!r}")
                await asyncio.sleep(1.0)
                continue
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            out["connects"] += 1
            if out["connected_at"] is None:
                out["connected_at"] = perf()
            version = None
            while True:
                timeout = t_stop - perf()
                if not dropped:
                    timeout = min(timeout, t_mid - perf())
                if timeout <= 0:
                    if not dropped and perf() < t_stop:
                        dropped = True
                        out["drops"] += 1
                        break  # drop the connection on purpose and resume from the last id
                    return
                try:
                    line = await asyncio.wait_for(reader.readline(), timeout)
                except asyncio.TimeoutError:
                    continue
                if not line:
                    break  # the server ended the stream: resume
                if line.startswith(b"id:"):
                    version = int(line[3:])
                elif line.startswith(b"data:") and version is not None:
                    out["got"].append((version, perf(), line[5:].strip().decode()))
                    last = version
                    version = None
        except (OSError, asyncio.TimeoutError) as e:
            out["errors"].append(f"{type(e).__name__}: {e}"[:100])
            await asyncio.sleep(0.5)
        finally:
            if writer is not None:
                writer.close()


def _fetch_log(port: int, sub: dict) -> list[dict]:
    status, log = _call(port, "GET", f"/api/v1/games/{sub['game']}/events?after={sub['after']}", token=sub["token"])
    if status != 200:
        raise RuntimeError(f"GET /events answered {status}")
    return log


def _subscriber_process(port: int, subs: list[dict], t_mid: float, t_stop: float, verify: bool, results) -> None:
    outs = [{"connects": 0, "drops": 0, "connected_at": None, "got": [], "errors": []} for _ in subs]

    async def main() -> None:
        await asyncio.gather(*(_subscriber(port, s, t_mid, t_stop, o) for s, o in zip(subs, outs)))

    asyncio.run(main())
    cpu = time.process_time()
    summary = []
    for sub, out in zip(subs, outs):
        got = out.pop("got")
        out["received"] = [(v, t) for v, t, _ in got]
        if verify and out["connected_at"] is not None:
            try:
                expected = _fetch_log(port, sub)
            except (OSError, RuntimeError) as e:
                out["errors"].append(f"log: {e}")
                expected = None
            if expected is not None:
                seen = [(v, json.loads(d)) for v, _, d in got]
                want = [(e["version"], e) for e in expected]
                out["exact"] = seen == want
                if not out["exact"]:
                    first = next((i for i, (a, b) in enumerate(zip(seen, want)) if a != b), None)
                    out["mismatch"] = {"got": [v for v, _ in seen][:40], "want": [v for v, _ in want][:40],
                                       "first_diff": first, "role": sub.get("role"), "game": sub.get("game"),
                                       "got_entry": None if first is None else seen[first][1],
                                       "want_entry": None if first is None else want[first][1]}
        summary.append(out)
    results.put({"cpu_s": cpu, "subs": summary})


# --------------------------------------------------------------------------- players and the health prober


def _player_thread(port: int, jobs: list[dict], t_start: float, t_end: float, out: dict) -> None:
    """Play the games round robin, one move each in turn, from t_start until t_end."""
    perf = time.perf_counter
    sent: dict[tuple[str, int], float] = {}
    moves = errors = 0
    cursor = {j["game"]: 0 for j in jobs}
    while perf() < t_start:
        time.sleep(0.001)
    while perf() < t_end:
        progressed = False
        for job in jobs:
            i = cursor[job["game"]]
            if i >= len(job["moves"]) or perf() >= t_end:
                continue
            seat, body, version = job["moves"][i]
            before = job["moves"][i - 1][2] if i else job["start_version"]
            t0 = perf()
            try:
                conn = _connection(port)
                conn.sock.settimeout(10)
                conn.request("POST", f"/api/v1/games/{job['game']}/moves", body=json.dumps(body),
                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {job['tokens'][seat]}",
                                      "Connection": "close"})
                resp = conn.getresponse()
                data = resp.read()
                conn.close()
            except OSError:
                errors += 1
                continue
            if resp.status != 200 or json.loads(data)["version"] != version:
                raise RuntimeError(f"move answered {resp.status} {data[:200]!r}, expected version {version}")
            for v in range(before + 1, version + 1):
                sent[(job["game"], v)] = t0
            cursor[job["game"]] = i + 1
            moves += 1
            progressed = True
        if not progressed:
            break
    out.update(sent=sent, moves=moves, errors=errors, cursor=cursor)


def _player_process(port: int, shares: list[list[dict]], t_start: float, t_end: float, results) -> None:
    outs = [{} for _ in shares]
    threads = [threading.Thread(target=_player_thread, args=(port, jobs, t_start, t_end, o)) for jobs, o in zip(shares, outs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put({"cpu_s": time.process_time(), "clients": outs})


def _health_prober(port: int, t_stop: float, out: list) -> None:
    perf = time.perf_counter
    while perf() < t_stop:
        t0 = perf()
        try:
            conn = _connection(port)
            conn.sock.settimeout(HEALTH_TIMEOUT)
            conn.request("GET", "/api/v1/health", headers={"Connection": "close"})
            ok = conn.getresponse().status == 200
            conn.close()
        except OSError:
            ok = False
        out.append((t0, perf() - t0 if ok else None))
        time.sleep(max(0.0, HEALTH_EVERY - (perf() - t0)))


# --------------------------------------------------------------------------- one server


def create_games(port: int, games: list[dict]) -> list[dict]:
    jobs = []
    for g in games:
        status, created = _call(port, "POST", "/api/v1/games", g["spec"])
        if status != 201 or created["version"] != g["start_version"]:
            raise SystemExit(f"bench: POST /games answered {status} {str(created)[:300]}")
        jobs.append({"game": created["id"], "tokens": [s["token"] for s in created["seats"]], "referee": created["referee_token"],
                     "start_version": g["start_version"], "moves": g["moves"]})
    return jobs


def subscriptions(jobs: list[dict], per_game: int) -> list[dict]:
    """Per game: the 4 seats, the referee, then spectators, up to `per_game`."""
    subs = []
    for job in jobs:
        viewers = [("seat", t) for t in job["tokens"]] + [("referee", job["referee"])]
        viewers += [("spectator", None)] * max(0, per_game - len(viewers))
        for role, token in viewers[:per_game]:
            subs.append({"game": job["game"], "token": token, "role": role, "after": job["start_version"]})
    for i, s in enumerate(subs):
        s["drop"] = i % 10 == 5
    return subs


def bench_server(store: str, url: str, config: str, games: list[dict], cfg: dict, log_dir: str, seconds: float,
                 verify: bool, workers: int | None = None) -> dict:
    server = make_server(url, config, log_dir, workers)
    _log(f"[{store}/{config}] arbiter serve --workers {server.workers} --threads {server.threads} "
         f"--worker-class {server.worker_class} ...")
    server.start()
    ctx = multiprocessing.get_context("fork")
    try:
        jobs = create_games(server.port, games)
        subs = subscriptions(jobs, cfg["per_game"])
        perf = time.perf_counter
        t0 = perf()
        t_play = t0 + (cfg["connect_seconds"] if verify else CONNECT_TIMEOUT)  # play once subscribers had time to connect
        t_end = t_play + seconds
        t_stop = t_end + (DRAIN_SECONDS if verify else 1.0)
        t_mid = t_play + seconds / 2
        health: list = []
        prober = threading.Thread(target=_health_prober, args=(server.port, t_stop, health))
        prober.start()
        sub_results, play_results = ctx.Queue(), ctx.Queue()
        procs = [ctx.Process(target=_subscriber_process, args=(server.port, subs[i::cfg["subscriber_procs"]], t_mid, t_stop,
                                                              verify, sub_results), daemon=True)
                 for i in range(cfg["subscriber_procs"])]
        for p in procs:
            p.start()
        _log(f"[{store}/{config}] {len(subs)} subscribers connecting; play from +{t_play - t0:.0f} s for {seconds:.0f} s ...")
        clients = [jobs[i::cfg["clients"]] for i in range(cfg["clients"])]
        players = [ctx.Process(target=_player_process, args=(server.port, clients[k::2], t_play, t_end, play_results), daemon=True)
                   for k in range(2)]
        cpu_before = server.workers_cpu()
        for p in players:
            p.start()
        spies = []
        if cfg.get("profile"):
            from bench import pyspy
            while perf() < t_play:
                time.sleep(0.05)
            spies = pyspy.start(list(cpu_before), cfg["profile"], f"{store}-{config}", gil=cfg.get("profile_gil", True))
        try:
            played = [play_results.get(timeout=seconds + 600) for _ in players]
        finally:
            if spies:
                pyspy.stop(spies)
        cpu_after = server.workers_cpu()
        subbed = [sub_results.get(timeout=seconds + 900) for _ in procs]
        prober.join()
        for p in procs + players:
            p.join(timeout=30)
        log = server.log()
    finally:
        server.stop()
    problems = [line for line in log.splitlines() if "[ERROR]" in line or "Traceback" in line]
    return summarise(store, config, server, subs, subbed, played, health, (t0, t_play, t_end), cpu_before, cpu_after,
                     problems, verify)


def summarise(store, config, server, subs, subbed, played, health, times, cpu_before, cpu_after, problems, verify) -> dict:
    t0, t_play, t_end = times
    results = [s for r in subbed for s in r["subs"]]
    ordered = [None] * len(subs)
    k = len(subbed)
    for i, r in enumerate(subbed):  # subscriber process i had subs[i::k]
        for j, s in enumerate(r["subs"]):
            ordered[i + j * k] = s
    sent = {}
    moves = errors = 0
    for p in played:
        for c in p["clients"]:
            sent.update(c["sent"])
            moves += c["moves"]
            errors += c["errors"]
    latencies = []
    for sub, res in zip(subs, ordered):
        for version, t in res["received"]:
            t_sent = sent.get((sub["game"], version))
            if t_sent is not None:
                latencies.append(t - t_sent)
    connected = [r for r in results if r["connected_at"] is not None]
    connect_s = max((r["connected_at"] for r in connected), default=t0) - t0
    exact = [r.get("exact") for r in results]
    answered = [lat for _, lat in health if lat is not None]
    during_play = [lat for t, lat in health if t_play <= t <= t_end]
    out = {
        "store": store, "config": config, "workers": server.workers, "threads": server.threads, "worker_class": server.worker_class,
        "subscribers": len(subs), "connected": len(connected), "connect_s": connect_s,
        "reconnects": sum(r["connects"] for r in results) - len(connected), "deliberate_drops": sum(r["drops"] for r in results),
        "entries_received": sum(len(r["received"]) for r in results),
        "exact": sum(1 for e in exact if e), "inexact": sum(1 for e in exact if e is False),
        "mismatches": [r["mismatch"] for r in results if r.get("mismatch")][:3],
        "subscriber_errors": sum(len(r["errors"]) for r in results),
        "delivery_p50_s": _pct(latencies, 0.5), "delivery_p99_s": _pct(latencies, 0.99),
        "delivery_max_s": max(latencies) if latencies else None, "deliveries_timed": len(latencies),
        "moves": moves, "move_errors": errors, "moves_per_s": moves / (t_end - t_play),
        "health_probes": len(health), "health_answered": len(answered),
        "health_p50_ms": _ms(_pct(answered, 0.5)), "health_p99_ms": _ms(_pct(answered, 0.99)),
        "health_max_ms": _ms(max(answered) if answered else None),
        "health_play_p99_ms": _ms(_pct([x for x in during_play if x is not None], 0.99)),
        "health_play_answered": f"{sum(1 for x in during_play if x is not None)}/{len(during_play)}",
        "worker_cpu_s": sorted(round(cpu_after[p] - cpu_before[p], 1) for p in cpu_before
                               if cpu_before.get(p) is not None and cpu_after.get(p) is not None),
        "client_cpu_s": [round(r["cpu_s"], 1) for r in subbed + played],
        "server_errors": problems[:5],
        "verified": verify,
    }
    if verify:
        out["targets"] = {
            "connected": out["connected"] == out["subscribers"],
            "every_entry_exact": out["inexact"] == 0 and out["exact"] == out["subscribers"],
            "delivery_p99": out["delivery_p99_s"] is not None and out["delivery_p99_s"] <= TARGET_DELIVERY_P99_S,
            "health_p99": (out["health_p99_ms"] or 1e9) <= TARGET_HEALTH_P99_MS and out["health_answered"] == out["health_probes"],
        }
    return out


def _ms(x: float | None) -> float | None:
    return None if x is None else 1000 * x


# --------------------------------------------------------------------------- the run


def run(cfg: dict, postgres: str | None, configs: list[str]) -> dict:
    if not ARBITER.exists():
        raise SystemExit(f"bench: {ARBITER} is missing (run `make test` or pip install -e . first)")
    load_before = os.getloadavg()
    _log(f"preparing {cfg['games']} games of up to {cfg['moves_per_game']} moves (random legal play, seed {SEED}) ...")
    rng = random.Random(SEED)
    games = [prepared_game(f"{SEED:04x}{i:04x}", rng, cfg["moves_per_game"]) for i in range(cfg["games"])]
    for game in games:  # no game ends during the run (the docstring says why)
        if game["over"]:
            game["moves"].pop()
    tmp = tempfile.mkdtemp(prefix="arbiter-bench-streams-")
    stores = Stores(tmp, postgres)
    stores.probe_postgres()
    runs = []
    try:
        for store, url in stores.urls().items():
            stores.prepare(store)
            for config in configs:
                if store == "postgres" and config != "uvicorn":
                    continue  # the old stack's limit is the same on either store
                reference = config != "uvicorn"
                seconds = cfg["reference_seconds"] if reference else cfg["seconds"]
                if reference and seconds <= 0:
                    continue
                runs.append(bench_server(store, url.replace("api.db", f"streams-{config}.db"), config, games, cfg, tmp,
                                         seconds, verify=not reference))
    finally:
        stores.drop_postgres()
        shutil.rmtree(tmp, ignore_errors=True)
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine(),
            "config": cfg, "source_digest": source_digest(), "postgres_note": stores.postgres_note,
            "load_average": {"before": load_before, "after": os.getloadavg()}, "runs": runs}


def print_table(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console() if Console().is_terminal else Console(width=160)
    m, cfg = result["machine"], result["config"]
    console.print(f"[bold]arbiter live-stream benchmark[/bold]  {result['date']}  ({m['cpu_count']} CPUs, {m['python']})")
    console.print(f"{cfg['games']} games x {cfg['per_game']} subscribers, {cfg['clients']} playing clients; load average "
                  f"before {' '.join(f'{x:.2f}' for x in result['load_average']['before'])} (a shared machine: noisy)")
    if result["postgres_note"]:
        console.print(f"[yellow]{result['postgres_note']}[/yellow]")
    table = Table()
    for col in ("store", "server", "connected", "entries", "exact", "delivery p50/p99/max s", "moves/s",
                "health answered", "health p50/p99/max ms", "worker CPU s", "client CPU s"):
        table.add_column(col, justify="left" if col in ("store", "server") else "right")

    def f(x, fmt):
        return "—" if x is None else fmt.format(x)

    for r in result["runs"]:
        table.add_row(r["store"], f"{r['worker_class']} {r['workers']}x{r['threads']}",
                      f"{r['connected']}/{r['subscribers']} in {r['connect_s']:.1f} s", f"{r['entries_received']:,}",
                      f"{r['exact']}/{r['subscribers']}" if r["verified"] else "not checked",
                      f"{f(r['delivery_p50_s'], '{:.3f}')} / {f(r['delivery_p99_s'], '{:.3f}')} / {f(r['delivery_max_s'], '{:.2f}')}",
                      f"{r['moves_per_s']:.0f}", f"{r['health_answered']}/{r['health_probes']}",
                      f"{f(r['health_p50_ms'], '{:.1f}')} / {f(r['health_p99_ms'], '{:.1f}')} / {f(r['health_max_ms'], '{:.0f}')}",
                      " + ".join(str(x) for x in r["worker_cpu_s"]), " + ".join(str(x) for x in r["client_cpu_s"]))
    console.print(table)
    for r in result["runs"]:
        if r.get("targets"):
            verdicts = ", ".join(f"{k} {'PASS' if v else 'MISS'}" for k, v in r["targets"].items())
            console.print(f"{r['store']}/{r['worker_class']}: {verdicts}; reconnects {r['reconnects']} "
                          f"(deliberate drops {r['deliberate_drops']}); health p99 while playing {f(r['health_play_p99_ms'], '{:.1f}')} ms")
        if r["mismatches"]:
            console.print(f"[red]{r['store']}/{r['worker_class']}: mismatches {r['mismatches']}[/red]")
        if r["server_errors"]:
            console.print(f"[red]{r['store']}/{r['worker_class']}: server errors {r['server_errors']}[/red]")


def failed(result: dict) -> list[str]:
    """What makes a checked run fail (an entry missing, extra, out of order or different; a server error)."""
    out = []
    for r in result["runs"]:
        if r["verified"] and (r["inexact"] or r["exact"] != r["subscribers"]):
            out.append(f"{r['store']}/{r['worker_class']}: {r['subscribers'] - r['exact']} subscribers did not receive "
                       f"exactly their event log: {r['mismatches']}")
        if r["verified"] and r["server_errors"]:
            out.append(f"{r['store']}/{r['worker_class']}: the server logged errors: {r['server_errors']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20 games x 10 subscribers, 4 clients, 6 s, "
                                                             "no reference server")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int)
    parser.add_argument("--per-game", type=int, dest="per_game")
    parser.add_argument("--clients", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--reference-seconds", type=float, dest="reference_seconds",
                        help="how long the old stack (gthread) is run; 0 skips it")
    parser.add_argument("--configs", default="gthread,uvicorn", help="servers to run, in order (default gthread,uvicorn)")
    parser.add_argument("--profile", metavar="DIR", help="sample each worker with py-spy while the clients play (raw "
                                                         "files into DIR) and print where the CPU went (bench.pyspy)")
    parser.add_argument("--profile-all-threads", action="store_true", dest="profile_all",
                        help="py-spy without --gil: threads waiting in C with the GIL released (SQLite) count too")
    pg = parser.add_mutually_exclusive_group()
    pg.add_argument("--postgres", default=os.environ.get(POSTGRES_ENV, DEFAULT_POSTGRES))
    pg.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    for key in ("games", "per_game", "clients", "seconds", "reference_seconds"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    cfg["quick"] = args.quick
    cfg["profile"], cfg["profile_gil"] = args.profile, not args.profile_all
    result = run(cfg, None if args.no_postgres else args.postgres, args.configs.split(","))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    if args.profile:
        from pathlib import Path

        from bench import pyspy
        files = sorted(Path(args.profile).glob("*.txt"))
        print(f"\n== where the workers' CPU went while the clients played (py-spy, {len(files)} files in {args.profile})")
        print(pyspy.report(pyspy.read(files)))
    problems = failed(result)
    for p in problems:
        _log(f"bench: FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
