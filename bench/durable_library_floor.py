"""The floor of a durable move through the eventsourcing library's own save path: a row of bench.durable (issue 11 part 2).

arbiter must store its games with the eventsourcing library (its Aggregate, Application and recorders), so the least a
move can cost *in this project* is what the library's save path costs, not bench.durable_floor's bare SQL. This module
measures that, on the same games and prepared moves as bench.durable's (1), played sequentially round robin:

  * a minimal eventsourcing Application (`LibraryFloorApp`) on the same store URL arbiter uses, through
    service.adapters.stores.persistence_env: the same recorders (PostgreSQL: service.adapters.pg_recorder.LockedInsertRecorder, one
    locked-insert call; SQLite: the library's own recorder, no group commit), no snapshots;
  * the library's Aggregate (`LibGame`) with one event class (`LibGame.Moved`) carrying the fields arbiter's
    Game.Happened stores for an event (kind, data, actor, clause, engine_version, idempotency_key, automatic and the
    previous event's chain hash), so the stored events are as large as arbiter's (both sizes are reported);
  * per move, `trigger_event` once per event the move stores (the decider's events, plus one at a game's end like
    arbiter's SeedRevealed) and ONE `app.save(aggregate)` = one commit.

Variants (`VARIANTS`):
  cached  the aggregate object is kept by the caller between moves: no load, no SELECT;
  ff      the library's cached repository.get (AGGREGATE_CACHE_MAXSIZE, fast-forward on, a copy from the cache), i.e. the
          same fast-forward SELECT arbiter's Referee does before every move, with arbiter's two choices around it (its
          projector without the library's per-event Protocol assert, and a copy made as Game.__deepcopy__ makes it:
          with copy.deepcopy's default recursion this variant cost ~0.06 ms more CPU a move), and the saved aggregate
          put back in the cache (as the store's unit of work does);
  x  pre  the events' payloads computed beforehand (untimed) by the bare decider: the move costs only the library;
     dec  the bare decider step in the move (domain.records.parse_move, decider.step on a state kept in memory, the
          chain hash domain.audit.fields_hash per event), as bench.durable_floor does.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

ENGINE_VERSION = "bench"
VARIANTS = ("cached-pre", "cached-dec", "ff-pre", "ff-dec")


class LibGame(Aggregate):
    """A game as the library stores it, and nothing else: its id, version and chain head."""

    head = ""

    class Moved(Aggregate.Event):
        kind: str
        data: dict
        actor: str
        clause: str | None
        engine_version: str
        idempotency_key: str | None
        automatic: bool
        prev: str

        def apply(self, game: "LibGame") -> None:
            game.head = self.prev

    def __deepcopy__(self, memo: dict) -> "LibGame":
        """The copy the library's cache hands out for a command, made as arbiter's Game makes it (its attributes'
        dict copied, the pending events' list copied) rather than by copy.deepcopy's recursion."""
        new = object.__new__(type(self))
        new.__dict__ = dict(self.__dict__)
        new.__dict__["_pending_events"] = list(self.__dict__["_pending_events"])
        return new


def _project(aggregate: Any, events: Any) -> Any:
    """service.store.loading's projector (the library's project_aggregate without its per-event Protocol assert)."""
    from service.store.loading import project

    return project(aggregate, events)


class LibraryFloorApp(Application):
    name = "libfloor"


def open_app(url: str, cache: bool) -> LibraryFloorApp:
    from service.adapters.stores import persistence_env

    env = persistence_env(url)
    if cache:
        env["AGGREGATE_CACHE_MAXSIZE"] = "1000"
    return LibraryFloorApp(env=env)


def _fields(d: Any, codec: Any, e: dict, seat: int, i: int) -> dict:
    """What Game.Happened carries for one decider event (or the end-of-game event), minus the library's own fields."""
    own = e["type"] != "seed_revealed"
    return {"kind": e["type"], "data": codec.encode_event(e) if own else {}, "actor": f"seat:{seat}" if i == 0 else "engine",
            "clause": d.clause_of(e) if own else None, "engine_version": ENGINE_VERSION, "idempotency_key": None,
            "automatic": False}


class LibraryFloor:
    """The corpus's games as LibGame aggregates in `app`, each with a bare decider state beside it."""

    def __init__(self, app: LibraryFloorApp, corpus: list[dict], game: str, variant: str):
        from bench.durable_floor import dealt
        from domain.games import decider_for, spec_for
        from domain.randomness import Chance

        if variant not in VARIANTS:
            raise ValueError(f"variant {variant!r}: one of {VARIANTS}")
        self.app, self.variant = app, variant
        self.reload, self.decide = variant.startswith("ff"), variant.endswith("dec")
        self.d, self.codec = decider_for(game), spec_for(game).codec
        self.games: dict[uuid.UUID, list] = {}  # id -> [aggregate, state, chance, seats, start version offset]
        self.prepared: dict[uuid.UUID, list] = {}  # id -> the payloads of each move, in order (variant "pre")
        for g in corpus:
            setup_, state, chance = dealt(self.d, g)
            agg = LibGame()
            app.save(agg)  # version 1; the moves' versions are offset from arbiter's by start_version - 1
            self.games[agg.id] = [agg, state, chance, setup_.n, g["start_version"] - 1]
            if not self.decide:
                self.prepared[agg.id] = self._prepare(g, state, Chance(g["seed"]), setup_.n)
        self.next_move = {gid: 0 for gid in self.games}

    def _prepare(self, g: dict, state: Any, chance: Any, seats: int) -> list[list[dict]]:
        from bench.durable import _raw
        from domain.audit import fields_hash
        from domain.records import parse_move

        d, out = self.d, []
        setup_ = d.configure(g["options"], g["players"], None, None)
        for _ in d.start(setup_, chance):  # the same chance draws as the live game's opening
            pass
        head, version = "", 1
        for m in g["moves"]:
            move = parse_move({**_raw(m), "seat": m["seat"]}, seats, self.codec)
            events, state = d.step(state, move, chance)
            if d.outcome(state).is_over:
                events = [*events, {"type": "seed_revealed"}]
            payloads = []
            for i, e in enumerate(events):
                p = _fields(d, self.codec, e, m["seat"], i)
                version += 1
                head = fields_hash({**p, "originator_version": version, "prev": head}, "Game.Happened")
                payloads.append({**p, "prev": head})  # a chain hash's worth of bytes, computed here, untimed
            out.append(payloads)
        return out

    def ids(self) -> list:
        return list(self.games)

    def version(self, gid: uuid.UUID) -> int:
        g = self.games[gid]
        return g[0].version + g[4]

    def move(self, game_id: uuid.UUID, seat: int, raw: dict) -> int:
        """One durable move through the library: (load,) decide or take the prepared payloads, trigger, save."""
        from domain.audit import fields_hash

        g = self.games[game_id]
        app = self.app
        agg = app.repository.get(game_id, projector_func=_project) if self.reload else g[0]
        if self.decide:
            from domain.records import parse_move

            d = self.d
            move = parse_move({**raw, "seat": seat}, g[3], self.codec)
            events, after = d.step(g[1], move, g[2])
            if d.outcome(after).is_over:
                events = [*events, {"type": "seed_revealed"}]
            payloads = [_fields(d, self.codec, e, seat, i) for i, e in enumerate(events)]
        else:
            i = self.next_move[game_id]
            payloads, after = self.prepared[game_id][i], None
            self.next_move[game_id] = i + 1
        if self.decide:
            head = agg.head
            for p in payloads:  # the chain hash over the event's fields, as arbiter's chain (timestamp from the clock)
                head = fields_hash({**p, "originator_id": str(game_id), "originator_version": agg.version + 1,
                                    "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                                    "prev": head}, "Game.Happened")
                agg.trigger_event(LibGame.Moved, prev=head, **p)
        else:
            for p in payloads:
                agg.trigger_event(LibGame.Moved, **p)
        app.save(agg)
        if self.reload:
            app.repository.cache.put(game_id, agg)
        g[0] = agg
        if after is not None:
            g[1] = after
        return agg.version + g[4]


# --------------------------------------------------------------------------- profile (python -m bench.durable_library_floor)


def _package(filename: str, name: str) -> str:
    """A cProfile entry's package: the top folder under site-packages, the project's top package, the stdlib module,
    or for C functions the module named in the entry ('builtins' when none)."""
    import os
    import sys

    if filename == "~":
        for pkg in ("psycopg", "sqlite3", "_hashlib", "json", "uuid", "datetime", "copy"):
            if pkg in name:
                return pkg
        return "builtins"
    parts = filename.replace("\\", "/").split("/")
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].removesuffix(".py")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if filename.startswith(root):
        return os.path.relpath(filename, root).split(os.sep)[0].removesuffix(".py")
    for p in sorted(sys.path, key=len, reverse=True):
        if p and filename.startswith(p + "/"):
            return filename[len(p) + 1:].split("/")[0].removesuffix(".py")
    return parts[-1].removesuffix(".py")


KEY_FUNCTIONS = ("save", "get", "insert_events", "select_events", "collect_events", "to_stored_event",
                 "to_domain_event", "encode", "decode", "deepcopy", "trigger_event", "step", "fields_hash",
                 "event_hash", "getconn", "putconn", "get_connection", "_take_snapshots", "submit_move", "play",
                 "command", "answer")


def profile_shares(run: Any, n_moves: int) -> dict:
    """cProfile (CPU timer) of run(): own CPU ms per move by package, and cumulative ms per move of KEY_FUNCTIONS."""
    import cProfile
    import pstats
    import time

    prof = cProfile.Profile(time.process_time)
    prof.enable()
    run()
    prof.disable()
    st = pstats.Stats(prof)
    own: dict[str, float] = {}
    cum: dict[str, float] = {}
    total = 0.0
    for (filename, _line, name), (_cc, _nc, tt, ct, _callers) in st.stats.items():
        pkg = _package(filename, name)
        own[pkg] = own.get(pkg, 0.0) + tt
        total += tt
        if name in KEY_FUNCTIONS:
            label = f"{_package(filename, name)}.{name}"
            cum[label] = max(cum.get(label, 0.0), ct)
    per = 1000 / n_moves
    return {"total_ms": total * per,
            "own_ms": {k: v * per for k, v in sorted(own.items(), key=lambda kv: -kv[1]) if v * per >= 0.002},
            "cum_ms": {k: v * per for k, v in sorted(cum.items(), key=lambda kv: -kv[1]) if v * per >= 0.002}}


def main(argv: list[str] | None = None) -> int:
    """Profile arbiter's submit_move, the library floor's variants and the bare floor, by package, on one store."""
    import argparse
    import gc
    import secrets
    import tempfile

    from bench import durable as D

    parser = argparse.ArgumentParser(prog="python -m bench.durable_library_floor", description=main.__doc__)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--postgres", default=D.DEFAULT_POSTGRES)
    parser.add_argument("--passes", type=int, default=3, help="passes of the quick corpus per path (default 3)")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    cfg = dict(D.QUICK)
    corpus = D.move_corpus(cfg)
    n_moves = sum(len(g["moves"]) for g in corpus) * args.passes
    with tempfile.TemporaryDirectory(prefix="arbiter-libfloor-") as tmp:
        schema = f"arbiter_bench_{secrets.token_hex(4)}"
        url = (f"sqlite:///{tmp}/arbiter.db" if args.store == "sqlite" else f"{args.postgres}?schema={schema}")
        lib_url = f"sqlite:///{tmp}/libfloor.db" if args.store == "sqlite" else url
        from service.play.referee import Referee

        ref = Referee(url)
        libs = {"cached": open_app(lib_url, cache=False), "ff": open_app(lib_url, cache=True)}
        conn = None
        try:
            paths: dict[str, Any] = {}

            def arbiter_pass() -> None:
                ids = D.create_games(ref, corpus)
                for p in D.schedule(ids, corpus):
                    ref.submit_move(*p)
            paths["arbiter submit_move"] = arbiter_pass
            for v in VARIANTS:
                paths[f"library floor {v}"] = (lambda v=v: D.run_library_floor(libs[v.split("-")[0]], corpus, v))
            if args.store == "postgres":
                from bench import durable_floor

                conn = D.Stores(tmp, args.postgres).pg_connect(autocommit=True)
                durable_floor.setup(conn, schema)
                paths["floor (no library)"] = lambda: D.run_floor(conn, schema, corpus)
            for fn in paths.values():  # warm-up
                fn()
            for label, fn in paths.items():
                gc.collect()
                # the profiled passes include the untimed game set-up of each pass: its share is small (games created
                # once a pass, 2 games for 200 moves) and shows under the set-up's own functions
                res = profile_shares(lambda: [fn() for _ in range(args.passes)], n_moves)
                own = ", ".join(f"{k} {v:.3f}" for k, v in list(res["own_ms"].items())[:args.top])
                cum = ", ".join(f"{k} {v:.3f}" for k, v in list(res["cum_ms"].items())[:args.top])
                print(f"{args.store} | {label}: {res['total_ms']:.3f} ms CPU/move under cProfile\n"
                      f"  own by package (ms/move): {own}\n  cumulative (ms/move): {cum}", flush=True)
        finally:
            if conn is not None:
                conn.close()
            for lib in libs.values():
                lib.close()
            ref.close()
            if args.store == "postgres":
                s = D.Stores(tmp, args.postgres)
                s.schema = schema
                s.drop_postgres()
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
