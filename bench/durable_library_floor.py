"""The floor of a durable move through the eventsourcing library's own save path: a row of bench.durable (issue 11 part 2).

arbiter must store its games with the eventsourcing library (its Aggregate, Application and recorders), so the least a
move can cost *in this project* is what the library's save path costs, not bench.durable_floor's bare SQL. This module
measures that, on the same games and prepared moves as bench.durable's (1), played sequentially round robin:

  * a minimal eventsourcing Application (`LibraryFloorApp`) on the same store URL arbiter uses, through
    service.stores.persistence_env: the same recorders (PostgreSQL: service.pg_recorder.LockedInsertRecorder, one
    locked-insert call; SQLite: the library's own recorder, no group commit), no snapshots;
  * the library's Aggregate (`LibGame`) with one event class (`LibGame.Moved`) carrying the fields arbiter's
    Game.Happened stores for an event (kind, data, actor, clause, engine_version, idempotency_key, automatic and the
    previous event's chain hash), so the stored events are as large as arbiter's (both sizes are reported);
  * per move, `trigger_event` once per event the move stores (the decider's events, plus one at a game's end like
    arbiter's SeedRevealed) and ONE `app.save(aggregate)` = one commit.

Variants (`VARIANTS`):
  cached  the aggregate object is kept by the caller between moves: no load, no SELECT;
  ff      the library's cached repository.get (AGGREGATE_CACHE_MAXSIZE, fast-forward on, deepcopy from the cache as the
          library defaults), i.e. the same fast-forward SELECT arbiter's Referee does before every move, and the saved
          aggregate put back in the cache (as Referee._command does);
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


class LibraryFloorApp(Application):
    name = "libfloor"


def open_app(url: str, cache: bool) -> LibraryFloorApp:
    from service.stores import persistence_env

    env = persistence_env(url)
    if cache:
        env["AGGREGATE_CACHE_MAXSIZE"] = "1000"
    return LibraryFloorApp(env=env)


def _fields(d: Any, e: dict, seat: int, i: int) -> dict:
    """What Game.Happened carries for one decider event (or the end-of-game event), minus the library's own fields."""
    own = e["type"] != "seed_revealed"
    return {"kind": e["type"], "data": d.encode_event(e) if own else {}, "actor": f"seat:{seat}" if i == 0 else "engine",
            "clause": d.clause_of(e) if own else None, "engine_version": ENGINE_VERSION, "idempotency_key": None,
            "automatic": False}


class LibraryFloor:
    """The corpus's games as LibGame aggregates in `app`, each with a bare decider state beside it."""

    def __init__(self, app: LibraryFloorApp, corpus: list[dict], game: str, variant: str):
        from domain.games import decider_for
        from domain.randomness import Chance

        if variant not in VARIANTS:
            raise ValueError(f"variant {variant!r}: one of {VARIANTS}")
        self.app, self.variant = app, variant
        self.reload, self.decide = variant.startswith("ff"), variant.endswith("dec")
        self.d = decider_for(game)
        self.games: dict[uuid.UUID, list] = {}  # id -> [aggregate, state, chance, seats, start version offset]
        self.prepared: dict[uuid.UUID, list] = {}  # id -> the payloads of each move, in order (variant "pre")
        for g in corpus:
            setup_ = self.d.configure(g["options"], g["players"], None, None)
            chance = Chance(g["seed"])
            state = self.d.initial_state(setup_)
            for e in self.d.start(setup_, chance):
                state = self.d.evolve(state, e)
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
            move = parse_move({**_raw(m), "seat": m["seat"]}, seats, d)
            events, state = d.step(state, move, chance)
            if d.outcome(state).is_over:
                events = [*events, {"type": "seed_revealed"}]
            payloads = []
            for i, e in enumerate(events):
                p = _fields(d, e, m["seat"], i)
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
        agg = app.repository.get(game_id) if self.reload else g[0]
        if self.decide:
            from domain.records import parse_move

            d = self.d
            move = parse_move({**raw, "seat": seat}, g[3], d)
            events, after = d.step(g[1], move, g[2])
            if d.outcome(after).is_over:
                events = [*events, {"type": "seed_revealed"}]
            payloads = [_fields(d, e, seat, i) for i, e in enumerate(events)]
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
