"""Archive speed (issue 11 part 3): `arbiter import`, `arbiter verify --all` and `arbiter replay`, each beside its
reference measured in the same run.

Corpus (built before any timing, fixed seed): bots play a season's mix through `service.offline.simulation` — El Royale
(4 players), Batallion (4 players), Small Battle, The Four Virtues — written as one JSON Lines archive of records.

Measured:
  import        `service.offline.bulk_import.import_files` of the archive into a fresh SQLite file (validation, the bare
                decider, the rows, the checkpoints): moves/s. Target >= 20,000 moves/s.
  verify        `service.verification.bulk.verify_all` over every game of that store (what `arbiter verify --all`
                runs), with 1 worker and with one per core: stored events/s (wall), per CPU-second of the
                single worker, and the CPU an event costs all processes together (the workers' own CPU, start-up
                included, reported by each worker; the parent's). Also over a second, smaller store made through the service itself
                (`PlayFacade.import_record`: snapshots, a caught-up catalogue), to show those take the same pass.
                Target >= 100,000 events/s with every core.
  raw read      the reference: the same rows read with one SELECT and decoded with `json.loads`, one process;
                the floor of the chain check alone (read, decode, hash every event as domain.audit does), one
                process; and the floor prototype of the whole check (`floor`: read, decode with orjson, hash
                with orjson, re-decide every game with the bare decider), one process.
  replay        `arbiter replay SAMPLE.jsonl --json` as a whole process (start-up, imports, parsing, verdicts),
                moves/s, over bench.verify's corpus (100 random 4-player El Royale games, 39,632 moves) as a JSON
                Lines archive; beside python-chess `push_san`, also a whole process (`python -c`: import chess, read,
                push every move), over random legal chess games (bench.verify.chess_corpus, seed 2026, at most 200
                plies a game) as many as make about the same number of plies (200 games, 38,733 plies). Target >= 3x
                python-chess. Also, for comparison with earlier runs, python-chess over bench.verify's own 50 games
                (9,786 plies), the reference this bench used until 2026-11-23. The season archive is replayed too, for
                information (bots' games: fewer passes, more work a move). Each process's CPU time (user + system,
                from getrusage of the children) is kept beside its wall time: the ratio of CPU per move is the one a
                shared machine does not move.

                Why the chess side replays as many plies as arbiter replays moves: each whole process pays a fixed
                start-up (interpreter, imports: ~0.05 s CPU for each side), and the ratio of two whole-process rates
                depends on how many moves that start-up is spread over. With 50 games the start-up was ~40 % of
                python-chess's time and ~25 % of arbiter's, which favoured arbiter: at equal work neither side's
                start-up weighs more than the other's, and the ratio tends to the two engines' ratio per move.

                Why both sides run with their bytecode cached (PYTHONPYCACHEPREFIX in a temporary directory, after
                one untimed run of each command): python-chess runs from the .pyc files pip wrote when it was
                installed, while arbiter runs from its editable source tree, and in an environment that sets
                PYTHONDONTWRITEBYTECODE (the shared development machine does) every `arbiter` process would compile
                its ~30 modules again (~0.03 s CPU a run) — a cost no installed arbiter pays. With the prefix both
                read compiled bytecode, and neither writes into the source tree.

Every timing is the best of `repeat` passes (the median is kept too); the machine's load average is recorded
before and after, since other work on a shared machine slows every figure (compare the ratios).

Usage:  python -m bench.archive [--quick] [--json] [--repeat N] [--workers W] [--replay-only]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from service.play.new_games import ImportRecord

# (game, players, options, games at full size, at --quick)
MIX = [
    ("el-royale", 4, {"edition": "revised"}, 300, 16),
    ("batallion", 4, {"variants": []}, 150, 10),
    ("small-battle", 2, {}, 300, 16),
    ("four-virtues", 2, {"target": 300}, 12, 2),
]
SERVICE_GAMES = (60, 8)  # games of the service-made store (full, quick)
CHESS_GAMES = (200, 20)  # random chess games (seed 2026, at most 200 plies a game): about as many plies as SAMPLE
VERIFY_CHESS_GAMES = 50  # bench.verify's own chess corpus (the first 50 of the same games): the reference until 2026-11-23
SAMPLE_GAMES = (100, 10)  # bench.verify's El Royale corpus, the archive `replay` is measured on
TARGETS = {"import_moves_per_s": 20_000, "verify_events_per_s": 100_000, "replay_vs_chess": 3.0}
CHESS_SCRIPT = """
import json, sys
import chess
n = 0
with open(sys.argv[1]) as f:
    for line in f:
        push = chess.Board().push_san
        for san in json.loads(line):
            push(san)
            n += 1
print(n)
"""


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def best_of(repeat: int, fn) -> tuple[float, float, object]:
    """(best, median, last result) of `repeat` timed calls of fn."""
    times, result = [], None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def build_archive(path: Path, quick: bool) -> tuple[int, int]:
    from service.offline.simulation import make_plan, run

    games = moves = 0
    with open(path, "w") as f:
        for game, players, options, full, small in MIX:
            plan = make_plan(game, players, small if quick else full, ("heuristic",), options, "bench-archive")
            for doc in run(plan, 1):
                f.write(json.dumps(doc, separators=(",", ":")) + "\n")
                games += 1
                moves += len(doc["moves"])
    return games, moves


def sample_archive(path: Path, games: int) -> int:
    """bench.verify's corpus (random 4-player El Royale games, domain.autoplay) as a JSON Lines archive."""
    from bench.verify import FULL, el_royale_corpus
    from domain.records import to_document

    corpus = el_royale_corpus(games, FULL["el_royale_seed"])
    with open(path, "w") as f:
        for r in corpus:
            f.write(json.dumps(to_document(r.game, r.setup, r.seed, r.outcomes, r.moves), separators=(",", ":")) + "\n")
    return sum(len(r.moves) for r in corpus)


def chess_file(path: Path, games: int) -> int:
    from bench.verify import chess_corpus

    corpus = chess_corpus(games, 200, 2026)
    with open(path, "w") as f:
        for sans, _ in corpus:
            f.write(json.dumps(sans) + "\n")
    return sum(len(s) for s, _ in corpus)


def raw_read(url: str) -> int:
    """The reference: every stored row's state decoded with json.loads, one query, one process."""
    import sqlite3

    path = url.removeprefix("sqlite:///")
    conn = sqlite3.connect(path)
    try:
        loads, n = json.loads, 0
        for (state,) in conn.execute("SELECT state FROM stored_events ORDER BY rowid"):
            loads(state)
            n += 1
        return n
    finally:
        conn.close()


def read_and_hash(url: str) -> int:
    """The floor of the chain check alone: every row read, decoded with json.loads and hashed as domain.audit hashes
    an event (canonical JSON, SHA-256), one process; no shape check, no decider, no report."""
    import sqlite3
    import uuid

    from domain.audit import fields_hash

    path = url.removeprefix("sqlite:///")
    conn = sqlite3.connect(path)
    try:
        loads, n, ids = json.loads, 0, {}
        for oid, version, topic, state in conn.execute(
                "SELECT originator_id, originator_version, topic, state FROM stored_events ORDER BY rowid"):
            fields = loads(state)
            fields["timestamp"] = fields["timestamp"]["_data_"]
            text = ids.get(oid) or ids.setdefault(oid, str(uuid.UUID(oid)))  # once a game, as the verifier does
            fields["originator_id"], fields["originator_version"] = text, version
            fields_hash(fields, topic.rsplit(":", 1)[1])
            n += 1
        return n
    finally:
        conn.close()


def floor(url: str) -> int:
    """The prototype of verify's irreducible work, one process: every row read (one SELECT), decoded (orjson), hashed
    into its game's chain (canonical JSON by orjson, SHA-256; each `prev` held against it), and every game re-decided
    by its bare decider (`step` for every move, each stored event decoded by the game's codec and compared with the
    engine's). No shape check, no snapshot, no report, no catalogue, no checkpoint; the cyclic GC off as in a batch."""
    import hashlib
    import sqlite3
    import uuid

    import orjson

    from domain.game import ENGINE
    from domain.games import DECIDERS, SPECS
    from domain.randomness import Chance

    path = url.removeprefix("sqlite:///")
    conn = sqlite3.connect(path)
    enabled = gc.isenabled()
    gc.disable()
    try:
        games: dict = {}
        loads, dumps, sort, sha256 = orjson.loads, orjson.dumps, orjson.OPT_SORT_KEYS, hashlib.sha256
        for oid, version, topic, state in conn.execute("SELECT originator_id, originator_version, topic, state "
                                                        "FROM stored_events ORDER BY originator_id, originator_version"):
            fields = loads(state)
            fields["timestamp"] = fields["timestamp"]["_data_"]
            game = games.get(oid)
            if game is None:
                game = games[oid] = {"id": str(uuid.UUID(oid)), "head": "", "events": []}
            if fields["prev"] != game["head"]:
                raise SystemExit(f"bench: the chain of {oid} breaks at {version}")
            kind = topic.rsplit(":", 1)[1]
            hashed = dict(fields, originator_id=game["id"], originator_version=version, **{"class": kind})
            if kind == "Game.Created":
                del hashed["seed"]
            game["head"] = sha256(dumps(hashed, option=sort)).hexdigest()
            game["events"].append((kind, fields))
        n = 0
        for game in games.values():
            events = game["events"]
            n += len(events)
            kind, c = events[0]
            if kind != "Game.Created":
                continue  # a refused attempts' stream: hashed, nothing to decide
            d, decode = DECIDERS[c["game"]], SPECS[c["game"]].codec.decode_event
            setup = d.configure(dict(c["options"]), [dict(p) for p in c["players"]], c["dealer"], c["starter"])
            chance = Chance(c["seed"], c["outcomes"])
            decisions: list = [[]]
            for kind, f in events[1:]:
                if kind == "Game.Happened":
                    if f["actor"] != ENGINE:
                        decisions.append([])
                    decisions[-1].append(decode(f["data"]))
            state = d.initial_state(setup)
            for i, stored in enumerate(decisions):
                if i == 0:
                    decided = d.start(setup, chance)
                    for e in decided:
                        state = d.evolve(state, e)
                else:
                    decided, state = d.step(state, d.move_of(stored[0]), chance)
                if decided != stored:
                    raise SystemExit(f"bench: the engine decides {game['id']} differently at decision {i}")
        return n
    finally:
        if enabled:
            gc.enable()
        conn.close()
def measure_replay(tmp: Path, archive: Path, moves: int, quick: bool, repeat: int) -> dict:
    """`arbiter replay` of the sample and of the season archive, and python-chess, each a whole process (docstring)."""
    _log("replay and python-chess, whole process (building bench.verify's corpus) ...")
    chess_path, verify_chess_path = tmp / "chess.jsonl", tmp / "chess50.jsonl"
    plies = chess_file(chess_path, CHESS_GAMES[1 if quick else 0])
    verify_plies = chess_file(verify_chess_path, VERIFY_CHESS_GAMES)
    sample = tmp / "sample.jsonl"
    sample_moves = sample_archive(sample, SAMPLE_GAMES[1 if quick else 0])
    arbiter_bin = str(Path(sys.executable).with_name("arbiter"))
    commands = {"replay": [arbiter_bin, "replay", str(sample), "--json"],
                "chess": [sys.executable, "-c", CHESS_SCRIPT, str(chess_path)],
                "chess50": [sys.executable, "-c", CHESS_SCRIPT, str(verify_chess_path)],
                "season": [arbiter_bin, "replay", str(archive), "--json"],
                "startup": [arbiter_bin, "replay", "--help"]}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")  # both sides run from compiled bytecode (docstring)

    def whole(cmd: list[str]) -> tuple[float, float]:
        """(wall seconds, CPU seconds: user + system) of one process."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise SystemExit(f"bench: {cmd[0]} failed: {done.stderr.decode()[-500:]}")
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    for cmd in commands.values():  # untimed: writes each side's bytecode into the prefix
        whole(cmd)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(max(repeat, 5)):  # interleaved, so drift hits all alike
        for name, cmd in commands.items():
            runs[name].append(whole(cmd))
    wall = {name: min(w for w, _ in r) for name, r in runs.items()}
    cpu = {name: min(c for _, c in r) for name, r in runs.items()}
    out = {"moves": sample_moves, "seconds": wall["replay"], "cpu_s": cpu["replay"],
           "moves_per_s": sample_moves / wall["replay"], "moves_per_cpu_s": sample_moves / cpu["replay"],
           "chess_games": CHESS_GAMES[1 if quick else 0], "chess_plies": plies,
           "chess_seconds": wall["chess"], "chess_cpu_s": cpu["chess"],
           "chess_moves_per_s": plies / wall["chess"], "chess_moves_per_cpu_s": plies / cpu["chess"],
           "chess50_plies": verify_plies, "chess50_seconds": wall["chess50"], "chess50_cpu_s": cpu["chess50"],
           "chess50_moves_per_s": verify_plies / wall["chess50"], "chess50_moves_per_cpu_s": verify_plies / cpu["chess50"],
           "arbiter_startup_s": wall["startup"], "arbiter_startup_cpu_s": cpu["startup"],
           "season_moves": moves, "season_seconds": wall["season"], "season_cpu_s": cpu["season"],
           "season_moves_per_s": moves / wall["season"], "bytecode": "cached (PYTHONPYCACHEPREFIX)"}
    out["ratio"] = out["moves_per_s"] / out["chess_moves_per_s"]
    out["cpu_ratio"] = out["moves_per_cpu_s"] / out["chess_moves_per_cpu_s"]
    out["ratio_vs_chess50"] = out["moves_per_s"] / out["chess50_moves_per_s"]
    out["cpu_ratio_vs_chess50"] = out["moves_per_cpu_s"] / out["chess50_moves_per_cpu_s"]
    return out


def replay_only(cfg: dict) -> dict:
    """The archive, then measure_replay alone (printed as JSON)."""
    out: dict = {"config": cfg, "load_before": load(), "cpu_count": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-archive-") as tmp:
        archive = Path(tmp) / "season.jsonl"
        games, moves = build_archive(archive, cfg["quick"])
        out["archive"] = {"games": games, "moves": moves, "bytes": archive.stat().st_size}
        out["replay"] = measure_replay(Path(tmp), archive, moves, cfg["quick"], cfg["repeat"])
    out["load_after"] = load()
    return out


def run(cfg: dict) -> dict:
    from service.verification.bulk import default_workers, stored_events, verify_all
    from service.offline.bulk_import import import_files
    from service.facade import Arbiter

    quick, repeat = cfg["quick"], cfg["repeat"]
    workers = cfg["workers"] or default_workers()
    out: dict = {"config": cfg, "load_before": load(), "cpu_count": os.cpu_count(), "workers": workers}
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-archive-") as tmp:
        tmp = Path(tmp)
        archive = tmp / "season.jsonl"
        _log("building the archive (bots play the season) ...")
        games, moves = build_archive(archive, quick)
        out["archive"] = {"games": games, "moves": moves, "bytes": archive.stat().st_size}
        _log(f"  {games} games, {moves:,} moves")

        # -- import -------------------------------------------------------------------------
        _log("import ...")
        times, cpus = [], []
        for i in range(repeat):
            url = f"sqlite:///{tmp / f'import{i}.db'}"
            arbiter = Arbiter(url, str(tmp / "bench.key"), str(tmp / f"import{i}.checkpoints.jsonl"))
            gc.collect()
            start, cpu = time.perf_counter(), time.process_time()
            lines = list(import_files(arbiter, [str(archive)]))
            times.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            assert len(lines) == games and all(line["status"] != "illegal" for line in lines)
        store = f"sqlite:///{tmp / 'import0.db'}"
        out["import"] = {"seconds": min(times), "median_s": statistics.median(times), "moves_per_s": moves / min(times),
                         "cpu_s": min(cpus), "moves_per_cpu_s": moves / min(cpus), "cpu_us_per_move": min(cpus) / moves * 1e6}

        # -- verify --------------------------------------------------------------------------
        arbiter = Arbiter(store, str(tmp / "bench.key"), str(tmp / "import0.checkpoints.jsonl"))
        ids = arbiter.verification.game_ids()
        from service.adapters.catalogue_store import Catalogue

        # caught up first, as any read of the catalogue leaves it: else the first pass sees no rows (the catalogue
        # check says `ok: null`) and catches up as it keeps its verdicts, and later passes' reports differ from it
        Catalogue.for_app(arbiter.app).catch_up()

        cpu_of: dict = {}

        def verify(w: int, url: str = store, log: str = "import0", gids=ids) -> list:
            cpu = {}
            reports = list(verify_all(url, gids, str(tmp / "bench.key"), str(tmp / f"{log}.checkpoints.jsonl"), w,
                                      cpu=cpu))
            cpu_of[w] = min(cpu_of.get(w, float("inf")), sum(cpu["workers"].values()) + cpu["here"])
            return reports

        _log("verify, raw read ...")
        rows_best, _, rows = best_of(repeat, lambda: raw_read(store))
        hashed_best, _, _ = best_of(repeat, lambda: read_and_hash(store))
        floor_cpu = []

        def timed_floor() -> int:
            start = time.process_time()
            n = floor(store)
            floor_cpu.append(time.process_time() - start)
            return n

        floor_best, _, _ = best_of(repeat, timed_floor)
        one_best, one_median, reports = best_of(repeat, lambda: verify(1))
        assert all(r["ok"] for r in reports), "an imported game does not verify clean"
        events = sum(stored_events(r) for r in reports)
        cpu0 = time.process_time()
        verify(1)
        cpu = time.process_time() - cpu0
        all_best, all_median, again = best_of(repeat, lambda: verify(workers))
        assert again == reports, "the workers' reports differ from one process's"
        out["verify"] = {"games": len(reports), "events": events, "rows": rows,
                         "one_worker_s": one_best, "one_worker_events_per_s": events / one_best,
                         "one_worker_cpu_s": cpu, "events_per_cpu_s": events / cpu,
                         "one_worker_cpu_us_per_event": cpu_of[1] / events * 1e6,
                         "all_workers_s": all_best, "all_workers_events_per_s": events / all_best,
                         "all_workers_cpu_us_per_event": cpu_of[workers] / events * 1e6,
                         "raw_read_s": rows_best, "raw_read_rows_per_s": rows / rows_best,
                         "read_and_hash_rows_per_s": rows / hashed_best,
                         "floor_rows_per_s": rows / floor_best, "floor_cpu_us_per_row": min(floor_cpu) / rows * 1e6}

        _log("verify a store made through the service (snapshots, catalogue) ...")
        service_url = f"sqlite:///{tmp / 'service.db'}"
        made = Arbiter(service_url, str(tmp / "bench.key"), str(tmp / "service.checkpoints.jsonl"))
        with open(archive) as f:
            docs = [json.loads(line) for line in f]
        step = max(1, len(docs) // SERVICE_GAMES[1 if quick else 0])
        for doc in docs[::step]:
            made.play.import_record(ImportRecord.from_body(doc))
        from service.adapters.catalogue_store import Catalogue

        Catalogue.for_app(made.app).catch_up()
        service_ids = made.verification.game_ids()
        from service.verification import driver

        counts = {"fast": 0, "detailed": 0}
        real = driver.plain_report

        def counting(*a, **k):
            report = real(*a, **k)
            counts["fast" if report is not None else "detailed"] += 1
            return report

        driver.plain_report = counting
        try:
            best, _, service_reports = best_of(1, lambda: verify(1, service_url, "service", service_ids))
        finally:
            driver.plain_report = real
        assert all(r["ok"] for r in service_reports)
        service_events = sum(stored_events(r) for r in service_reports)
        out["verify_service_store"] = {"games": len(service_reports), "events": service_events, "seconds": best,
                                       "events_per_s": service_events / best, "one_pass": counts["fast"],
                                       "detailed": counts["detailed"]}

        out["replay"] = measure_replay(tmp, archive, moves, quick, repeat)
    out["load_after"] = load()
    out["targets"] = {
        "import": {"target": TARGETS["import_moves_per_s"], "measured": out["import"]["moves_per_s"]},
        "verify": {"target": TARGETS["verify_events_per_s"], "measured": out["verify"]["all_workers_events_per_s"]},
        "replay": {"target": TARGETS["replay_vs_chess"], "measured": out["replay"]["ratio"]},
    }
    for t in out["targets"].values():
        t["met"] = t["measured"] >= t["target"]
    return out


def print_table(r: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    c = Console()
    a, v, s, p, i = r["archive"], r["verify"], r["verify_service_store"], r["replay"], r["import"]
    c.print(f"[bold]arbiter archive benchmark[/bold]: {a['games']} games, {a['moves']:,} moves "
            f"({a['bytes'] / 1e6:.1f} MB of records); {r['cpu_count']} CPUs, {r['workers']} workers; "
            f"load average before {r['load_before']}, after {r['load_after']}")
    t = Table(title="best of the passes")
    for col in ("what", "measured", "reference (same run)", "ratio"):
        t.add_column(col)
    t.add_row("import (bare decider, bulk rows)", f"{i['moves_per_s']:,.0f} moves/s "
              f"({i['moves_per_cpu_s']:,.0f}/CPU-s, {i['cpu_us_per_move']:.1f} µs CPU a move)", "", "")
    t.add_row("verify --all, 1 worker", f"{v['one_worker_events_per_s']:,.0f} events/s "
              f"({v['events_per_cpu_s']:,.0f}/CPU-s, {v['one_worker_cpu_us_per_event']:.1f} µs an event)", f"raw json.loads read {v['raw_read_rows_per_s']:,.0f} rows/s",
              f"{v['one_worker_events_per_s'] / v['raw_read_rows_per_s']:.2f}x")
    t.add_row("floor: read + json.loads + chain hash, 1 process", f"{v['read_and_hash_rows_per_s']:,.0f} rows/s",
              f"raw json.loads read {v['raw_read_rows_per_s']:,.0f} rows/s",
              f"{v['read_and_hash_rows_per_s'] / v['raw_read_rows_per_s']:.2f}x")
    t.add_row("floor prototype: read, orjson decode, chain hash, re-decide, 1 process",
              f"{v['floor_rows_per_s']:,.0f} rows/s ({v['floor_cpu_us_per_row']:.1f} µs CPU a row)",
              f"raw json.loads read {v['raw_read_rows_per_s']:,.0f} rows/s",
              f"{v['floor_rows_per_s'] / v['raw_read_rows_per_s']:.2f}x")
    t.add_row(f"verify --all, {r['workers']} workers", f"{v['all_workers_events_per_s']:,.0f} events/s "
              f"({v['all_workers_cpu_us_per_event']:.1f} µs CPU an event, every process)",
              f"raw json.loads read {v['raw_read_rows_per_s']:,.0f} rows/s",
              f"{v['all_workers_events_per_s'] / v['raw_read_rows_per_s']:.2f}x")
    t.add_row(f"verify, store made by the service ({s['games']} games, 1 worker)", f"{s['events_per_s']:,.0f} events/s",
              f"{s['one_pass']} games in one pass, {s['detailed']} detailed", "")
    t.add_row(f"arbiter replay SAMPLE.jsonl --json (whole process, {p['moves']:,} moves)",
              f"{p['moves_per_s']:,.0f} moves/s ({p['moves_per_cpu_s']:,.0f}/CPU-s)",
              f"python-chess push_san, {p['chess_plies']:,} plies: {p['chess_moves_per_s']:,.0f} moves/s "
              f"({p['chess_moves_per_cpu_s']:,.0f}/CPU-s)", f"{p['ratio']:.2f}x ({p['cpu_ratio']:.2f}x CPU)")
    t.add_row("same, beside bench.verify's 50 chess games", "",
              f"python-chess push_san, {p['chess50_plies']:,} plies: {p['chess50_moves_per_s']:,.0f} moves/s "
              f"({p['chess50_moves_per_cpu_s']:,.0f}/CPU-s)",
              f"{p['ratio_vs_chess50']:.2f}x ({p['cpu_ratio_vs_chess50']:.2f}x CPU)")
    t.add_row("arbiter replay SEASON.jsonl --json (whole process)", f"{p['season_moves_per_s']:,.0f} moves/s",
              f"python-chess push_san {p['chess_moves_per_s']:,.0f} moves/s (whole process)",
              f"{p['season_moves_per_s'] / p['chess_moves_per_s']:.2f}x")
    c.print(t)
    tt = Table(title="targets")
    for col in ("target", "required", "measured", "verdict"):
        tt.add_column(col)
    for name, unit, key in (("import", "moves/s", "import"), ("verify --all", "events/s", "verify"),
                            ("replay vs python-chess", "x", "replay")):
        row = r["targets"][key]
        tt.add_row(name, f">= {row['target']:,}{'' if unit == 'x' else ' '}{unit}", f"{row['measured']:,.2f}",
                   "[green]PASS[/green]" if row["met"] else "[red]MISS[/red]")
    c.print(tt)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.archive", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small archive, one pass (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (progress on stderr)")
    parser.add_argument("--repeat", type=int, default=None, help="timed passes (default 3, 1 with --quick)")
    parser.add_argument("--workers", type=int, default=None, help="verify workers (default: one per core)")
    parser.add_argument("--replay-only", action="store_true",
                        help="build the archive, then measure only `arbiter replay` beside python-chess")
    args = parser.parse_args(argv)
    cfg = {"quick": args.quick, "repeat": args.repeat or (1 if args.quick else 3), "workers": args.workers}
    if cfg["repeat"] < 1:
        parser.error("--repeat must be at least 1")
    if args.replay_only:
        result = replay_only(cfg)
        print(json.dumps(result, indent=2))
        return 0
    result = run(cfg)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
