"""The floor of a durable event-sourced move WITHOUT the eventsourcing library, in process: a row of bench.durable
(issue 11 part 2). Described below for PostgreSQL (Floor); SqliteFloor is the same move on SQLite, its one commit a
BEGIN, one INSERT of the move's rows and COMMIT. The floor through the library (which arbiter must use) is
bench.durable_library_floor.

What a move cannot do without, with the guarantees arbiter keeps, and nothing else:

  1. parse the client's move (domain.records.parse_move) and run the bare decider step on the game's state kept
     in memory (no eventsourcing aggregate, no load: the copy is only ever advanced by this process's own commits);
  2. for each event, the stored form arbiter writes (the event's fields with its cards as strings, the clause,
     the actor, a timestamp, the previous event's chain hash) as JSON, and the chain hash of the event
     (domain.audit.fields_hash, sha256 of its canonical JSON, as arbiter's chain);
  3. ONE round trip: one prepared call, in autocommit, its values as binary parameters, of a function that
     takes the EXCLUSIVE table lock (notification ids committed in the order they are drawn: what a follower of
     the notification log needs), NOTIFYs the channel and INSERTs the events RETURNING their notification ids,
     in one implicit transaction (the function service.adapters.pg_recorder gives arbiter, sent the same way). The
     (game, version) primary key is the version check:
     a stale copy fails the insert, as arbiter's save does.

What it leaves out of arbiter's move: eventsourcing's aggregate, mapper and transcoder (events as objects, then
dicts, then JSON), the fast-forward SELECT before each move (arbiter's cached game is brought up to date from the
store, in case another process wrote), the idempotency and expected-version bookkeeping, the attempts stream,
the answer (views, receipt signature, checkpoints), snapshots every 100 events. Moves are played sequentially,
round robin over the games, like bench.durable's (1).
"""

from __future__ import annotations

import datetime
import json
import uuid
from typing import Any

from psycopg import sql

TABLE = "floor_events"


def setup(conn: Any, schema: str) -> None:
    """The floor's table (the library's layout for application events) and its locked-insert function."""
    s, t = sql.Identifier(schema), sql.Identifier(TABLE)
    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(s))
    conn.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {}.{} (originator_id uuid NOT NULL, originator_version bigint "
                         "NOT NULL, topic text, state bytea, notification_id bigserial, "
                         "PRIMARY KEY (originator_id, originator_version))").format(s, t))
    conn.execute(sql.SQL("CREATE UNIQUE INDEX IF NOT EXISTS floor_events_notification_id_idx ON {}.{} "
                         "(notification_id ASC)").format(s, t))
    conn.execute(sql.SQL(
        "CREATE OR REPLACE FUNCTION {s}.floor_insert(ids uuid[], versions bigint[], topics text[], states bytea[]) "
        "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN "
        "SET LOCAL lock_timeout = '5s'; LOCK TABLE {s}.{t} IN EXCLUSIVE MODE; NOTIFY floor_events; "
        "RETURN QUERY INSERT INTO {s}.{t} AS e (originator_id, originator_version, topic, state) "
        "SELECT * FROM unnest(ids, versions, topics, states) RETURNING e.notification_id; "
        "END; $BODY$").format(s=s, t=t))


def dealt(d: Any, g: dict) -> tuple[Any, Any, Any]:
    """A corpus game as the bare decider deals it: (setup, state after the opening events, its Chance)."""
    from domain.randomness import Chance

    setup_ = d.configure(g["options"], g["players"], None, None)
    chance = Chance(g["seed"])
    state = d.initial_state(setup_)
    for e in d.start(setup_, chance):
        state = d.evolve(state, e)
    return setup_, state, chance


class Floor:
    """The games of bench.durable's corpus, each a bare decider state in memory, stored event by event."""

    TOPIC = "domain.game:Game.Happened"

    def __init__(self, conn: Any, schema: str, corpus: list[dict], game: str):
        from domain.games import decider_for, spec_for

        self.conn = conn
        self.cur = conn.cursor()
        self.schema = sql.Identifier(schema)
        self.inserts: dict[int, bytes] = {}  # the call for n events, as service.adapters.pg_recorder sends it
        self.d, self.codec = decider_for(game), spec_for(game).codec
        self.games: dict[uuid.UUID, list] = {}  # id -> [version, state, chance, seats, chain head]
        for g in corpus:
            setup_, state, chance = dealt(self.d, g)
            self.games[uuid.uuid4()] = [g["start_version"], state, chance, setup_.n, ""]

    def ids(self) -> list:
        return list(self.games)

    def move(self, game_id: uuid.UUID, seat: int, raw: dict) -> int:
        """One durable move: decide, chain, one locked insert; returns the game's new version."""
        from domain.audit import fields_hash
        from domain.records import parse_move

        g = self.games[game_id]
        d = self.d
        move = parse_move({**raw, "seat": seat}, g[3], self.codec)
        events, after = d.step(g[1], move, g[2])
        if d.outcome(after).is_over:
            events = [*events, {"type": "seed_revealed"}]  # arbiter's SeedRevealed: one more stored event
        version, head = g[0], g[4]
        now = datetime.datetime.now(datetime.timezone.utc).isoformat()
        versions, states = [], []
        for i, e in enumerate(events):
            version += 1
            own = e["type"] != "seed_revealed"
            fields = {"originator_id": str(game_id), "originator_version": version, "timestamp": now,
                      "kind": e["type"], "data": self.codec.encode_event(e) if own else {},
                      "clause": d.clause_of(e) if own else None,
                      "actor": f"seat {seat}" if i == 0 else "engine", "prev": head}
            head = fields_hash(dict(fields), "Game.Happened")
            versions.append(version)
            states.append(json.dumps(fields, separators=(",", ":")).encode())
        self._store(game_id, versions, states)
        g[0], g[1], g[4] = version, after, head
        return version

    def _store(self, game_id: uuid.UUID, versions: list[int], states: list[bytes]) -> None:
        """The one round trip: the locked-insert call (the version check is the primary key)."""
        n = len(versions)
        insert = self.inserts.get(n)
        if insert is None:
            arrays = [sql.SQL("ARRAY[{}]::{}[]").format(sql.SQL(", ").join([sql.SQL("%b")] * n), sql.SQL(t))
                      for t in ("uuid", "bigint", "text", "bytea")]
            insert = self.inserts[n] = (sql.SQL("SELECT {}.floor_insert(").format(self.schema)
                                        + sql.SQL(", ").join(arrays) + sql.SQL(")")).as_bytes(self.conn)
        self.cur.execute(insert, [game_id] * n + versions + [self.TOPIC] * n + states, prepare=True)
        if len(self.cur.fetchall()) != n:
            raise RuntimeError("floor: the insert did not return one notification id per event")


class SqliteFloor(Floor):
    """The same floor on SQLite: one transaction a move (BEGIN, one INSERT of the move's rows, COMMIT) on a
    sqlite3 connection in autocommit mode with the library's pragmas (journal_mode, synchronous), into a table of the
    library's SQLite layout; the (game, version) primary key is the version check. No lock file, no group commit."""

    def __init__(self, conn: Any, corpus: list[dict], game: str):
        super().__init__(conn, "main", corpus, game)
        self.cur = conn.cursor()
        conn.execute("CREATE TABLE IF NOT EXISTS stored_events (originator_id TEXT, originator_version INTEGER, "
                     "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))")
        self.sql: dict[int, str] = {}

    def _store(self, game_id: uuid.UUID, versions: list[int], states: list[bytes]) -> None:
        n = len(versions)
        insert = self.sql.get(n)
        if insert is None:
            insert = self.sql[n] = "INSERT INTO stored_events VALUES " + ", ".join(["(?,?,?,?)"] * n)
        params: list = []
        gid = game_id.hex
        for v, st in zip(versions, states):
            params += (gid, v, self.TOPIC, st)
        cur = self.cur
        cur.execute("BEGIN")
        try:
            cur.execute(insert, params)
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")
