"""The floor of bench.streams' `moves_kept` on this machine: the rate of moves while 1,000 subscribers are served by
the least a live feed can do, over the rate without any subscriber, measured alternately on the same server build.

`moves_kept` is a ratio of two rates measured on the same two cores that also run the benchmark's own clients: the
16 players, the health prober and, with subscribers, the two asyncio processes that read every message of the 1,000
streams. Whatever the server does, those readers and the writes that feed them take CPU from the moves. This
prototype measures that part alone:

- the server (today's `arbiter serve`, 2 uvicorn workers, 8 threads, the same games, held games and players as
  bench.streams) serves the moves, and no stream: nobody subscribes to it;
- beside it, one process (`emitter`, an asyncio server on its own port, uvloop when installed, as uvicorn's) takes
  the 1,000 subscribers' connections (bench.streams' own subscriber processes, unchanged: `_subscriber`), reads
  the store's notification log every 50 ms as the live feed does (one SELECT on the same SQLite file), and for each
  batch writes to each subscriber of a game with news one body of precomputed SSE messages (`id:`, `event:` and a
  `data:` line the size of the stored event, as arbiter's messages have): one write per subscriber and batch, the same bytes for every viewer,
  no redaction, no per-subscriber Python but the write, no GIL shared with the moves (its own process).

Each round measures the rate without subscribers (`baseline`, as bench.streams) and then with the emitter and its
1,000 readers (`floor`); `kept` is their ratio, the most any server could keep here while writing every message.
On a shared machine that ratio also measures the scheduler (more processes of this run share the cores others
load), so `kept_by_cpu` is given beside it: the CPU a move of every process of the run (workers, players,
subscriber clients, emitter; the clients' from their start, the workers' while the players play) without
subscribers over the same with them, which is the ratio of rates a quiet machine whose 2 cores are busy in both
measurements would show.

Usage:  python -m bench.streams_floor [--rounds R] [--seconds D] [--baseline-seconds B] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import shutil
import sqlite3
import tempfile
import threading
import time
from collections import defaultdict
from uuid import UUID

from bench.api import prepared_game
from bench.streams import (
    FULL,
    SEED,
    _health_prober,
    _log,
    _pct,
    _player_process,
    _subscriber_process,
    create_games,
    create_held_games,
    make_server,
    subscriptions,
    uptime,
)
from service.play.referee import Referee

POLL_SECONDS = 0.05  # as service.views.feed


def _emitter(db_path: str, ports, t_stop: float, results) -> None:
    """The least a live feed does: one read of the log per poll, one write per subscriber and batch."""
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass

    async def main() -> None:
        streams: dict[str, list] = defaultdict(list)
        writes = 0

        async def handle(reader, writer) -> None:
            request = await reader.readline()  # GET /api/v1/games/{id}/stream HTTP/1.0
            game = UUID(request.split(b" ")[1].split(b"/")[4].decode()).hex
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            writer.write(b"HTTP/1.0 200 OK\r\ncontent-type: text/event-stream\r\n\r\nretry: 1000\n\n")
            streams[game].append(writer)
            try:
                await reader.read()  # until the client goes
            except (OSError, asyncio.CancelledError):  # (cancelled: the emitter stops at the end of the run)
                pass
            finally:
                streams[game].remove(writer)
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=2048)
        ports.put(server.sockets[0].getsockname()[1])
        db = sqlite3.connect(db_path, check_same_thread=False)
        position = db.execute("SELECT MAX(rowid) FROM stored_events").fetchone()[0] or 0
        perf = time.perf_counter
        while perf() < t_stop:
            await asyncio.sleep(POLL_SECONDS)
            rows = db.execute("SELECT rowid, originator_id, originator_version, topic, length(state) FROM stored_events "
                              "WHERE rowid > ? ORDER BY rowid LIMIT 2000", (position,)).fetchall()
            news: dict[str, list[bytes]] = defaultdict(list)
            for rowid, originator, version, topic, size in rows:
                position = rowid
                game = (UUID(bytes=originator) if isinstance(originator, bytes) else UUID(str(originator))).hex
                kind = topic.rsplit(".", 1)[-1].lower().encode()  # an `event:` line as arbiter's messages have
                news[game].append(b'id: %d\nevent: %s\ndata: {"version": %d, "pad": "%s"}\n\n' % (version, kind, version,
                                                                                                b"x" * size))
            for game, messages in news.items():
                body = b"".join(messages)
                for writer in streams.get(game, ()):
                    writer.write(body)
                    writes += 1
        server.close()
        results.put({"cpu_s": time.process_time(), "writes": writes})

    asyncio.run(main())


def measure(url: str, db_path: str, games: list[dict], cfg: dict, tmp: str, per_game: int, seconds: float) -> dict:
    """One measurement on a fresh server and store: its moves/s, with `per_game` subscribers served by the emitter."""
    server = make_server(url, "uvicorn", tmp, label=f"floor-{per_game}-")
    load = {"before": uptime()}
    server.start()
    ctx = multiprocessing.get_context("fork")
    try:
        held_tables = int(len(games) * cfg["held_share"])
        jobs = create_games(server.port, games[:len(games) - held_tables])
        jobs += create_held_games(server.port, held_tables, cfg["moves_per_game"])[0]
        subs = subscriptions(jobs, per_game)
        perf = time.perf_counter
        t0 = perf()
        t_play = t0 + (cfg["connect_seconds"] if subs else 1.0)
        t_end = t_play + seconds
        t_stop = t_end + 1.0
        health: list = []
        prober = threading.Thread(target=_health_prober, args=(server.port, t_stop, health))
        prober.start()
        emitted, sub_results, play_results, ports = ctx.Queue(), ctx.Queue(), ctx.Queue(), ctx.Queue()
        procs = []
        if subs:
            emitter = ctx.Process(target=_emitter, args=(db_path, ports, t_stop, emitted), daemon=True)
            emitter.start()
            port = ports.get(timeout=30)
            procs = [ctx.Process(target=_subscriber_process, args=(port, subs[i::cfg["subscriber_procs"]], t_play + seconds / 2, t_stop,
                                                                  False, sub_results), daemon=True)
                     for i in range(cfg["subscriber_procs"])]
            for p in procs:
                p.start()
        clients = [jobs[i::cfg["clients"]] for i in range(cfg["clients"])]
        players = [ctx.Process(target=_player_process, args=(server.port, clients[k::2], t_play, t_end, play_results),
                               daemon=True) for k in range(2)]
        cpu_before = server.workers_cpu()
        for p in players:
            p.start()
        played = [play_results.get(timeout=seconds + 600) for _ in players]
        cpu_after = server.workers_cpu()
        subbed = [sub_results.get(timeout=seconds + 300) for _ in procs]
        emitter_out = emitted.get(timeout=60) if subs else None
        prober.join()
        for p in procs + players:
            p.join(timeout=30)
    finally:
        server.stop()
    moves = sum(c["moves"] for p in played for c in p["clients"])
    received = [s for r in subbed for s in r["subs"]]
    answered = [lat for _, lat in health if lat is not None]
    worker_cpu = sorted(round(cpu_after[p] - cpu_before[p], 1) for p in cpu_before
                        if cpu_before.get(p) is not None and cpu_after.get(p) is not None)
    cpu = sum(worker_cpu) + sum(r["cpu_s"] for r in subbed + played) + (emitter_out["cpu_s"] if emitter_out else 0)
    return {"per_game": per_game, "subscribers": len(subs), "moves_per_s": moves / seconds,
            "cpu_ms_per_move": 1000 * cpu / max(1, moves),
            "connected": sum(1 for s in received if s["connected_at"] is not None),
            "entries_received": sum(len(s["received"]) for s in received),
            "emitter_writes": emitter_out and emitter_out["writes"], "emitter_cpu_s": emitter_out and round(emitter_out["cpu_s"], 1),
            "subscriber_cpu_s": [round(r["cpu_s"], 1) for r in subbed],
            "player_cpu_s": [round(p["cpu_s"], 1) for p in played],
            "worker_cpu_s": worker_cpu, "health_p99_ms": None if not answered else 1000 * _pct(answered, 0.99),
            "load": {**load, "after": uptime()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=FULL["seconds"])
    parser.add_argument("--baseline-seconds", type=float, default=FULL["baseline_seconds"], dest="baseline_seconds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cfg = dict(FULL)
    _log(f"preparing {cfg['games']} games of up to {cfg['moves_per_game']} moves (random legal play, seed {SEED}) ...")
    rng = random.Random(SEED)
    games = [prepared_game(f"{SEED:04x}{i:04x}", rng, cfg["moves_per_game"]) for i in range(cfg["games"])]
    for game in games:
        if game["over"]:
            game["moves"].pop()
    tmp = tempfile.mkdtemp(prefix="arbiter-bench-streams-floor-")
    runs = []
    try:
        for r in range(args.rounds):
            for per_game, seconds in ((0, args.baseline_seconds), (cfg["per_game"], args.seconds)):
                db_path = f"{tmp}/floor-{per_game}-{r}.db"  # a fresh store each measurement, its tables made first
                Referee(f"sqlite:///{db_path}").close()
                _log(f"[round {r + 1}] {'baseline' if not per_game else 'floor'}: {per_game * cfg['games']} subscribers ...")
                runs.append({"round": r + 1, **measure(f"sqlite:///{db_path}", db_path, games, cfg, tmp, per_game, seconds)})
                _log(f"  {runs[-1]['moves_per_s']:.0f} moves/s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = {r["round"]: r for r in runs if not r["per_game"]}
    for r in runs:
        if r["per_game"] and base.get(r["round"]):
            r["kept"] = r["moves_per_s"] / base[r["round"]]["moves_per_s"]
            r["kept_by_cpu"] = base[r["round"]]["cpu_ms_per_move"] / r["cpu_ms_per_move"]
    if args.json:
        print(json.dumps(runs, indent=2))
    for r in runs:
        print(f"round {r['round']}  subscribers {r['subscribers']:>5}  moves/s {r['moves_per_s']:6.1f}  kept "
              f"{r.get('kept', float('nan')):.2f}  CPU a move {r['cpu_ms_per_move']:.2f} ms (kept by CPU "
              f"{r.get('kept_by_cpu', float('nan')):.2f})  workers CPU {r['worker_cpu_s']}  emitter CPU {r['emitter_cpu_s']}  "
              f"subscriber clients CPU {r['subscriber_cpu_s']}  players CPU {r['player_cpu_s']}  entries "
              f"{r['entries_received']}  writes {r['emitter_writes']}  health p99 {r['health_p99_ms']}  ({r['load']['before']})")


if __name__ == "__main__":
    main()
