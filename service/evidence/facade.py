"""The evidence a server keeps outside its event store: where its key and checkpoint log live, when a
checkpoint is written, and each game of the store held against its latest checkpoint.

Defaults (docs/evidence.md): a SQLite file `games.db` keeps `games.db.key` and `games.db.checkpoints.jsonl`
beside it; a PostgreSQL store keeps its key file in `$ARBITER_STATE_DIR` (default `~/.local/state/arbiter`) under a
name made of the database's host, port, name and schema, pins the key's public half in the database and keeps its
checkpoint log in the table `<schema>_evidence.checkpoints` (service.evidence.pg_tables), shared by every host;
an in-memory store keeps both in memory. `ARBITER_KEY_FILE`, `ARBITER_CHECKPOINT_LOG` (a file log, also on
PostgreSQL) and `ARBITER_CHECKPOINT_EVERY` (or the app config keys `KEY_FILE`, `CHECKPOINT_LOG`, `CHECKPOINT_EVERY`,
or the CLI options) override them.

Over 300 lines: the facade is the one place the rest of the service asks for evidence (receipts, promises,
checkpoints, a game held against its latest line and against what the published checkpoints cover); the work itself
lives in the modules it calls (receipts, promises, coverage, attempts_heads, checkpoints, log_service).
"""

from __future__ import annotations

import dataclasses
import os
import re
import threading
from pathlib import Path
from uuid import UUID

from domain.audit import event_hash

from service.adapters.backup import backup
from service.adapters.stores import persistence_env
from service.errors import BadInput
from service.store.application import Store

from . import coverage, keys, lost_lines, promises, receipts
from .attempts_heads import attempts_finding, stored_count, stored_head
from .checkpoints import CheckpointLog, FileStorage, MemoryStorage
from .log_service import LogService
from .pinning import load_pinned, serving_problem

DEFAULT_EVERY = 10


def default_paths(database_url: str) -> tuple[Path | None, Path | None]:
    """(key file, checkpoint log) for a store URL when none is configured; (None, None) for an in-memory store."""
    env = persistence_env(database_url)
    module = env["PERSISTENCE_MODULE"]
    if module == "eventsourcing.sqlite" and not env["SQLITE_DBNAME"].startswith("file:"):
        db = Path(env["SQLITE_DBNAME"])
        return db.with_name(db.name + ".key"), db.with_name(db.name + ".checkpoints.jsonl")
    if module == "eventsourcing.postgres":
        state = os.environ.get("ARBITER_STATE_DIR") or \
            Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "arbiter"
        name = f"{env['POSTGRES_DBNAME']}@{env['POSTGRES_HOST']}-{env['POSTGRES_PORT']}"
        if env.get("POSTGRES_SCHEMA"):
            name += f".{env['POSTGRES_SCHEMA']}"
        name = re.sub(r"[^A-Za-z0-9@._-]", "_", name)
        return Path(state) / f"{name}.key", Path(state) / f"{name}.checkpoints.jsonl"
    return None, None


def signing_key_problem(database_url: str, key_file: str | None = None) -> str | None:
    """Why a host may not serve a store with its signing key (pinning.serving_problem; the key file as configured), or
    None; only a PostgreSQL store pins a key (`arbiter serve` asks before it listens)."""
    env = persistence_env(database_url)
    if env["PERSISTENCE_MODULE"] != "eventsourcing.postgres":
        return None
    return serving_problem(env, Path(key_file or os.environ.get("ARBITER_KEY_FILE") or default_paths(database_url)[0]))


def _close_with(app: Store, tables) -> None:
    """Close the evidence tables' connection when the store's application is closed (its pool with it)."""
    close_app = app.close

    def close() -> None:
        app.closed = True  # the duty loop stops at its next round, not after the evidence connection is free
        tables.close()
        close_app()

    app.close = close


class Evidence:
    """The server's signing key and checkpoint log for one store: receipts, checkpoints, and the store's check."""

    def __init__(self, app: Store, key_file: Path | None, log_file: Path | None, every: int = DEFAULT_EVERY,
                 storage=None, tables=None, public_key: keys.PublicKey | None = None, log_origin: str | None = None,
                 witnesses: str | None = None):
        """`storage`: the log's storage when not a file (`log_file`) nor memory; `tables`: the PostgreSQL store's
        evidence tables (service.evidence.pg_tables), where the key is pinned; `public_key`: the key that checks
        signatures when no private key is at hand (`arbiter verify --public-key`)."""
        self.app = app
        self.key_file = key_file
        self.every = every
        self.mmd = promises.mmd_seconds()  # the maximum merge delay every acknowledgement promises (ARBITER_LOG_MMD)
        self._signer = None  # the log's note signer, made once
        self.tables = tables
        self._public_key = public_key
        self._key: keys.ServerKey | None = None
        self._key_lock = threading.Lock()
        if storage is None:
            storage = FileStorage(log_file) if log_file is not None else MemoryStorage()
        self.log = CheckpointLog(storage, lambda: self.key, self.verifying_key, self.attempts_head)
        self.transparency = LogService(self, log_origin, witnesses)  # the log's Merkle tree and published checkpoints

    @classmethod
    def configured(cls, app: Store, database_url: str, key_file: str | None = None, checkpoint_log: str | None = None,
                   every: int | str | None = None, public_key: keys.PublicKey | None = None,
                   log_origin: str | None = None, witnesses: str | None = None) -> "Evidence":
        """The evidence of a store: arguments first, then the environment, then the defaults beside the store (on
        PostgreSQL: the log in the store's evidence schema, unless a log file is given)."""
        default_key, default_log = default_paths(database_url)
        key_file = key_file or os.environ.get("ARBITER_KEY_FILE") or default_key
        checkpoint_log = checkpoint_log or os.environ.get("ARBITER_CHECKPOINT_LOG")
        tables = storage = None
        env = persistence_env(database_url)
        if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
            from .pg_tables import EvidenceTables, TableStorage

            tables = EvidenceTables(env)
            _close_with(app, tables)
            storage = None if checkpoint_log else TableStorage(tables, default_log)
        checkpoint_log = checkpoint_log or default_log
        every = every or os.environ.get("ARBITER_CHECKPOINT_EVERY") or DEFAULT_EVERY
        try:
            every = int(every)
            if every < 1:
                raise ValueError
        except ValueError:
            raise BadInput(f"checkpoint interval {every!r}: must be a whole number of versions, 1 or more",
                           field="checkpoint_every") from None
        return cls(app, Path(key_file) if key_file else None, Path(checkpoint_log) if checkpoint_log else None, every,
                   storage, tables, public_key, log_origin, witnesses)

    # -- the key -------------------------------------------------------------------------------

    @property
    def key(self) -> keys.ServerKey:
        """The signing key: loaded, or created on first start (a clear message names the new file); on PostgreSQL
        held against the key the store pins (pinned on first start): raises pinning.KeyMismatch for another key."""
        with self._key_lock:
            if self._key is None:
                self._key = keys.ServerKey.generate() if self.key_file is None else load_pinned(self.key_file, self.tables)
            return self._key

    def verifying_key(self) -> keys.PublicKey | None:
        """The key that checks signatures: the public key given, else the signing key if there is one; verification
        never creates a key file."""
        if self._public_key is not None:
            return self._public_key
        if self._key is not None or self.key_file is None:
            return self.key
        return keys.load(self.key_file)

    def public_key(self) -> dict:
        """What GET /api/v1/keys publishes, with where the key and the log are kept."""
        return {**self.key.describe(), "checkpoint_every": self.every, "mmd_seconds": self.mmd}

    # -- receipts and checkpoints ----------------------------------------------------------------

    def head_at(self, game_id: UUID, version: int) -> str | None:
        """The chain head of a game at `version` as the store holds it (the hash of that event), or None."""
        rows = self.app.recorder.select_events(game_id, gt=version - 1, lte=version)
        if not rows:
            return None
        try:
            return event_hash(self.app.mapper.to_domain_event(rows[0]))
        except Exception:  # an unreadable row has no head: verification reports it
            return None

    def attempts_head(self, game: str | UUID) -> tuple[int, str]:
        """(refused attempts, their chain's head) of a game as stored: what its next checkpoint signs beside its head."""
        return stored_head(self.app, game if isinstance(game, UUID) else UUID(game))

    def promise(self, game_id: UUID, version: int, attempts: int = 0) -> str:
        """The log's signed promise that the game at `version` with `attempts` refused attempts is in a published
        checkpoint within the maximum merge delay (service.evidence.promises). A refusal's promise names its own
        attempt; every other acknowledgement's promises none (0): a seat's answer never tells it how many refused
        attempts the other seats made (docs/evidence.md)."""
        signer = self._signer
        if signer is None or signer.name != self.transparency.origin:
            signer = self._signer = self.transparency.signer()
        return promises.issue(signer, str(game_id), version, attempts, self.mmd)

    def refused(self, game_id: UUID, attempt: int) -> str | None:
        """After a refused attempt (number `attempt`): its promise (None for a game with no stored event), and a
        checkpoint when the game's refused attempts reach a multiple of `every`, at the game's version as stored (a
        refusal never moves it), signing the attempts' head."""
        rows = self.app.recorder.select_events(game_id, desc=True, limit=1)
        if not rows:
            return None
        version = rows[0].originator_version
        if not attempt % self.every:
            self.checkpoint(game_id, version, self.head_at(game_id, version), "refused")
        return self.promise(game_id, version, attempt)

    def answer(self, game_id: UUID, first: int, last: int, reason: str | None = None, head: str | None = None) -> dict:
        """The receipt of a command that wrote versions first..last; writes a checkpoint when one is due.

        Due: for `reason` (created, end, import, ruling), and whenever the command's versions reach a
        multiple of `every`.
        """
        head = head or self.head_at(game_id, last)
        if reason is None and (first - 1) // self.every != last // self.every:
            reason = "every"
        if reason is not None:
            self.checkpoint(game_id, last, head, reason)
        return receipts.issue(self.key, game_id, last, head, self.promise(game_id, last))

    def receipt(self, game_id: UUID, version: int) -> dict:
        """A receipt for what the store holds at `version` (an idempotent replay's answer)."""
        return receipts.issue(self.key, game_id, version, self.head_at(game_id, version), self.promise(game_id, version))

    def checkpoint(self, game_id: UUID, version: int, head: str, reason: str) -> dict | None:
        """Append a checkpoint; a log that cannot be written is logged, never fails the command already stored."""
        try:
            return self.log.append(str(game_id), version, head, reason)
        except OSError as e:
            keys.log.error("arbiter: checkpoint of game %s at version %s not written to %s: %s", game_id, version,
                           self.log.storage, e)
            return None

    def verify_receipt(self, doc) -> dict:
        """A receipt checked against the store (service.evidence.receipts.verify) and, when it carries one, its
        promise held against the published log (`promise`: {status, detail}; a broken promise fails it)."""
        out = receipts.verify(self.app, self.verifying_key(), doc)
        if isinstance(doc, dict) and "promise" in doc:
            out["promise"] = self.keep_promise(doc["promise"], doc["game"])
            out["detail"] = f"{out['detail']}; promise {out['promise']['detail']}"
            if out["promise"]["status"] == "broken":
                out["ok"] = False
        return out

    def keep_promise(self, note, game: str | None = None) -> dict:
        """A promise (a signed note) checked under the log's key and held against the stored lines and the published
        checkpoints (service.evidence.promises.held); raises BadInput (malformed, another game), ForgedPromise."""
        promise = promises.read(note, self.transparency.verifier())
        if game is not None and promise.game != game:
            raise BadInput(f"promise: it is a promise of game {promise.game}, not {game}", field="promise")
        lines = self.log.storage.read().split(b"\n")[:-1]
        return promises.held(promise, lines, self.transparency.tree.heads.all())

    def coverage_report(self):
        """The log's report (checked_log: gone lines counted) with `covered`: what the latest published checkpoint
        signs of each game (None while none is published: no promise can be held then), for verify --all."""
        from .published_heads import HeadsDamaged

        report = self.checked_log()  # with the lines a cut took counted as gone (lost_lines.with_cut)
        try:
            latest = self.transparency.tree.heads.latest()
        except HeadsDamaged:  # the transparency summary names it; the games are held against their lines as before
            return report
        if latest is None:
            return report
        lines = self.log.storage.read().split(b"\n")[:-1]
        return dataclasses.replace(report, covered=coverage.published_coverage(lines[:latest.size]),
                                   promised_since=coverage.promised_since(lines))

    # -- the store against the log ---------------------------------------------------------------

    def checked_log(self):
        """The checkpoint log's report (service.evidence.checkpoints.LogReport), with the lines the newest published
        checkpoint signed and the log no longer holds counted as gone (service.evidence.lost_lines.with_cut)."""
        published = self.transparency.signed_size()  # first: a head is published only once its lines are written
        return lost_lines.with_cut(self.log.report(), published)

    def log_report(self) -> dict:
        """The checkpoint log checked, with where it is kept."""
        report = self.checked_log()
        return {**report.as_dict(), "path": str(self.log.storage), "exists": self.log.storage.exists()}

    def backup(self, path: str, force: bool = False) -> dict:
        """A consistent online copy of the event store at `path` (SQLite; raises BadInput otherwise), with the
        checkpoint log's report and where the signing key is: both are kept apart from the copy, so a restored copy
        is held against them (docs/evidence.md)."""
        key_file = self.key_file
        return {**backup(self.app.database_url, path, force), "checkpoint_log": self.log_report(),
                "key_file": str(key_file) if key_file is not None else None}

    def logged_games(self) -> list[str]:
        """The ids of every game the (good part of the) log holds a checkpoint of, in order of first appearance, then
        those only a line that is gone was named for."""
        report = self.log.report()
        return list(dict.fromkeys([*report.latest, *lost_lines.named_games(report)]))

    def checkpoints(self, after: int = 0, limit: int = 100, game: str | None = None) -> list[dict]:
        """Checkpoints of the log after line `after` (for mirrors and auditors), optionally of one game."""
        from domain import json_limits

        out = []
        for number, raw in enumerate(self.log.storage.read().splitlines(), start=1):
            if number <= after:
                continue
            try:
                doc = json_limits.read_document(raw)
            except ValueError:  # not JSON, or outside the JSON bounds
                doc = {"seq": number, "unreadable": raw.decode("utf-8", "replace")[:300]}
            if game is None or (isinstance(doc, dict) and doc.get("game") == game):
                out.append(doc)
            if len(out) >= limit:
                break
        return out

    def check_game(self, game_id: UUID, chain: dict | None, log_report=None, heads: list | None = None,
                   attempt_rows: list | None = None) -> dict:
        """A game held against its latest checkpoint: {ok, finding, status, checkpoint, log}.

        `chain` is the game's chain report (None: no event of the game is stored). Findings: `intact`,
        `truncated` (the store ends before the signed version: a deletion or a rolled-back database),
        `rewritten`, `deleted`, `unchecked` (the chain is broken anyway), `none` (no checkpoint yet) and `lost` (lines
        of the log that are gone held this game's: service.evidence.lost_lines.verdict).
        `log_report` (the log's report, read once for many games) and `heads` (the game's chain hashes by version
        from 1, computed while verifying it) spare re-reading the log and the row. A game whose events match is then
        held against the refused attempts the checkpoint signed (`truncated`, `rewritten`, with `attempts`: {stored,
        signed}); `attempt_rows`: the attempts stream's rows read in bulk already.
        """
        report = self.checked_log() if log_report is None else log_report
        cp = report.latest.get(str(game_id))
        out = {"checkpoint": _summary(cp), "log": report.as_dict()}
        if cp is None:
            if chain is None:
                status = "no game and no checkpoint"
            elif report.lines == 0 and not self.log.storage.exists():
                status = "not checked: there is no checkpoint log"  # `verify --all` says where it looked, and why
            else:
                status = "no checkpoint of this game in the log"
            finding, ok = "none", None
        elif chain is None:
            finding, ok, status = "deleted", False, (f"deleted: the store holds no event of this game, but checkpoint "
                                                     f"{cp['seq']} signed its version {cp['version']} at {cp['at']}")
        elif not chain["ok"]:
            finding, ok, status = "unchecked", None, "not compared: the stored chain itself is broken"
        elif cp["version"] > chain["length"]:
            finding, ok, status = "truncated", False, (
                f"truncated or rolled back: the store ends at version {chain['length']}, but checkpoint {cp['seq']} "
                f"signed version {cp['version']} at {cp['at']}: {receipts.gone(chain['length'] + 1, cp['version'])}")
        elif (heads[cp["version"] - 1] if heads and 1 <= cp["version"] <= len(heads) else
              self.head_at(game_id, cp["version"])) != cp["head"]:
            finding, ok, status = "rewritten", False, (
                f"rewritten: the store's head at version {cp['version']} differs from the one checkpoint {cp['seq']} "
                f"signed at {cp['at']}")
        else:
            finding, ok, status = "intact", True, f"matches checkpoint {cp['seq']} (version {cp['version']}, {cp['at']})"
            attempts = attempts_finding(self.app, game_id, cp, attempt_rows)
            if attempts is not None:
                finding, status, out["attempts"] = attempts
                ok = False
        covered = getattr(report, "covered", None)
        if covered is not None and chain is not None:
            stored = attempt_rows[-1].originator_version - 1 if attempt_rows else \
                (0 if attempt_rows is not None else stored_count(self.app, game_id))
            late = coverage.uncovered(self.app, game_id, chain["length"], stored, covered.get(str(game_id)), self.mmd,
                                      since=getattr(report, "promised_since", None))
            out["uncovered"] = late
            if late is not None and late["past_mmd"]:
                ok = False
                status += (f"; {late['oldest']} was acknowledged {late['oldest_seconds_ago']:.0f} s ago and no published "
                           f"checkpoint covers it (the maximum merge delay is {self.mmd:g} s)")
                if finding in ("intact", "none"):
                    finding = "uncovered"
        return {**lost_lines.verdict(report, str(game_id), cp, chain, ok, finding, status), **out}


def _summary(cp: dict | None) -> dict | None:
    if cp is None:
        return None
    return {k: cp[k] for k in ("seq", "version", "head", "at", "reason", "attempts", "attempts_head") if k in cp}
