"""Durable-store benchmark: moves per second with a commit per move, the raw-insert ceiling and load times, in one run.

Measured in one process, on a SQLite file (in a fresh temporary directory) and on PostgreSQL
(a fresh schema ``arbiter_bench_<random>`` in the ``test`` database, dropped at the end; skipped
with a note when the server cannot be reached):

(1) ``durable moves``  Referee.submit_move(game_id, seat, raw_move) per move: each call is one request,
                       i.e. one load of the game (latest snapshot + later events), the decider, and one
                       save = one committed transaction (plus a snapshot row every 100 events). The move
                       sequences are prepared beforehand by random legal play in memory (4-player
                       El Royale, revised edition, seeded); the games are created through the Referee
                       before the clock starts, and only the submits are timed. The games are played
                       round-robin (one move of each game in turn). Reported as moves/s and events/s.
(2) ``ceiling``        raw inserts with ONE COMMIT PER ROW and no library in between: ``sqlite3`` into a
                       fresh file with the same table layout and the same pragmas as eventsourcing's
                       SQLite datastore (journal_mode=WAL; synchronous left at the connection default,
                       read back from the library's own connection), and ``psycopg`` (autocommit, a
                       prepared INSERT) into a table with the library's PostgreSQL layout. Each row is as
                       large as the average stored event (the ``state`` column of the events written
                       by (1) in the SQLite database).
(2b) ``floor``        the same moves through bench.durable_floor, the least a durable event-sourced move
                       needs WITHOUT the eventsourcing library (bare decider step, chain hash, one commit:
                       on PostgreSQL one prepared call that locks the table, NOTIFYs and INSERTs in one
                       transaction; on SQLite BEGIN, one INSERT of the move's rows, COMMIT, with the
                       library's pragmas), on fresh copies of the games, after each ceiling pass.
(2c) ``library floor`` the same moves through bench.durable_library_floor: a minimal eventsourcing
                       Application and Aggregate (one event class with Game.Happened's fields) on the same
                       recorders as arbiter's, one app.save a move; four variants: the aggregate kept by the
                       caller (cached) or the library's cached repository.get with its fast-forward SELECT
                       (ff), payloads prepared beforehand (pre) or the bare decider step in the move (dec).
                       The least a move costs through the library's save path: arbiter must use it.
                       Also printed: CPU ms per move of every path (time.process_time of the best pass),
                       the ratio of each to the ceiling, and the ceiling's rows/s in every pass (its spread).
(3) ``loads``          one game of about 100 and one of about 10,000 stored events (random legal play,
                       2 players, classic edition, one seed: the small game is a prefix of the large
                       one), stored through Referee.import_record (one save per game, snapshots every
                       100 events). Timed: Referee.game(id) (latest version, from the latest snapshot)
                       and Referee.game(id, version=50) (no snapshot at or before 50: 50 events
                       replayed), plus, for information, the worst case: 99 events to replay (version 99,
                       and the large game's last snapshot + 99).
                       Each timing uses a FRESH Referee (built, and its connection opened with a query
                       for another id, outside the timing): no aggregate cache is shared between timings.

Method: the corpora are built before any timing; one untimed warm-up pass per store (which also
checks results: every submitted move is accepted and every game ends at the expected version; every
loaded game has the expected version). Timings use time.perf_counter, best of N (median also given),
stores interleaved within each repetition, gc.collect() and a PostgreSQL CHECKPOINT before each timed
pass (so PostgreSQL's background writes after its own passes do not land in the SQLite passes).

Targets (reported as PASS/MISS, never asserted):
  durable moves/s >= 0.5 x ceiling rows/s (one commit per move vs one commit per row), per store
  load of the ~10,000-event game (latest version) <= 2 x load of the ~100-event game, per store

Usage:  python -m bench.durable [--quick] [--json] [--repeat N] [--postgres URL | --no-postgres]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from importlib import metadata
from typing import Any, Callable

from domain.autoplay import pick_move
from service.play.new_games import CreateGame, ImportRecord

FULL = {"move_games": 6, "moves_per_game": 200, "move_seed": 2026, "repeat": 3, "ceiling_rows": 2000,
        "load_small": 100, "load_large": 10_000, "load_seed": 2026, "load_early_version": 50, "load_repeat": 7}
QUICK = {"move_games": 2, "moves_per_game": 100, "move_seed": 2026, "repeat": 2, "ceiling_rows": 500,
         "load_small": 100, "load_large": 10_000, "load_seed": 2026, "load_early_version": 50, "load_repeat": 3}

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
POSTGRES_ENV = "ARBITER_BENCH_POSTGRES_URL"

TARGET_DURABLE_VS_CEILING = 0.5   # durable moves/s >= 0.5 x raw rows/s (one commit each)
TARGET_LOAD_LARGE_VS_SMALL = 2.0  # load(10,000 events) <= 2 x load(100 events)

GAME = "el-royale"
STORES = ("sqlite", "postgres")


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- corpora (untimed)




def _raw(move: dict) -> dict:
    """A move as a client sends it (cards as strings, no seat: the seat comes with the request)."""
    from domain.cards import format_cards

    raw = {"type": move["type"]}
    if "cards" in move:
        raw["cards"] = format_cards(move["cards"])
    if "text" in move:
        raw["text"] = move["text"]
    return raw


def play_random(options: dict, n: int, seed: str, rng: random.Random, *, max_moves: int | None = None,
                min_version: int | None = None) -> dict:
    """A random legal game played in memory through the bare decider.

    Stops after `max_moves` moves, or at the first move that brings the stored game to at least
    `min_version` events (Created + opening + the moves' events + SeedRevealed at the end). If the game
    ends too early for `min_version`, `say` moves (one event each) are inserted before its last move.
    Returns the players, the moves (with seat, cards as ints), the stored events each move adds and
    the stored version after each move.
    """
    from domain.games import decider_for
    from domain.randomness import Chance

    d = decider_for(GAME)
    players = [{"name": f"P{k}"} for k in range(n)]
    setup = d.configure(options, players, None, None)
    chance = Chance(seed)
    state = d.initial_state(setup)
    opening = d.start(setup, chance)
    for e in opening:
        state = d.evolve(state, e)
    version = 1 + len(opening)
    moves: list[dict] = []
    added: list[int] = []
    padded = 0
    while not d.outcome(state).is_over:
        if max_moves is not None and len(moves) >= max_moves:
            break
        if min_version is not None and version >= min_version:
            break
        move = pick_move(list(d.legal_moves(state)), rng)
        events, after = d.step(state, move, chance)
        k = len(events) + (1 if d.outcome(after).is_over else 0)  # + SeedRevealed
        if min_version is not None and d.outcome(after).is_over and version + k < min_version:
            pad = min_version - version - k
            for _ in range(pad):
                moves.append({"seat": 0, "type": "say", "text": "pad"})
                added.append(1)
                version += 1
            padded += pad
            events, after = d.step(state, move, chance)  # the say moves leave the position unchanged
        state = after
        moves.append(move)
        added.append(k)
        version += k
    versions, v = [], 1 + len(opening)
    for k in added:
        v += k
        versions.append(v)
    return {"options": dict(options), "players": players, "seed": seed, "moves": moves, "added": added,
            "versions": versions, "start_version": 1 + len(opening), "final_version": version,
            "over": d.outcome(state).is_over, "padded_says": padded}


def move_corpus(cfg: dict) -> list[dict]:
    """The games replayed by (1): random 4-player revised El Royale, `moves_per_game` moves each."""
    rng = random.Random(cfg["move_seed"])
    return [play_random({"edition": "revised"}, 4, f"{cfg['move_seed'] + i:08x}", rng, max_moves=cfg["moves_per_game"])
            for i in range(cfg["move_games"])]


def load_games(cfg: dict) -> dict[str, dict]:
    """The two games of (3): one random 2-player classic game cut at about 100 and about 10,000 events."""
    large = play_random({"edition": "classic"}, 2, f"{cfg['load_seed']:08x}", random.Random(cfg["load_seed"]),
                        min_version=cfg["load_large"])
    cut = next(i for i, v in enumerate(large["versions"]) if v >= cfg["load_small"]) + 1
    small = dict(large, moves=large["moves"][:cut], added=large["added"][:cut], versions=large["versions"][:cut],
                 final_version=large["versions"][cut - 1], over=False,
                 padded_says=sum(1 for m in large["moves"][:cut] if m["type"] == "say" and m.get("text") == "pad"))
    return {"small": small, "large": large}


def spec_of(game: dict) -> dict:
    return {"game": GAME, "options": game["options"], "players": game["players"], "seed": game["seed"]}


def record_of(game: dict) -> dict:
    from domain.records import FORMAT

    return {"format": FORMAT, **spec_of(game), "moves": [dict(_raw(m), seat=m["seat"]) for m in game["moves"]]}


# --------------------------------------------------------------------------- stores


class Stores:
    """The SQLite directory and the PostgreSQL schema of this run, and how to open a Referee on each."""

    def __init__(self, tmp: str, postgres_base: str | None):
        self.tmp = tmp
        self.sqlite_file = os.path.join(tmp, "durable.db")
        self.postgres_base = postgres_base
        self.schema = f"arbiter_bench_{secrets.token_hex(4)}"
        self.postgres_note: str | None = None
        self.postgres_server: dict = {}

    def urls(self) -> dict[str, str]:
        out = {"sqlite": f"sqlite:///{self.sqlite_file}"}
        if self.postgres_base:
            out["postgres"] = f"{self.postgres_base}?schema={self.schema}"
        return out

    def names(self) -> list[str]:
        return list(self.urls())

    def referee(self, store: str):
        from service.play.referee import Referee

        return Referee(self.urls()[store])

    def pg_connect(self, **kw):
        import psycopg
        from urllib.parse import urlparse, unquote

        u = urlparse(self.postgres_base)
        return psycopg.connect(host=u.hostname or "127.0.0.1", port=u.port or 5432,
                               user=unquote(u.username or "postgres"), password=unquote(u.password or "") or None,
                               dbname=u.path.lstrip("/"), **kw)

    def probe_postgres(self) -> None:
        """Is the server reachable? If not, PostgreSQL is skipped with a note."""
        if not self.postgres_base:
            self.postgres_note = "PostgreSQL skipped: --no-postgres"
            return
        try:
            with self.pg_connect(connect_timeout=3, autocommit=True) as conn:
                row = conn.execute("SELECT current_setting('server_version'), current_setting('synchronous_commit'), "
                                   "current_setting('fsync'), current_setting('wal_sync_method')").fetchone()
            self.postgres_server = {"server_version": row[0], "synchronous_commit": row[1], "fsync": row[2],
                                    "wal_sync_method": row[3]}
        except Exception as e:  # noqa: BLE001 - any failure to connect means: skip, and say why
            self.postgres_note = f"PostgreSQL skipped: {self.postgres_base} is unreachable ({type(e).__name__}: {str(e).strip()[:200]})"
            self.postgres_base = None

    def quiesce(self) -> None:
        """Start a timed pass on a quiet disk: PostgreSQL flushes what earlier passes left dirty (CHECKPOINT).

        Without it, PostgreSQL's background writes after its own passes land in the SQLite passes
        and slowed SQLite commits several-fold on this machine.
        """
        if not self.postgres_base:
            return
        with self.pg_connect(connect_timeout=5, autocommit=True) as conn:
            conn.execute("CHECKPOINT")

    def drop_postgres(self) -> None:
        if not self.postgres_base:
            return
        from psycopg import sql

        try:
            with self.pg_connect(connect_timeout=5, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))
        except Exception as e:  # noqa: BLE001
            _log(f"warning: could not drop schema {self.schema}: {e}")


def library_sqlite_pragmas(app) -> dict:
    """journal_mode and synchronous as eventsourcing's own SQLite connection has them."""
    with app.recorder.datastore.transaction(commit=False) as c:
        c.execute("PRAGMA journal_mode")
        journal = c.fetchone()[0]
        c.execute("PRAGMA synchronous")
        sync = c.fetchone()[0]
    return {"journal_mode": str(journal).lower(), "synchronous": int(sync)}


def warm(app) -> None:
    """Open the Referee's connection (a query for an id that is not stored) so connecting is not timed."""
    app.recorder.select_events(uuid.uuid4(), limit=1)


# --------------------------------------------------------------------------- (1) durable moves


def create_games(app, corpus: list[dict]) -> list:
    return [app.create_game(CreateGame.from_body(spec_of(g)))["game"].id for g in corpus]


def schedule(ids: list, corpus: list[dict]) -> list[tuple]:
    """Round robin: move 1 of each game, then move 2 of each game, ..."""
    out = []
    for i in range(max(len(g["moves"]) for g in corpus)):
        for gid, g in zip(ids, corpus):
            if i < len(g["moves"]):
                m = g["moves"][i]
                out.append((gid, m["seat"], _raw(m)))
    return out


def run_moves(app, plan: list[tuple]) -> list:
    submit = app.submit_move
    return [submit(gid, seat, raw) for gid, seat, raw in plan]


def check_moves(app, ids: list, corpus: list[dict], answers: list, store: str) -> None:
    if any(a.get("replayed") or a.get("version") is None for a in answers):
        raise SystemExit(f"bench: {store}: a submitted move was not applied as a new move")
    for gid, g in zip(ids, corpus):
        v = app.game(gid).version
        if v != g["final_version"]:
            raise SystemExit(f"bench: {store}: game {gid} is at version {v}, expected {g['final_version']}")


# --------------------------------------------------------------------------- (2) ceilings


def average_event_size(sqlite_file: str, ids: list) -> dict:
    """The stored events of the move games in the SQLite file: count and mean size of the state column."""
    conn = sqlite3.connect(sqlite_file)
    try:
        marks = ",".join("?" * len(ids))
        count, mean, lo, hi = conn.execute(
            f"SELECT COUNT(*), AVG(LENGTH(state)), MIN(LENGTH(state)), MAX(LENGTH(state)) FROM stored_events "
            f"WHERE originator_id IN ({marks})", [gid.hex for gid in ids]).fetchone()
        topic, = conn.execute("SELECT topic FROM stored_events WHERE topic LIKE '%Happened' LIMIT 1").fetchone()
        snaps, snap_mean = conn.execute(f"SELECT COUNT(*), AVG(LENGTH(state)) FROM stored_snapshots "
                                        f"WHERE originator_id IN ({marks})", [gid.hex for gid in ids]).fetchone()
    finally:
        conn.close()
    return {"events": count, "mean_bytes": mean, "min_bytes": lo, "max_bytes": hi, "topic": topic,
            "snapshots": snaps, "snapshot_mean_bytes": snap_mean}


def ceiling_rows(n: int, size: int, topic: str, seed: int) -> list[tuple]:
    """`n` rows like stored events: 100 versions per originator, a `size`-byte state."""
    rng = random.Random(seed)
    rows, oid = [], None
    for i in range(n):
        if i % 100 == 0:
            oid = uuid.UUID(int=rng.getrandbits(128), version=4)
        rows.append((oid, i % 100 + 1, topic, rng.randbytes(size)))
    return rows


SQLITE_TABLE = ("CREATE TABLE IF NOT EXISTS stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, "
                "state BLOB, PRIMARY KEY (originator_id, originator_version))")


def run_sqlite_ceiling(path: str, rows: list[tuple], pragmas: dict) -> float:
    """sqlite3, autocommit connection like the library's, BEGIN + INSERT + commit() per row; returns seconds."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, cached_statements=True)
    try:
        conn.execute(f"PRAGMA journal_mode={pragmas['journal_mode']}")
        conn.execute(f"PRAGMA synchronous={pragmas['synchronous']}")
        conn.execute(SQLITE_TABLE)
        params = [(oid.hex, v, topic, state) for oid, v, topic, state in rows]
        cur = conn.cursor()
        insert = "INSERT INTO stored_events VALUES (?,?,?,?)"
        gc.collect()
        t0 = time.perf_counter()
        for p in params:
            cur.execute("BEGIN")
            cur.execute(insert, p)
            conn.commit()
        dt = time.perf_counter() - t0
        (count,) = conn.execute("SELECT COUNT(*) FROM stored_events").fetchone()
        if count != len(rows):
            raise SystemExit(f"bench: SQLite ceiling wrote {count} rows, expected {len(rows)}")
        return dt
    finally:
        conn.close()


def run_postgres_ceiling(stores: Stores, table: str, rows: list[tuple]) -> float:
    """psycopg, autocommit: one prepared INSERT per row = one commit per row; returns seconds."""
    from psycopg import sql

    schema = sql.Identifier(stores.schema)
    ident = sql.Identifier(table)
    with stores.pg_connect(autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
        conn.execute(sql.SQL("CREATE TABLE {}.{} (originator_id uuid NOT NULL, originator_version bigint NOT NULL, "
                             "topic text, state bytea, notification_id bigserial, "
                             "PRIMARY KEY (originator_id, originator_version))").format(schema, ident))
        conn.execute(sql.SQL("CREATE UNIQUE INDEX ON {}.{} (notification_id ASC)").format(schema, ident))
        insert = sql.SQL("INSERT INTO {}.{} (originator_id, originator_version, topic, state) "
                         "VALUES (%s, %s, %s, %s) RETURNING notification_id").format(schema, ident)
        cur = conn.cursor()
        gc.collect()
        t0 = time.perf_counter()
        for row in rows:
            cur.execute(insert, row, prepare=True)
        dt = time.perf_counter() - t0
        (count,) = conn.execute(sql.SQL("SELECT COUNT(*) FROM {}.{}").format(schema, ident)).fetchone()
        conn.execute(sql.SQL("DROP TABLE {}.{}").format(schema, ident))
    if count != len(rows):
        raise SystemExit(f"bench: PostgreSQL ceiling wrote {count} rows, expected {len(rows)}")
    return dt


# --------------------------------------------------------------------------- (3) loads


def load_cases(games: dict[str, dict], early: int) -> list[tuple[str, str, int | None, int]]:
    """(case, game, version asked for, expected version)."""
    small, large = games["small"]["final_version"], games["large"]["final_version"]
    last_snap_large = large // 100 * 100
    return [
        ("latest", "small", None, small),
        ("latest", "large", None, large),
        ("early", "small", early, early),
        ("early", "large", early, early),
        ("worst", "small", 99, 99),
        ("worst", "large", last_snap_large - 1, last_snap_large - 1),
    ]


def timed_load(stores: Stores, store: str, gid, version: int | None, expected: int) -> float:
    app = stores.referee(store)  # a fresh Referee: nothing cached from earlier loads
    try:
        warm(app)
        gc.collect()
        t0 = time.perf_counter()
        game = app.game(gid, version)
        dt = time.perf_counter() - t0
        if game.version != expected:
            raise SystemExit(f"bench: {store}: loaded version {game.version}, expected {expected}")
        return dt
    finally:
        app.close()


# --------------------------------------------------------------------------- measurement


def machine(tmp: str) -> dict:
    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "?"

    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu_count": os.cpu_count(),
        "eventsourcing": version("eventsourcing"),
        "psycopg": version("psycopg"),
        "sqlite": sqlite3.sqlite_version,
        "tmp_filesystem": _filesystem(tmp),
    }


def _filesystem(path: str) -> str:
    """The file system type under `path` (from /proc/mounts; '?' elsewhere)."""
    try:
        best, kind = "", "?"
        real = os.path.realpath(path)
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and (real == parts[1] or real.startswith(parts[1].rstrip("/") + "/")) \
                        and len(parts[1]) > len(best):
                    best, kind = parts[1], f"{parts[2]} on {parts[1]}"
        return kind
    except OSError:
        return "?"


def timed(fn: Callable[[], Any], cpu: list | None = None) -> tuple[float, Any]:
    """Wall seconds of fn() and its result; its CPU seconds (this process) appended to `cpu` if given."""
    gc.collect()
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(time.process_time() - c0)
    return dt, out


def summary(ts: list[float]) -> dict:
    return {"best_s": min(ts), "median_s": statistics.median(ts), "times_s": ts}


def run_floor(conn, schema: str, corpus: list[dict], cpu: list | None = None) -> float:
    """One pass of the PostgreSQL floor prototype (bench.durable_floor) over fresh copies of the corpus's games,
    round robin like (1); checks every game ends at the expected version; returns wall seconds."""
    from bench.durable_floor import Floor

    floor = Floor(conn, schema, corpus, GAME)
    ids = floor.ids()
    plan = schedule(ids, corpus)
    dt, _ = timed(lambda: [floor.move(*p) for p in plan], cpu)
    for gid, g in zip(ids, corpus):
        if floor.games[gid][0] != g["final_version"]:
            raise SystemExit(f"bench: the floor's game ended at version {floor.games[gid][0]}, expected {g['final_version']}")
    return dt


def run_library_floor(lib: Any, corpus: list[dict], variant: str, cpu: list | None = None) -> float:
    """One pass of bench.durable_library_floor (the eventsourcing library's save path) in `variant` over fresh games,
    round robin like (1); checks every game ends at the expected version; returns wall seconds."""
    from bench.durable_library_floor import LibraryFloor

    floor = LibraryFloor(lib, corpus, GAME, variant)
    ids = floor.ids()
    plan = schedule(ids, corpus)
    dt, _ = timed(lambda: [floor.move(*p) for p in plan], cpu)
    for gid, g in zip(ids, corpus):
        if floor.version(gid) != g["final_version"]:
            raise SystemExit(f"bench: the library floor ({variant}) ended at version {floor.version(gid)}, "
                             f"expected {g['final_version']}")
    return dt


def library_floor_event_size(app: Any) -> float | None:
    """Mean bytes of the library floor's stored `state` column (SQLite only: read from its file)."""
    dbname = app.env.get("SQLITE_DBNAME") if hasattr(app, "env") else None
    if not dbname:
        return None
    conn = sqlite3.connect(dbname)
    try:
        (mean,) = conn.execute("SELECT AVG(LENGTH(state)) FROM stored_events WHERE topic LIKE '%Moved'").fetchone()
        return mean
    finally:
        conn.close()


def run_sqlite_floor(conn, corpus: list[dict], cpu: list | None = None) -> float:
    """One pass of the floor on SQLite (bench.durable_floor.SqliteFloor: the same move without the library, one
    BEGIN/INSERT/COMMIT a move) over fresh games, round robin like (1); checks the versions; returns wall seconds."""
    from bench.durable_floor import SqliteFloor

    floor = SqliteFloor(conn, corpus, GAME)
    ids = floor.ids()
    plan = schedule(ids, corpus)
    dt, _ = timed(lambda: [floor.move(*p) for p in plan], cpu)
    for gid, g in zip(ids, corpus):
        if floor.games[gid][0] != g["final_version"]:
            raise SystemExit(f"bench: the SQLite floor's game ended at version {floor.games[gid][0]}, "
                             f"expected {g['final_version']}")
    return dt


def run(cfg: dict, postgres_base: str | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
        stores = Stores(tmp, postgres_base)
        stores.probe_postgres()
        if stores.postgres_note:
            _log(stores.postgres_note)
        try:
            return _run(cfg, stores, tmp)
        finally:
            stores.drop_postgres()


def _run(cfg: dict, stores: Stores, tmp: str) -> dict:
    names = stores.names()
    _log(f"preparing move sequences: {cfg['move_games']} random 4-player revised games x {cfg['moves_per_game']} moves ...")
    corpus = move_corpus(cfg)
    n_moves = sum(len(g["moves"]) for g in corpus)
    n_events = sum(g["final_version"] - g["start_version"] for g in corpus)
    _log(f"preparing load games: 2-player classic, ~{cfg['load_small']} and ~{cfg['load_large']:,} events ...")
    lgames = load_games(cfg)

    apps = {s: stores.referee(s) for s in names}
    pragmas = library_sqlite_pragmas(apps["sqlite"])

    # -- warm-up and checks (untimed); the SQLite database it writes gives the stored event size
    _log("durable moves: warm-up and checks (untimed) ...")
    warm_ids: dict[str, list] = {}
    for s in names:
        ids = create_games(apps[s], corpus)
        check_moves(apps[s], ids, corpus, run_moves(apps[s], schedule(ids, corpus)), s)
        warm_ids[s] = ids
    size = average_event_size(stores.sqlite_file, warm_ids["sqlite"])
    row_bytes = round(size["mean_bytes"])
    rows = ceiling_rows(cfg["ceiling_rows"], row_bytes, size["topic"], cfg["move_seed"])
    _log(f"ceilings: {len(rows):,} rows of {row_bytes} bytes (the mean stored event), one commit each; warm-up ...")
    run_sqlite_ceiling(os.path.join(tmp, "ceiling-warmup.db"), rows[:100], pragmas)
    floor_conn = None
    sqlite_floor_conn = sqlite3.connect(os.path.join(tmp, "floor.db"), isolation_level=None, check_same_thread=False)
    sqlite_floor_conn.execute(f"PRAGMA journal_mode={pragmas['journal_mode']}")
    sqlite_floor_conn.execute(f"PRAGMA synchronous={pragmas['synchronous']}")
    _log("floor (SQLite, no library): warm-up and checks (untimed) ...")
    run_sqlite_floor(sqlite_floor_conn, corpus)
    if "postgres" in names:
        run_postgres_ceiling(stores, "raw_ceiling_warmup", rows[:100])
        from bench import durable_floor

        floor_conn = stores.pg_connect(autocommit=True)
        durable_floor.setup(floor_conn, stores.schema)
        _log("floor (PostgreSQL prototype): warm-up and checks (untimed) ...")
        run_floor(floor_conn, stores.schema, corpus)
    from bench.durable_library_floor import VARIANTS, open_app

    lib_urls = dict(stores.urls(), sqlite=f"sqlite:///{os.path.join(tmp, 'library-floor.db')}")
    libs = {s: {"cached": open_app(lib_urls[s], cache=False), "ff": open_app(lib_urls[s], cache=True)} for s in names}
    _log(f"library floor ({', '.join(VARIANTS)}): warm-up and checks (untimed) ...")
    for s in names:
        for v in VARIANTS:
            run_library_floor(libs[s][v.split("-")[0]], corpus, v)
    lib_size = library_floor_event_size(libs["sqlite"]["cached"])

    # -- (1) durable moves and (2) ceilings: each store's moves then its ceiling, stores interleaved,
    #    every timed pass starting on a quiet disk (stores.quiesce: a PostgreSQL CHECKPOINT)
    move_times: dict[str, list[float]] = {s: [] for s in names}
    move_ids: dict[str, list] = {s: list(warm_ids[s]) for s in names}
    ceil_times: dict[str, list[float]] = {s: [] for s in names}
    move_cpu: dict[str, list[float]] = {s: [] for s in names}
    floor_times: list[float] = []
    floor_cpu: list[float] = []
    sqlite_floor_times: list[float] = []
    sqlite_floor_cpu: list[float] = []
    lib_times: dict[tuple, list[float]] = {(s, v): [] for s in names for v in VARIANTS}
    lib_cpu: dict[tuple, list[float]] = {(s, v): [] for s in names for v in VARIANTS}
    for rep in range(cfg["repeat"]):
        _log(f"durable moves and ceilings: repetition {rep + 1}/{cfg['repeat']} ...")
        for s in names:
            ids = create_games(apps[s], corpus)
            plan = schedule(ids, corpus)
            stores.quiesce()
            dt, answers = timed(lambda: run_moves(apps[s], plan), move_cpu[s])
            check_moves(apps[s], ids, corpus, answers, s)
            move_times[s].append(dt)
            move_ids[s].extend(ids)
            stores.quiesce()
            if s == "sqlite":
                ceil_times[s].append(run_sqlite_ceiling(os.path.join(tmp, f"ceiling-{rep}.db"), rows, pragmas))
                stores.quiesce()
                sqlite_floor_times.append(run_sqlite_floor(sqlite_floor_conn, corpus, sqlite_floor_cpu))
            else:
                ceil_times[s].append(run_postgres_ceiling(stores, f"raw_ceiling_{rep}", rows))
                stores.quiesce()
                floor_times.append(run_floor(floor_conn, stores.schema, corpus, floor_cpu))
            for v in VARIANTS:
                stores.quiesce()
                lib_times[(s, v)].append(run_library_floor(libs[s][v.split("-")[0]], corpus, v, lib_cpu[(s, v)]))
    if floor_conn is not None:
        floor_conn.close()
    sqlite_floor_conn.close()
    for pair in libs.values():
        for lib in pair.values():
            lib.close()
    # -- (3) loads
    load_ids: dict[str, dict] = {}
    for s in names:
        _log(f"loads: storing the two games in {s} (import_record, one save each) ...")
        load_ids[s] = {}
        for key, g in lgames.items():
            t0 = time.perf_counter()
            out = apps[s].import_record(ImportRecord.from_body(record_of(g)))
            if out["illegal"] is not None or out["game"].version != g["final_version"]:
                raise SystemExit(f"bench: {s}: the {key} load game did not import cleanly: {out['illegal']}")
            load_ids[s][key] = out["game"].id
            _log(f"  {key}: {g['final_version']:,} events in {time.perf_counter() - t0:.1f}s")
    for app in apps.values():
        app.close()
    cases = load_cases(lgames, cfg["load_early_version"])
    for s in names:  # warm-up (untimed)
        for _, key, version, expected in cases:
            timed_load(stores, s, load_ids[s][key], version, expected)
    stores.quiesce()
    load_times: dict[tuple, list[float]] = {(s, c, k): [] for s in names for c, k, _, _ in cases}
    for rep in range(cfg["load_repeat"]):
        _log(f"loads: repetition {rep + 1}/{cfg['load_repeat']} ...")
        for s in names:
            for case, key, version, expected in cases:
                load_times[(s, case, key)].append(timed_load(stores, s, load_ids[s][key], version, expected))

    # -- results
    moves = {}
    for s in names:
        sm = summary(move_times[s])
        moves[s] = {**sm, "moves": n_moves, "events": n_events, "games": len(corpus),
                    "moves_per_s": n_moves / sm["best_s"], "events_per_s": n_events / sm["best_s"],
                    "cpu_ms_per_move": 1000 * min(move_cpu[s]) / n_moves}
    floor = None
    if floor_times:
        sm = summary(floor_times)
        floor = {**sm, "moves": n_moves, "moves_per_s": n_moves / sm["best_s"],
                 "cpu_ms_per_move": 1000 * min(floor_cpu) / n_moves,
                 "vs_ceiling": n_moves / sm["best_s"] / (len(rows) / min(ceil_times["postgres"]))}
    sm = summary(sqlite_floor_times)
    floor_sqlite = {**sm, "moves": n_moves, "moves_per_s": n_moves / sm["best_s"],
                    "cpu_ms_per_move": 1000 * min(sqlite_floor_cpu) / n_moves,
                    "vs_ceiling": n_moves / sm["best_s"] / (len(rows) / min(ceil_times["sqlite"]))}
    library_floor: dict[str, dict] = {}
    for s in names:
        library_floor[s] = {}
        for v in VARIANTS:
            sm = summary(lib_times[(s, v)])
            library_floor[s][v] = {**sm, "moves": n_moves, "moves_per_s": n_moves / sm["best_s"],
                                   "cpu_ms_per_move": 1000 * min(lib_cpu[(s, v)]) / n_moves,
                                   "vs_ceiling": n_moves / sm["best_s"] / (len(rows) / min(ceil_times[s]))}
    ceilings = {}
    for s in names:
        sm = summary(ceil_times[s])
        ceilings[s] = {**sm, "rows": len(rows), "row_bytes": row_bytes, "rows_per_s": len(rows) / sm["best_s"],
                       "rows_per_s_each": [len(rows) / t for t in ceil_times[s]],
                       "spread": max(ceil_times[s]) / min(ceil_times[s])}
    loads = []
    for s in names:
        for case, key, version, expected in cases:
            sm = summary(load_times[(s, case, key)])
            loads.append({"store": s, "case": case, "game": key, "game_events": lgames[key]["final_version"],
                          "version": expected, "from_snapshot": expected // 100 * 100 if expected >= 100 else None,
                          "replayed_events": expected - (expected // 100 * 100 if expected >= 100 else 0), **sm})
    by = {(r["store"], r["case"], r["game"]): r for r in loads}
    for r in loads:
        r["vs_small"] = r["best_s"] / by[(r["store"], r["case"], "small")]["best_s"]

    targets = {}
    for s in names:
        ratio = moves[s]["moves_per_s"] / ceilings[s]["rows_per_s"]
        targets[f"durable_vs_ceiling_{s}"] = {"store": s, "kind": "durable", "target": TARGET_DURABLE_VS_CEILING,
                                              "measured": ratio, "met": ratio >= TARGET_DURABLE_VS_CEILING}
        ratio = by[(s, "latest", "large")]["vs_small"]
        targets[f"load_large_vs_small_{s}"] = {"store": s, "kind": "load", "target": TARGET_LOAD_LARGE_VS_SMALL,
                                               "measured": ratio, "met": ratio <= TARGET_LOAD_LARGE_VS_SMALL}
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(tmp),
        "config": dict(cfg),
        "method": (f"best of {cfg['repeat']} for moves and ceilings, best of {cfg['load_repeat']} for loads "
                   "(median also given), time.perf_counter, stores interleaved, 1 untimed warm-up pass"),
        "stores": {"sqlite": {"url": "sqlite:///<tmp>/durable.db", "library_pragmas": pragmas},
                   "postgres": ({"url": stores.urls()["postgres"], **stores.postgres_server} if "postgres" in names
                                else {"skipped": stores.postgres_note})},
        "corpus": {"move_games": len(corpus), "moves": n_moves, "events": n_events,
                   "events_per_move": n_events / n_moves, "games_over": sum(g["over"] for g in corpus),
                   "stored_event_size": size,
                   "load_games": {k: {"events": g["final_version"], "moves": len(g["moves"]),
                                      "padded_says": g["padded_says"]} for k, g in lgames.items()}},
        "moves": moves,
        "ceilings": ceilings,
        "floor": floor,
        "floor_sqlite": floor_sqlite,
        "library_floor": library_floor,
        "library_floor_event_bytes": lib_size,
        "loads": loads,
        "targets": targets,
        "notes": [n for n in [stores.postgres_note] if n],
    }


# --------------------------------------------------------------------------- output


def print_table(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if console.width < 100:  # the tables need 100 columns; piped output is 80 wide by default
        console = Console(width=100)
    m = result["machine"]
    console.print(f"[bold]arbiter durable-store benchmark[/bold]  {result['date']}")
    console.print(f"machine: {m['platform']} ({m['machine']}), {m['python']}, {m['cpu_count']} CPUs; "
                  f"eventsourcing {m['eventsourcing']}, psycopg {m['psycopg']}, SQLite {m['sqlite']}; "
                  f"temp dir on {m['tmp_filesystem']}")
    st = result["stores"]
    p = st["sqlite"]["library_pragmas"]
    console.print(f"SQLite: journal_mode={p['journal_mode']}, synchronous={p['synchronous']} "
                  "(as eventsourcing's connection has them; the ceiling uses the same)")
    if "skipped" in st["postgres"]:
        console.print(f"[yellow]{st['postgres']['skipped']}[/yellow]")
    else:
        pg = st["postgres"]
        console.print(f"PostgreSQL {pg['server_version']}: synchronous_commit={pg['synchronous_commit']}, "
                      f"fsync={pg['fsync']}, wal_sync_method={pg['wal_sync_method']}; {pg['url']} (dropped afterwards)")
    console.print(f"method: {result['method']}")
    c = result["corpus"]
    size = c["stored_event_size"]

    t = Table(title="(1) durable moves (submit_move: load + decide + commit) vs (2) the ceiling")
    for col, just in (("store", "left"), ("path", "left"), ("count", "right"), ("best s", "right"),
                      ("median s", "right"), ("per second", "right"), ("ms each", "right")):
        t.add_column(col, justify=just)
    for s, mv in result["moves"].items():
        ce = result["ceilings"][s]
        t.add_row(s, "submit_move", f"{mv['moves']:,} moves", f"{mv['best_s']:.3f}", f"{mv['median_s']:.3f}",
                  f"{mv['moves_per_s']:,.0f} moves", f"{1000 * mv['best_s'] / mv['moves']:.2f}")
        fl = result.get("floor") if s == "postgres" else result.get("floor_sqlite")
        if fl:
            t.add_row("", "floor (proto)", f"{fl['moves']:,} moves", f"{fl['best_s']:.3f}", f"{fl['median_s']:.3f}",
                      f"{fl['moves_per_s']:,.0f} moves", f"{1000 * fl['best_s'] / fl['moves']:.2f}")
        for v, lf in result.get("library_floor", {}).get(s, {}).items():
            t.add_row("", f"library floor {v}", f"{lf['moves']:,} moves", f"{lf['best_s']:.3f}", f"{lf['median_s']:.3f}",
                      f"{lf['moves_per_s']:,.0f} moves", f"{1000 * lf['best_s'] / lf['moves']:.2f}")
        t.add_row("", "", f"{mv['events']:,} events", "", "", f"{mv['events_per_s']:,.0f} events",
                  f"{1000 * mv['best_s'] / mv['events']:.2f}")
        t.add_row("", "raw insert", f"{ce['rows']:,} rows", f"{ce['best_s']:.3f}", f"{ce['median_s']:.3f}",
                  f"{ce['rows_per_s']:,.0f} rows", f"{1000 * ce['best_s'] / ce['rows']:.2f}")
    console.print(t)
    console.print(f"{c['move_games']} random 4-player revised games, {c['moves']:,} moves -> {c['events']:,} stored events "
                  f"({c['events_per_move']:.2f} per move) and {size['snapshots']} snapshots ({size['snapshot_mean_bytes']:,.0f} "
                  f"bytes on average) per pass. Stored event: {size['mean_bytes']:.0f} bytes on average "
                  f"({size['min_bytes']}-{size['max_bytes']}); raw insert: one {result['ceilings']['sqlite']['row_bytes']}-byte "
                  "row per commit.")
    for s, mv in result["moves"].items():
        ce = result["ceilings"][s]
        line = (f"{s}: submit_move CPU {mv['cpu_ms_per_move']:.3f} ms/move (best pass, this process); raw insert "
                f"per pass: {', '.join(f'{r:,.0f}' for r in ce['rows_per_s_each'])} rows/s (slowest/fastest "
                f"{ce['spread']:.2f}x)")
        fl = result.get("floor") if s == "postgres" else result.get("floor_sqlite")
        if fl:
            line += (f"; floor (bench.durable_floor: decider + chain hash + one locked-insert round trip on PostgreSQL, one BEGIN/INSERT/COMMIT on SQLite) "
                     f"{fl['vs_ceiling']:.2f}x the ceiling, CPU {fl['cpu_ms_per_move']:.3f} ms/move, submit_move "
                     f"{mv['moves_per_s'] / fl['moves_per_s']:.2f}x the floor")
        console.print(line)
        ratio = mv["moves_per_s"] / ce["rows_per_s"]
        parts = [f"submit_move {ratio:.2f}x the ceiling at {mv['cpu_ms_per_move']:.3f} ms CPU/move"]
        for v, lf in result.get("library_floor", {}).get(s, {}).items():
            parts.append(f"library floor {v} {lf['vs_ceiling']:.2f}x at {lf['cpu_ms_per_move']:.3f}")
        console.print(f"{s}: " + "; ".join(parts))
    if result.get("library_floor_event_bytes"):
        console.print(f"library floor: its stored event {result['library_floor_event_bytes']:.0f} bytes on average "
                      f"(arbiter's {size['mean_bytes']:.0f}); variants: cached = the aggregate kept between moves, "
                      "ff = the library's cached repository.get (one fast-forward SELECT, as arbiter); pre = payloads "
                      "computed beforehand, dec = bare decider step + chain hash in the move")

    t = Table(title="(3) loading a game with a fresh Referee")
    for col, just in (("store", "left"), ("load", "left"), ("events", "right"), ("version", "right"),
                      ("from", "right"), ("replayed", "right"), ("best ms", "right"), ("median ms", "right"),
                      ("vs small", "right")):
        t.add_column(col, justify=just, no_wrap=True)
    for r in result["loads"]:
        t.add_row(r["store"], r["case"], f"{r['game_events']:,}", f"{r['version']:,}",
                  f"snap {r['from_snapshot']:,}" if r["from_snapshot"] else "start", f"{r['replayed_events']}",
                  f"{1000 * r['best_s']:.2f}", f"{1000 * r['median_s']:.2f}", f"{r['vs_small']:.2f}x")
    console.print(t)
    lg = c["load_games"]
    console.print(f"load games: 2-player classic, {lg['small']['events']:,} and {lg['large']['events']:,} stored events "
                  f"({lg['small']['moves']:,} / {lg['large']['moves']:,} moves, {lg['large']['padded_says']} padding say "
                  f"moves). load: latest = game(id), early = game(id, version={result['config']['load_early_version']}), worst = 99 events to replay after the "
                  "last snapshot (or from the start); from: the snapshot used; vs small: best time / the ~100-event "
                  "game's for the same load.")

    t = Table(title="targets")
    for col in ("target", "required", "measured", "verdict"):
        t.add_column(col)
    for row in result["targets"].values():
        verdict = "[green]PASS[/green]" if row["met"] else "[red]MISS[/red]"
        if row["kind"] == "durable":
            t.add_row(f"{row['store']}: durable moves/s vs ceiling rows/s", f">= {row['target']:g}x",
                      f"{row['measured']:.2f}x", verdict)
        else:
            t.add_row(f"{row['store']}: load ~10k-event vs ~100-event game", f"<= {row['target']:g}x",
                      f"{row['measured']:.2f}x", verdict)
    console.print(t)
    for n in result["notes"]:
        console.print(f"[yellow]note:[/yellow] {n}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.durable", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"smaller run ({QUICK['move_games']} games x {QUICK['moves_per_game']} moves, "
                             f"{QUICK['ceiling_rows']} ceiling rows, best of {QUICK['repeat']}/{QUICK['load_repeat']})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (progress goes to stderr)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed repetitions of moves and ceilings (default 3, or 2 with --quick)")
    parser.add_argument("--postgres", default=os.environ.get(POSTGRES_ENV, DEFAULT_POSTGRES),
                        help=f"PostgreSQL database for the run's own schema (default ${POSTGRES_ENV} or {DEFAULT_POSTGRES})")
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    cfg["quick"] = args.quick
    if args.repeat is not None:
        if args.repeat < 1:
            parser.error("--repeat must be at least 1")
        cfg["repeat"] = args.repeat
    base = None if args.no_postgres else args.postgres.split("?", 1)[0]
    result = run(cfg, base)
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
