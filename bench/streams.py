"""Live-stream benchmark: many open event streams while clients play, through the real server.

Each measurement starts a fresh server and store, exactly as a user would start it:

    arbiter serve --port P --database-url URL --workers 2 --threads 8 --worker-class uvicorn

and is made for each build: today's code and, with ``--against [NAME=]CHECKOUT`` (`make bench-streams`: the
release before, ed4b86b, in its own worktree and venv; may be given more than once), that checkout's ``arbiter``
beside it, in the same run, each round beginning one build further on (two builds: round 1 the release then today,
round 2 today then the release; ``--rounds``), each build once without
any subscriber (the moves' own rate on that build at that moment, ``--baseline-seconds``) and once with them. The
machine may be shared: each measurement records the load average (`uptime`) before and after it, and only the
ratios between builds measured side by side mean much on a loaded machine. (``--configs gthread`` adds the old
thread-per-stream stack of today's code as a bounded reference.)

(0) ``held``         a tenth of the games (``held_share``) are a duplicate tournament's: teams of two, two teams a
                     table, round 1 plays one board at every table, so each of these games is held (no spectator,
                     its end kept from its seats: service.tournaments.embargo) while the run lasts; a spectator's
                     GET /events of each is checked refused (403) on today's code. Their seed is the tournament's
                     secret, so they are played live: the referee's view says who is to act, that seat's view its
                     legal moves, one is sent (the same on both builds). Their subscribers are their seats and
                     referee (no spectator may subscribe; a held game's other subscribers are its seats again).
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
                     A subscriber reads whatever its connection holds at once (`Messages`), so the time an event is
                     read is when the server's write reached it, not when its own process got round to each line.
(3) ``play``         C clients (threads over 2 processes, a new connection per request as bench.api) play moves
                     for D seconds, each cycling over its share of the games (client i: games i, i+C, ...), one
                     move at a time, back to back; each move's send time is kept for every version it produced.
(4) ``health``       all along (from before the subscribers connect to the end), one prober sends GET
                     /api/v1/health every 25 ms (a new connection each, timeout 5 s).

Checks after the run (the run fails on any): every subscriber received exactly the entries that
GET /games/{id}/events?after=<start> gives its token afterwards (same versions, same order, same JSON:
nothing hidden, nothing missing, no duplicate), including across its reconnects. A mismatch is reported with the
subscriber's role and game and the first differing entry on both sides (each as that subscriber's token may see it).
A held game played live may end within the run (none did in the runs of docs/benchmarks.md): on the release, which
has no hold, its seats' logs then disclose what their streams had redacted, so such a game's non-referee subscribers
are reported as not compared rather than failed.

Measures: subscribers connected (answered 200) and how long it took; delivery latency per (subscriber, event):
the time from the client sending the move to the subscriber having read the event (CLOCK_MONOTONIC across
processes), p50/p99/max; health latency p50/p99/max and how many probes were answered; moves/s during the
play phase; CPU seconds of the workers and of the client processes. The old stack cannot hold the
subscribers: its run is bounded (connections and requests time out) and only reports what got through.

Targets (2-core machine, quiet; reported as PASS/MISS, never asserted): all subscribers connected; every entry
delivered (checked); delivery p99 <= 1 s; health p99 <= 50 ms with every probe answered; moves/s with the
subscribers >= 0.7x the same build's rate without any (`moves_kept`).

Usage:  python -m bench.streams [--quick] [--json] [--games G] [--per-game S] [--clients C] [--seconds D]
                                [--against CHECKOUT] [--rounds R] [--baseline-seconds B] [--profile DIR]
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
import subprocess
import time
from pathlib import Path

from bench.api import (ARBITER, DEFAULT_POSTGRES, GAME, POSTGRES_ENV, Server, Stores, _call, _connection, machine,
                       prepared_game, source_digest)
from domain.autoplay import pick_move

FULL = {"games": 100, "per_game": 10, "clients": 16, "seconds": 30.0, "moves_per_game": 400, "subscriber_procs": 2,
        "reference_seconds": 0.0, "connect_seconds": 8.0, "held_share": 0.1, "baseline_seconds": 20.0, "rounds": 2}
QUICK = {"games": 20, "per_game": 10, "clients": 4, "seconds": 6.0, "moves_per_game": 120, "subscriber_procs": 1,
         "reference_seconds": 0.0, "connect_seconds": 2.0, "held_share": 0.1, "baseline_seconds": 0.0, "rounds": 1}
CONFIGS = {  # name: (worker class, workers, threads)
    "uvicorn": ("uvicorn", 2, 8),
    "gthread": ("gthread", 1, 32),  # make run before the event loop: every open stream holds one of 32 threads
}
TARGET_DELIVERY_P99_S = 1.0
TARGET_HEALTH_P99_MS = 50.0
TARGET_MOVES_KEPT = 0.7  # moves/s with the subscribers over moves/s without any, the same build in the same run
HEALTH_EVERY = 0.025
HEALTH_TIMEOUT = 5.0
CONNECT_TIMEOUT = 20.0
READ_BYTES = 1 << 16  # a subscriber reads whatever is there, up to this much at a time
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


def make_server(url: str, config: str, log_dir: str, workers: int | None = None, arbiter: Path | None = None,
                label: str = "") -> Server:
    """`arbiter serve` as a subprocess (bench.api.Server) with a configuration of CONFIGS; `arbiter`: another
    checkout's (the release's) instead of this one's."""
    worker_class, default_workers, threads = CONFIGS[config]
    return Server(url, workers or default_workers, threads, log_dir, worker_class=worker_class,
                  label=f"server-{label}{config}", arbiter=arbiter)


# --------------------------------------------------------------------------- subscribers (asyncio client processes)


class Messages:
    """The events of one SSE connection's body, as its bytes arrive: `feed` returns each (version, time, data) whose
    `data:` line is complete, with the time given (when the bytes were read); a line cut between two reads waits for
    the rest. (The reader before 2026-11-29 awaited each line with its own timeout: four tasks and timers per event,
    so the 1,000 subscribers' own processes, on the server's two cores, fell behind what the server had written.)"""

    __slots__ = ("_rest", "_version")

    def __init__(self):
        self._rest = b""
        self._version: int | None = None

    def feed(self, chunk: bytes, now: float) -> list[tuple[int, float, str]]:
        lines = (self._rest + chunk).split(b"\n")
        self._rest = lines.pop()  # an unfinished line (b"" after a newline)
        got = []
        for line in lines:
            if line.startswith(b"id:"):
                self._version = int(line[3:])
            elif line.startswith(b"data:") and self._version is not None:
                got.append((self._version, now, line[5:].strip().decode()))
                self._version = None
        return got


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
            messages = Messages()
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
                try:  # whatever the server wrote so far, at once: one read, one clock reading, however many messages
                    chunk = await asyncio.wait_for(reader.read(READ_BYTES), timeout)
                except asyncio.TimeoutError:
                    continue
                if not chunk:
                    break  # the server ended the stream: resume
                got = messages.feed(chunk, perf())
                if got:
                    out["got"].extend(got)
                    last = got[-1][0]
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
    moves = errors = live = 0
    cursor = {j["game"]: 0 for j in jobs}
    rng = random.Random(f"{SEED}:{jobs[0]['game'] if jobs else ''}")
    ended: list[str] = []
    while perf() < t_start:
        time.sleep(0.001)
    while perf() < t_end:
        progressed = False
        for job in jobs:
            if job.get("live"):  # a duplicate board's game: its moves are read from its seats' views as it goes
                if cursor[job["game"]] >= job["limit"] or job["game"] in ended or perf() >= t_end:
                    continue
                try:
                    done = _live_move(port, job, rng, sent)
                except OSError:
                    errors += 1
                    continue
                if done is None:
                    ended.append(job["game"])
                    continue
                cursor[job["game"]] += done
                moves += done
                live += done
                progressed = True
                continue
            i = cursor[job["game"]]
            if i >= len(job["moves"]) or perf() >= t_end:
                continue
            seat, body, version = job["moves"][i]
            before = job["moves"][i - 1][2] if i else job["start_version"]
            t0 = perf()
            try:
                status, data = _post_move(port, job["game"], job["tokens"][seat], body)
            except OSError:
                errors += 1
                continue
            if status != 200 or json.loads(data)["version"] != version:
                raise RuntimeError(f"move answered {status} {data[:200]!r}, expected version {version}")
            for v in range(before + 1, version + 1):
                sent[(job["game"], v)] = t0
            cursor[job["game"]] = i + 1
            moves += 1
            progressed = True
        if not progressed:
            break
    out.update(sent=sent, moves=moves, errors=errors, cursor=cursor, ended=ended, live_moves=live)


def _post_move(port: int, game: str, token: str, body: dict) -> tuple[int, bytes]:
    """POST one move on a new connection (as a player's client would), its status and body; OSError on the wire."""
    conn = _connection(port)
    conn.sock.settimeout(10)
    conn.request("POST", f"/api/v1/games/{game}/moves", body=json.dumps(body),
                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}", "Connection": "close"})
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, data


def _live_move(port: int, job: dict, rng: random.Random, sent: dict) -> int | None:
    """One move of a game whose moves are not known beforehand (a duplicate board: its seed is the tournament's
    secret), as a player's client makes it: the referee's view says who is to act, that seat's view its legal moves;
    a random one is sent. Returns 1 (a move), 0 (nothing to do now) or None (the game is over)."""
    status, ref = _call(port, "GET", f"/api/v1/games/{job['game']}/view", token=job["referee"])
    if status != 200:
        raise RuntimeError(f"GET /view (referee) answered {status}")
    if ref["status"] != "in_progress":
        return None
    seat = ref["table"].get("to_act")
    if seat is None:
        return 0
    status, mine = _call(port, "GET", f"/api/v1/games/{job['game']}/view", token=job["tokens"][seat])
    legal = mine["table"].get("legal_moves") or [] if status == 200 else []
    if not legal or mine["version"] != ref["version"]:
        return 0
    move = pick_move(legal, rng)
    body = {"type": move["type"], "expected_version": mine["version"]}
    if move["type"] == "take" and "from" in move:  # the take phase's one summary entry (ER-5.2): any k or fewer
        body["cards"] = rng.sample(move["from"], rng.randint(0, move["max"]))
    elif "cards" in move:
        body["cards"] = move["cards"]
    t0 = time.perf_counter()
    status, data = _post_move(port, job["game"], job["tokens"][seat], body)
    if status != 200:
        raise RuntimeError(f"a live move answered {status} {data[:200]!r}")
    version = json.loads(data)["version"]
    for v in range(mine["version"] + 1, version + 1):
        sent[(job["game"], v)] = t0
    return 1


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


def create_held_games(port: int, tables: int, moves_per_game: int) -> tuple[list[dict], dict]:
    """A duplicate tournament whose round 1 plays one board at `tables` tables (teams of two, two teams a table), so
    each of its games is held (no spectator, service.tournaments.embargo) until every table has finished the board;
    the director's links give every game's tokens. Returns the jobs (played live: the board's seed is secret) and
    what a spectator's GET /events answered for each (403 where the build holds duplicate boards)."""
    players = [{"name": f"D{i}", "team": f"T{i // 2}"} for i in range(4 * tables)]
    status, created = _call(port, "POST", "/api/v1/tournaments",
                            {"name": "bench duplicate", "game": GAME, "options": {"edition": "revised"}, "players": players,
                             "format": "teams", "duplicate": True, "games_per_table": 1})
    if status != 201:
        raise SystemExit(f"bench: POST /tournaments answered {status} {str(created)[:300]}")
    tid, director = created["id"], created["director_token"]
    status, _ = _call(port, "POST", f"/api/v1/tournaments/{tid}/rounds", {}, token=director)
    if status not in (200, 201):
        raise SystemExit(f"bench: starting the duplicate round answered {status}")
    deadline = time.monotonic() + 60
    while True:  # a round's games may be created by the duty that holds the tournament's lease, just after
        _call(port, "GET", f"/api/v1/tournaments/{tid}")
        status, links = _call(port, "GET", f"/api/v1/tournaments/{tid}/links", token=director)
        games = [g for g in links["games"] if g["round"] == 1] if status == 200 else []
        if len(games) >= tables or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    if len(games) != tables:
        raise SystemExit(f"bench: the duplicate round has {len(games)} games, expected {tables}")
    jobs, spectators = [], {}
    for g in games:
        status, view = _call(port, "GET", f"/api/v1/games/{g['game_id']}/view", token=g["referee_token"])
        seats = [s["token"] for s in sorted(g["seats"], key=lambda s: s["seat"])]
        jobs.append({"game": g["game_id"], "tokens": seats, "referee": g["referee_token"], "start_version": view["version"],
                     "live": True, "limit": moves_per_game, "held": True})
        spectators[g["game_id"]] = _call(port, "GET", f"/api/v1/games/{g['game_id']}/events")[0]
    return jobs, spectators


def subscriptions(jobs: list[dict], per_game: int) -> list[dict]:
    """Per game: the 4 seats, the referee, then spectators, up to `per_game` (a held game has none: more of its
    seats' subscribers instead, a player's second tab)."""
    subs = []
    for job in jobs:
        viewers = [("seat", t) for t in job["tokens"]] + [("referee", job["referee"])]
        if job.get("held"):
            viewers += [("seat", job["tokens"][i % len(job["tokens"])]) for i in range(max(0, per_game - len(viewers)))]
        viewers += [("spectator", None)] * max(0, per_game - len(viewers))
        for role, token in viewers[:per_game]:
            subs.append({"game": job["game"], "token": token, "role": role, "after": job["start_version"]})
    for i, s in enumerate(subs):
        s["drop"] = i % 10 == 5
    return subs


def bench_server(store: str, url: str, config: str, games: list[dict], cfg: dict, log_dir: str, seconds: float,
                 verify: bool, workers: int | None = None, build: tuple[str, Path | None] = ("today", None),
                 per_game: int | None = None) -> dict:
    """One measurement: a fresh server of `build` (its name, its `arbiter`), the games (a tenth of them a duplicate
    board's, held), `per_game` subscribers of each (0: the rate of moves without any), the clients' play."""
    per_game = cfg["per_game"] if per_game is None else per_game
    name = f"{build[0]}/{store}/{config}/{per_game * len(games)} subscribers"
    server = make_server(url, config, log_dir, workers, arbiter=build[1], label=f"{build[0]}-{per_game}-")
    load = {"before": uptime()}
    _log(f"[{name}] {server.arbiter} serve --workers {server.workers} --threads {server.threads} "
         f"--worker-class {server.worker_class} ...  ({load['before']})")
    server.start()
    ctx = multiprocessing.get_context("fork")
    try:
        held_tables = int(len(games) * cfg.get("held_share", 0))
        jobs = create_games(server.port, games[:len(games) - held_tables])
        spectators = {}
        if held_tables:
            held, spectators = create_held_games(server.port, held_tables, cfg["moves_per_game"])
            jobs += held
        subs = subscriptions(jobs, per_game)
        perf = time.perf_counter
        t0 = perf()
        t_play = t0 + (cfg["connect_seconds"] if verify else CONNECT_TIMEOUT)  # play once subscribers had time to connect
        if not subs:
            t_play = t0 + 1.0
        t_end = t_play + seconds
        t_stop = t_end + (DRAIN_SECONDS if verify else 1.0)
        t_mid = t_play + seconds / 2
        health: list = []
        prober = threading.Thread(target=_health_prober, args=(server.port, t_stop, health))
        prober.start()
        sub_results, play_results = ctx.Queue(), ctx.Queue()
        procs = [ctx.Process(target=_subscriber_process, args=(server.port, subs[i::cfg["subscriber_procs"]], t_mid, t_stop,
                                                              verify, sub_results), daemon=True)
                 for i in range(cfg["subscriber_procs"] if subs else 0)]
        for p in procs:
            p.start()
        _log(f"[{name}] {len(subs)} subscribers connecting; play from +{t_play - t0:.0f} s for {seconds:.0f} s ...")
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
            spies = pyspy.start(list(cpu_before), cfg["profile"], f"{build[0]}-{per_game}-{store}-{config}",
                                gil=cfg.get("profile_gil", True))
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
    load["after"] = uptime()
    problems = [line for line in log.splitlines() if "[ERROR]" in line or "Traceback" in line]
    out = summarise(store, config, server, subs, subbed, played, health, (t0, t_play, t_end), cpu_before, cpu_after,
                    problems, verify and bool(subs))
    out.update(build=build[0], per_game=per_game, load=load, held_games=held_tables,
               held_refused_to_spectators=sum(1 for status in spectators.values() if status == 403))
    return out


def uptime() -> str:
    """The load averages now (`uptime`): the machine is shared, so every measurement carries its own."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except OSError:
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


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
    ended: set[str] = set()  # live games (a duplicate board's) that ended during the run
    for p in played:
        for c in p["clients"]:
            sent.update(c["sent"])
            moves += c["moves"]
            errors += c["errors"]
            ended.update(c.get("ended", ()))
    for sub, res in zip(subs, ordered):  # after its end a game's log discloses what its stream had redacted (the
        if sub["game"] in ended and sub["role"] != "referee" and res.get("exact") is False:  # module doc): not compared
            res["exact"], res["not_compared"] = None, "the game ended"
            res.pop("mismatch", None)
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
        "not_compared": sum(1 for r in results if r.get("not_compared")), "live_games_ended": len(ended),
        "mismatches": [r["mismatch"] for r in results if r.get("mismatch")][:3],
        "subscriber_errors": sum(len(r["errors"]) for r in results),
        "delivery_p50_s": _pct(latencies, 0.5), "delivery_p99_s": _pct(latencies, 0.99),
        "delivery_max_s": max(latencies) if latencies else None, "deliveries_timed": len(latencies),
        "moves": moves, "move_errors": errors, "moves_per_s": moves / (t_end - t_play),
        "held_game_moves": sum(c.get("live_moves", 0) for p in played for c in p["clients"]),
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
            "every_entry_exact": out["inexact"] == 0 and out["exact"] + out["not_compared"] == out["subscribers"],
            "delivery_p99": out["delivery_p99_s"] is not None and out["delivery_p99_s"] <= TARGET_DELIVERY_P99_S,
            "health_p99": (out["health_p99_ms"] or 1e9) <= TARGET_HEALTH_P99_MS and out["health_answered"] == out["health_probes"],
        }
    return out


def _ms(x: float | None) -> float | None:
    return None if x is None else 1000 * x


# --------------------------------------------------------------------------- the run


def run(cfg: dict, postgres: str | None, configs: list[str], against: list[str] = ()) -> dict:
    """Every measurement: per store and configuration, `rounds` rounds; in each, every build (the checkouts of
    `against`, NAME=PATH or PATH, then today's code; each round begins one build further on) measured without
    subscribers (the moves' rate alone, `baseline_seconds`) and then with them, each on a fresh server and store."""
    if not ARBITER.exists():
        raise SystemExit(f"bench: {ARBITER} is missing (run `make test` or pip install -e . first)")
    builds: list[tuple[str, Path | None]] = []
    for other in against:
        name, _, path = other.rpartition("=")
        exe = Path(path) / ".venv" / "bin" / "arbiter"
        if not exe.exists():
            raise SystemExit(f"bench: {exe} is missing (`make bench-streams` builds the release's checkout and venv)")
        builds.append((name or Path(path).name, exe))
    builds.append(("today", None))
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
                if config != "uvicorn":  # the old stack (gthread), today's code, as a reference
                    if cfg["reference_seconds"] > 0:
                        runs.append(bench_server(store, url.replace("api.db", f"streams-{config}.db"), config, games, cfg,
                                                 tmp, cfg["reference_seconds"], verify=False))
                    continue
                for r in range(cfg["rounds"]):
                    for build in builds[r % len(builds):] + builds[:r % len(builds)]:
                        if store == "postgres" and build[1] is not None:
                            continue  # the release on SQLite only: its tables are not this code's to create
                        for per_game, seconds in ((0, cfg["baseline_seconds"]), (cfg["per_game"], cfg["seconds"])):
                            if seconds <= 0:
                                continue
                            where = url if store == "postgres" else \
                                url.replace("api.db", f"streams-{build[0]}-{per_game}-{r}.db")
                            if store == "postgres":  # a fresh schema each time
                                stores.drop_postgres()
                                stores.schema = f"arbiter_bench_streams_{r}_{build[0]}_{per_game}"
                                stores.prepare(store)
                                where = stores.urls()[store]
                            runs.append(bench_server(store, where, config, games, cfg, tmp, seconds, verify=True,
                                                     build=build, per_game=per_game))
                            runs[-1]["round"] = r + 1
    finally:
        stores.drop_postgres()
        shutil.rmtree(tmp, ignore_errors=True)
    kept(runs)
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine(),
            "config": cfg, "source_digest": source_digest(), "postgres_note": stores.postgres_note,
            "against": list(against), "builds": [b for b, _ in builds],
            "load_average": {"before": load_before, "after": os.getloadavg()}, "runs": runs}


def kept(runs: list[dict]) -> None:
    """Each run with subscribers: its moves/s over the rate without subscribers of the same build, store and round
    (`moves_kept`), and the target (>= 0.7) beside the others."""
    base = {(r["build"], r["store"], r.get("round")): r["moves_per_s"] for r in runs if r.get("per_game") == 0}
    for r in runs:
        rate = base.get((r.get("build"), r["store"], r.get("round")))
        if r.get("per_game") and rate:
            r["moves_kept"] = r["moves_per_s"] / rate
            if r.get("targets") is not None:
                r["targets"]["moves_kept"] = r["moves_kept"] >= TARGET_MOVES_KEPT


def print_table(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console() if Console().is_terminal else Console(width=200)
    m, cfg = result["machine"], result["config"]
    console.print(f"[bold]arbiter live-stream benchmark[/bold]  {result['date']}  ({m['cpu_count']} CPUs, {m['python']})")
    console.print(f"{cfg['games']} games x {cfg['per_game']} subscribers ({int(cfg['games'] * cfg.get('held_share', 0))} "
                  f"games held: a duplicate board in play), {cfg['clients']} playing clients; builds "
                  f"{' and '.join(result.get('builds') or ['today'])}, alternately first; load average before "
                  f"{' '.join(f'{x:.2f}' for x in result['load_average']['before'])} (a shared machine: noisy)")
    if result["postgres_note"]:
        console.print(f"[yellow]{result['postgres_note']}[/yellow]")
    table = Table()
    for col in ("round", "build", "store", "server", "subscribers", "exact", "delivery p50/p99/max s", "moves/s", "kept",
                "health answered", "health p50/p99/max ms", "worker CPU s", "load avg before → after"):
        table.add_column(col, justify="left" if col in ("build", "store", "server", "load avg before → after") else "right")

    def f(x, fmt):
        return "—" if x is None else fmt.format(x)

    def load(text: str) -> str:
        return text.rsplit("load average:", 1)[-1].strip() if text else "?"

    for r in result["runs"]:
        table.add_row(str(r.get("round", "")), r.get("build", "today"), r["store"],
                      f"{r['worker_class']} {r['workers']}x{r['threads']}",
                      f"{r['connected']}/{r['subscribers']} in {r['connect_s']:.1f} s" if r["subscribers"] else "none",
                      (f"{r['exact']}/{r['subscribers']}" if r["verified"] else "not checked") if r["subscribers"] else "",
                      f"{f(r['delivery_p50_s'], '{:.3f}')} / {f(r['delivery_p99_s'], '{:.3f}')} / {f(r['delivery_max_s'], '{:.2f}')}",
                      f"{r['moves_per_s']:.0f}", f(r.get("moves_kept"), "{:.2f}x"), f"{r['health_answered']}/{r['health_probes']}",
                      f"{f(r['health_p50_ms'], '{:.1f}')} / {f(r['health_p99_ms'], '{:.1f}')} / {f(r['health_max_ms'], '{:.0f}')}",
                      " + ".join(str(x) for x in r["worker_cpu_s"]),
                      f"{load(r.get('load', {}).get('before', ''))} → {load(r.get('load', {}).get('after', ''))}")
    console.print(table)
    for r in result["runs"]:
        who = f"round {r.get('round', '')} {r.get('build', 'today')}/{r['store']}/{r['worker_class']}"
        if r.get("targets"):
            verdicts = ", ".join(f"{k} {'PASS' if v else 'MISS'}" for k, v in r["targets"].items())
            console.print(f"{who}: {verdicts}; reconnects {r['reconnects']} (deliberate drops {r['deliberate_drops']}); "
                          f"health p99 while playing {f(r['health_play_p99_ms'], '{:.1f}')} ms; held games "
                          f"{r.get('held_games', 0)} ({r.get('held_game_moves', 0)} moves played in them, "
                          f"{r.get('live_games_ended', 0)} ended), refused to a spectator "
                          f"{r.get('held_refused_to_spectators', 0)}")
        if r["mismatches"]:
            console.print(f"[red]{who}: mismatches {r['mismatches']}[/red]")
        if r["server_errors"]:
            console.print(f"[red]{who}: server errors {r['server_errors']}[/red]")


def failed(result: dict) -> list[str]:
    """What makes a checked run fail (an entry missing, extra, out of order or different; a server error; a held
    game that today's code lets a spectator read)."""
    out = []
    for r in result["runs"]:
        who = f"{r.get('build', 'today')}/{r['store']}/{r['worker_class']}"
        if r["verified"] and (r["inexact"] or r["exact"] + r.get("not_compared", 0) != r["subscribers"]):
            out.append(f"{who}: {r['subscribers'] - r['exact']} subscribers did not receive exactly their event log: "
                       f"{r['mismatches']}")
        if r["verified"] and r["server_errors"]:
            out.append(f"{who}: the server logged errors: {r['server_errors']}")
        if r.get("build", "today") == "today" and r.get("held_refused_to_spectators", 0) != r.get("held_games", 0):
            out.append(f"{who}: a spectator read {r['held_games'] - r['held_refused_to_spectators']} of the "
                       f"{r['held_games']} held games")
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
    parser.add_argument("--configs", default="uvicorn", help="servers to run, in order (default uvicorn; gthread adds the "
                                                            "old stack, today's code, as a reference)")
    parser.add_argument("--against", action="append", default=[], metavar="[NAME=]CHECKOUT",
                        help="another checkout with its own .venv, measured beside today's code, each round beginning "
                             "one build further on (the release before: `make bench-streams` makes ../wt-release at "
                             "ed4b86b); may be given more than once")
    parser.add_argument("--rounds", type=int, help="how many times each build is measured (default 2)")
    parser.add_argument("--baseline-seconds", type=float, dest="baseline_seconds",
                        help="the run without subscribers (the moves' own rate), per build and round; 0 skips it")
    parser.add_argument("--profile", metavar="DIR", help="sample each worker with py-spy while the clients play (raw "
                                                         "files into DIR) and print where the CPU went (bench.pyspy)")
    parser.add_argument("--profile-all-threads", action="store_true", dest="profile_all",
                        help="py-spy without --gil: threads waiting in C with the GIL released (SQLite) count too")
    pg = parser.add_mutually_exclusive_group()
    pg.add_argument("--postgres", default=os.environ.get(POSTGRES_ENV, DEFAULT_POSTGRES))
    pg.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    for key in ("games", "per_game", "clients", "seconds", "reference_seconds", "rounds", "baseline_seconds"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    cfg["quick"] = args.quick
    cfg["profile"], cfg["profile_gil"] = args.profile, not args.profile_all
    result = run(cfg, None if args.no_postgres else args.postgres, args.configs.split(","), args.against)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    if args.profile:
        from bench import pyspy
        files = sorted(Path(args.profile).glob("*.txt"))
        for label in sorted({f.name.rsplit("-", 1)[0] for f in files}):  # build-subscribers-store-config
            mine = [f for f in files if f.name.rsplit("-", 1)[0] == label]
            print(f"\n== {label}: where the workers' CPU went while the clients played (py-spy, {len(mine)} files in "
                  f"{args.profile})")
            print(pyspy.report(pyspy.read(mine)))
    problems = failed(result)
    for p in problems:
        _log(f"bench: FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
