"""The evidence of a PostgreSQL store kept in the database, apart from the events: the checkpoint log as a table, and
the signing key's public half pinned, in a schema of their own, written under a role that may only INSERT and SELECT.

    <store schema>_evidence.checkpoints(seq bigint primary key, line text not null)
    <store schema>_evidence.signing_key(id smallint primary key check (id = 1), key_id text, public_key text, pinned_at)

Every host of one store appends to the one log and pins the one key (docs/evidence.md, "Several hosts on PostgreSQL").
An append is one transaction that takes the log's advisory lock (the role may not LOCK TABLE in EXCLUSIVE mode: that
needs UPDATE or DELETE rights), reads the last line and inserts the new ones, after `SET LOCAL ROLE` to the writer
role, so that nothing in it can UPDATE or DELETE a line. `seq` being the primary key, a writer that skipped the lock
would fail rather than fork the log. The lines are the file log's, byte for byte: the same check reads both.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable

from service.adapters.group_commit import Batches
from service.adapters.stores import connect


class EvidenceSetupError(OSError):
    """The evidence schema, its tables or its role cannot be made or used (names what to grant, and to whom); an
    OSError, as a file log that cannot be written: a command already stored still succeeds (Evidence.checkpoint)."""


def evidence_schema(env: dict[str, str]) -> str:
    """The schema of a store's evidence: ARBITER_EVIDENCE_SCHEMA, else `<store schema>_evidence` (`public_evidence`)."""
    return os.environ.get("ARBITER_EVIDENCE_SCHEMA") or f"{env.get('POSTGRES_SCHEMA') or 'public'}_evidence"


def writer_role(schema: str) -> str:
    """The role the evidence is written under: INSERT and SELECT on its tables, nothing else (NOLOGIN)."""
    return f"{schema}_writer"


class EvidenceTables:
    """One store's evidence schema: its tables made (once, if missing) and used through one connection of this
    process, under a lock."""

    def __init__(self, env: dict[str, str], schema: str | None = None):
        from psycopg import sql

        self.env = env
        self.schema = schema or evidence_schema(env)
        self.role = writer_role(self.schema)
        self.where = f"{env['POSTGRES_DBNAME']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}"
        self._sql = sql
        self._ids = {"schema": sql.Identifier(self.schema), "role": sql.Identifier(self.role),
                     "log": sql.Identifier(self.schema, "checkpoints"), "pin": sql.Identifier(self.schema, "signing_key"),
                     "heads": sql.Identifier(self.schema, "tree_heads")}
        self._conn = None
        self._lock = threading.Lock()
        self._made = False

    def q(self, text: str):
        return self._sql.SQL(text).format(**self._ids)

    def run(self, work: Callable, write: bool = False):
        """`work(connection)` in one transaction of this process's connection (under the writer role when `write`);
        a broken connection is dropped, to be opened again next time."""
        import psycopg

        with self._lock:
            if write and not self._made:
                self.make()
            if self._conn is None or self._conn.closed:
                self._conn = self._open(autocommit=False)
            try:
                with self._conn.transaction():
                    if write:
                        self._conn.execute(self.q("SET LOCAL ROLE {role}"))
                    return work(self._conn)
            except psycopg.OperationalError:
                self._conn.close()
                self._conn = None
                raise

    def _open(self, autocommit: bool):
        import psycopg

        try:
            conn = connect(self.env)
            conn.autocommit = autocommit
            return conn
        except psycopg.Error as e:
            raise EvidenceSetupError(f"cannot open the evidence of PostgreSQL database {self.where}: "
                                     f"{str(e).strip().splitlines()[0]}") from None

    def close(self) -> None:
        """Close this process's connection (opened again if used after)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def exists(self) -> bool:
        """Whether the log's table exists (nothing is created)."""
        return self.run(lambda c: c.execute("SELECT to_regclass(%s) IS NOT NULL",
                                            (f'"{self.schema}".checkpoints',)).fetchone()[0])

    def make(self) -> None:
        """Create the schema, its two tables and the writer role where missing, under the schema's advisory lock;
        raises EvidenceSetupError naming the statements an administrator would run instead."""
        import psycopg

        conn = self._open(autocommit=False)
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"arbiter-evidence:{self.schema}",))
                present = conn.execute(
                    "SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL "
                    "AND EXISTS (SELECT FROM pg_roles WHERE rolname = %s)",
                    (f'"{self.schema}".checkpoints', f'"{self.schema}".signing_key', f'"{self.schema}".tree_heads',
                     self.role)).fetchone()[0]
                if not present:
                    for statement in (
                            "CREATE SCHEMA IF NOT EXISTS {schema}",
                            "CREATE TABLE IF NOT EXISTS {log} (seq bigint PRIMARY KEY, line text NOT NULL)",
                            "CREATE TABLE IF NOT EXISTS {pin} (id smallint PRIMARY KEY CHECK (id = 1), key_id text NOT NULL,"
                            " public_key text NOT NULL, pinned_at timestamptz NOT NULL DEFAULT now())",
                            "CREATE TABLE IF NOT EXISTS {heads} (size bigint PRIMARY KEY, note text NOT NULL,"
                            " published_at timestamptz NOT NULL DEFAULT now())"):
                        conn.execute(self.q(statement))
                    if not conn.execute("SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = %s)", (self.role,)).fetchone()[0]:
                        conn.execute(self.q("CREATE ROLE {role} NOLOGIN"))
                    conn.execute(self.q("GRANT USAGE ON SCHEMA {schema} TO {role}"))
                    conn.execute(self.q("GRANT SELECT, INSERT ON {log}, {pin}, {heads} TO {role}"))
                member = conn.execute("SELECT pg_has_role(current_user, %s, 'MEMBER')", (self.role,)).fetchone()[0]
                if not member:
                    conn.execute(self.q("GRANT {role} TO CURRENT_USER"))
        except psycopg.Error as e:
            raise EvidenceSetupError(
                f"the evidence schema {self.schema} of PostgreSQL database {self.where} cannot be set up as "
                f"{self.env['POSTGRES_USER']} ({str(e).strip().splitlines()[0]}). Have an administrator run: "
                f"CREATE SCHEMA {self.schema}; CREATE TABLE {self.schema}.checkpoints (seq bigint PRIMARY KEY, line text "
                f"NOT NULL); CREATE TABLE {self.schema}.signing_key (id smallint PRIMARY KEY CHECK (id = 1), key_id text "
                f"NOT NULL, public_key text NOT NULL, pinned_at timestamptz NOT NULL DEFAULT now()); CREATE TABLE "
                f"{self.schema}.tree_heads (size bigint PRIMARY KEY, note text NOT NULL, published_at timestamptz NOT "
                f"NULL DEFAULT now()); CREATE ROLE "
                f"{self.role} NOLOGIN; GRANT USAGE ON SCHEMA {self.schema} TO {self.role}; GRANT SELECT, INSERT ON "
                f"{self.schema}.checkpoints, {self.schema}.signing_key, {self.schema}.tree_heads TO {self.role}; GRANT {self.role} TO "
                f"{self.env['POSTGRES_USER']} (docs/evidence.md)") from None
        finally:
            conn.close()
        self._made = True

    # -- the pinned public key -----------------------------------------------------------------

    def pinned(self) -> tuple[str, str] | None:
        """(key id, public key hex) pinned for this store, or None (nothing pinned yet, or no evidence schema)."""
        def read(conn):
            if not conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.schema}".signing_key',)).fetchone()[0]:
                return None
            return conn.execute(self.q("SELECT key_id, public_key FROM {pin} WHERE id = 1")).fetchone()

        row = self.run(read)
        return (row[0], row[1]) if row else None

    def pin(self, key_id: str, public_hex: str) -> tuple[str, str]:
        """Pin this key unless one is pinned already; returns the pinned one (the first host's)."""
        def insert(conn):
            conn.execute(self.q("INSERT INTO {pin} (id, key_id, public_key) VALUES (1, %s, %s) ON CONFLICT (id) DO NOTHING"),
                         (key_id, public_hex))
            return conn.execute(self.q("SELECT key_id, public_key FROM {pin} WHERE id = 1")).fetchone()

        row = self.run(insert, write=True)
        return row[0], row[1]


class TableStorage:
    """The checkpoint log as the table `<schema>.checkpoints`, one line per row: the storage interface of
    service.evidence.checkpoints.FileStorage (read, exists, append), with its group commit."""

    path = None

    def __init__(self, tables: EvidenceTables, legacy: Path | None = None):
        """`legacy`: the file log this store had before its log became a table (`$ARBITER_STATE_DIR/….checkpoints.jsonl`):
        read while the table is empty, and its lines adopted as the table's first rows by the first append."""
        self.tables = tables
        self.legacy = legacy
        self._batches = Batches(self._write)

    def __str__(self) -> str:
        return f"table {self.tables.schema}.checkpoints in PostgreSQL database {self.tables.where}"

    def exists(self) -> bool:
        return self.tables.exists() or bool(self._legacy_lines())

    def read(self) -> bytes:
        """Every line in seq order, each ending in a newline (empty when there is no table yet)."""
        def rows(conn):
            if not conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.tables.schema}".checkpoints',)).fetchone()[0]:
                return []
            return conn.execute(self.tables.q("SELECT line FROM {log} ORDER BY seq")).fetchall()

        lines = self.tables.run(rows)
        if not lines:
            return self._legacy_lines()
        return b"".join(line.encode("utf-8") + b"\n" for (line,) in lines)

    def tail(self, after: int) -> tuple[list[tuple[int, bytes]], int]:
        """Up to 10,000 lines after seq `after` (call again until none come), each with its seq, and the last seq read
        (service.evidence.log_storage)."""
        def rows(conn):
            if not conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.tables.schema}".checkpoints',)).fetchone()[0]:
                return []
            return conn.execute(self.tables.q("SELECT seq, line FROM {log} WHERE seq > %s ORDER BY seq LIMIT 10000"),
                                (after,)).fetchall()

        got = [(seq, line.encode("utf-8")) for seq, line in self.tables.run(rows)]
        if not got and not after:  # an empty table reads as the legacy file log, as `read` does
            got = list(enumerate(self._legacy_lines().splitlines(), start=1))
        return got, got[-1][0] if got else after

    def line_at(self, seq: int) -> bytes:
        row = self.tables.run(lambda conn: conn.execute(self.tables.q("SELECT line FROM {log} WHERE seq = %s"),
                                                        (seq,)).fetchone())
        return row[0].encode("utf-8") if row else self._legacy_lines().splitlines()[seq - 1]

    def lines_at(self, seqs) -> list[bytes]:
        """The lines of each of `seqs`, in one query (an entry bundle's leaves)."""
        seqs = list(seqs)
        rows = self.tables.run(lambda conn: conn.execute(
            self.tables.q("SELECT seq, line FROM {log} WHERE seq = ANY(%s)"), (seqs,)).fetchall())
        got = {seq: line.encode("utf-8") for seq, line in rows}
        return [got[seq] if seq in got else self.line_at(seq) for seq in seqs]

    def _legacy_lines(self) -> bytes:
        """The whole lines of the legacy file log (empty when there is none)."""
        if self.legacy is None:
            return b""
        try:
            data = self.legacy.read_bytes()
        except OSError:
            return b""
        return data[:data.rfind(b"\n") + 1]

    def append(self, make: Callable[[bytes | None], bytes]) -> bytes:
        """In one transaction under the log's lock: `make(last line or None)` gives the new line(s), inserted after
        it; threads arriving meanwhile go together in the next transaction (group commit, as the file log's)."""
        mine = self._batches.submit(make)
        if mine.error is not None:
            raise mine.error
        return mine.result

    def _write(self, batch: list) -> None:
        def insert(conn):
            # Committed and seen by every host at once, made durable by PostgreSQL's WAL writer within a fraction of a
            # second, and always by the next published checkpoint's commit (its WAL follows): a line never waits for
            # a disk flush of its own (docs/evidence.md, "Cost").
            conn.execute("SET LOCAL synchronous_commit TO OFF")
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"arbiter-checkpoints:{self.tables.schema}",))
            row = conn.execute(self.tables.q("SELECT seq, line FROM {log} ORDER BY seq DESC LIMIT 1")).fetchone()
            seq, last = (row[0], row[1].encode("utf-8")) if row else (0, None)
            rows = []
            if row is None:  # the first append: a legacy file log's lines become the table's first rows
                for line in self._legacy_lines().splitlines():
                    seq += 1
                    rows.append((seq, line.decode("utf-8", "replace")))  # a damaged line stays damaged: the check says
                    last = line
            for pending in batch:
                try:
                    pending.result = made = pending.item(last)
                except Exception as e:  # noqa: BLE001 - that caller's own error; the others go on
                    pending.error = e
                    continue
                for line in made.split(b"\n"):
                    seq += 1
                    rows.append((seq, line.decode("ascii")))
                last = made.rsplit(b"\n", 1)[-1]
            with conn.cursor() as cur:
                cur.executemany(self.tables.q("INSERT INTO {log} (seq, line) VALUES (%s, %s)"), rows)

        import psycopg

        try:
            self.tables.run(insert, write=True)
        except Exception as e:  # noqa: BLE001 - nothing of this transaction is kept: every caller hears it
            if isinstance(e, psycopg.Error):
                e = EvidenceSetupError(f"the checkpoint log {self} cannot be written: {str(e).strip().splitlines()[0]}")
            for pending in batch:
                if pending.error is None:
                    pending.result, pending.error = None, e
