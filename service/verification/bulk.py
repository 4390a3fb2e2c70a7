"""`arbiter verify --all` at archive speed: the same report for every game, read in bulk, on every core.

Each game's report is the one `VerificationFacade.verify(game, full=True)` gives (service.verification.driver: rows, hash
chain, snapshots, refused attempts, deal, evidence, the engine re-deciding every move, catalogue row,
latest signed checkpoint, provenance). What changes is the reading around it:

- the rows of a batch of games (their events, their refused-attempts streams, their snapshots) come
  from one query per table, in the order of the table's key (no sort), instead of three queries per game,
  and stay plain tuples until the detailed decoder asks for the library's StoredEvent objects (a plain game
  is decoded from the tuples: service.verification.plain_rows); the batch's catalogue rows come
  from one query too;
- the checkpoint log is read and checked once, in the parent, and handed to every worker; a checkpoint's
  head is compared with the hash the chain check computed, not with a row read and hashed again;
- the verdicts are kept on the catalogue rows a batch per transaction, not a transaction per game;
- the cyclic garbage collector waits while a batch is checked;
- the batches are spread over worker processes (one per core by default), forked by a server that starts
  (and imports the verifier) while the parent lists the games and opens the store; reports come back in
  the store's order of creation.
"""

from __future__ import annotations

import gc
import os
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator
from uuid import UUID

BATCH = 64  # games per query and per task: large enough to amortise a query, small enough to balance the workers


class GameRows:
    """One game's stored rows, read in bulk, and its catalogue row (None for none).

    `raw`: the game's event rows as (stream id, version, topic, state), in version order (what the plain decoder reads);
    `events`: the same as the library's StoredEvent objects (what the detailed decoder reads), made when first asked for.
    """

    __slots__ = ("game_id", "raw", "attempts", "snapshots", "catalogue", "heads", "_events")

    def __init__(self, game_id: UUID, raw: list, attempts: list, snapshots: list, catalogue: Any = None):
        self.game_id, self.raw, self.attempts, self.snapshots, self.catalogue = game_id, raw, attempts, snapshots, catalogue
        self.heads: list | None = None  # filled by the verification: the chain hash of each version
        self._events: list | None = None

    @property
    def events(self) -> list:
        if self._events is None:
            from eventsourcing.persistence import StoredEvent

            self._events = [StoredEvent(self.game_id, v, topic, state) for _, v, topic, state in self.raw]
        return self._events


def _quoted(name: str) -> str:
    return ".".join(f'"{part}"' for part in name.split("."))


def select_raw(recorder: Any, ids: list[UUID]) -> dict[UUID, list]:
    """Every stored row of the streams `ids` as (stream id, version, topic, state), by stream, each in version order:
    one query.

    SQLite and PostgreSQL are read with one `IN` / `= ANY` query in the order of the table's key (stream, version),
    which needs no sort; any other recorder (the in-memory one) stream by stream through its own select_events.
    """
    out: dict[UUID, list] = {i: [] for i in ids}
    if not ids:
        return out
    kind = type(recorder).__module__
    if kind == "eventsourcing.sqlite":
        by_hex = {i.hex: out[i] for i in ids}
        marks = ",".join("?" * len(ids))
        statement = (f"SELECT originator_id, originator_version, topic, state FROM {_quoted(recorder.events_table_name)} "
                     f"WHERE originator_id IN ({marks}) ORDER BY originator_id, originator_version")  # the key's order
        with recorder.datastore.transaction(commit=False) as c:
            c.execute(statement, list(by_hex))
            for row in c.fetchall():
                by_hex[row[0]].append(row)
    elif kind == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL("SELECT originator_id, originator_version, topic, state FROM {schema}.{table} "
                        "WHERE originator_id = ANY(%s) ORDER BY originator_id, originator_version").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, (ids,))
            for row in curs.fetchall():
                oid = row["originator_id"]
                out[oid].append((oid, row["originator_version"], row["topic"], bytes(row["state"])))
    else:
        for i in ids:
            out[i] = [(i, r.originator_version, r.topic, r.state) for r in recorder.select_events(i)]
    return out


def select_rows(recorder: Any, ids: list[UUID]) -> dict[UUID, list]:
    """select_raw's rows as the library's StoredEvent objects."""
    from eventsourcing.persistence import StoredEvent

    return {i: [StoredEvent(i, v, topic, state) for _, v, topic, state in rows] for i, rows in select_raw(recorder, ids).items()}


def read_batch(app: Any, ids: list[UUID], catalogue: Any = None) -> dict[UUID, GameRows]:
    """The rows of a batch of games: events and refused attempts (one query), snapshots (one query), catalogue rows."""
    from domain.attempts import attempts_id

    attempts = {gid: attempts_id(gid) for gid in ids}
    events = select_raw(app.recorder, ids + list(attempts.values()))
    snapshots = select_rows(app.snapshots.recorder, ids) if app.snapshots is not None else {}
    rows_of: Any = None
    if catalogue is not None:
        try:
            rows_of = catalogue.get_many(ids)  # one query for the batch's catalogue rows
        except Exception:  # an unreadable catalogue: each game's check reads its row itself and reports why
            rows_of = _UNREAD
    out = {}
    for gid in ids:
        attempt_rows = events[attempts[gid]]
        rows = GameRows(gid, events[gid], _stored(attempts[gid], attempt_rows) if attempt_rows else [],
                        snapshots.get(gid, []))
        if rows_of is not None:
            rows.catalogue = _UNREAD if rows_of is _UNREAD else rows_of.get(str(gid))
        out[gid] = rows
    return out


def _stored(stream_id: UUID, raw: list) -> list:
    from eventsourcing.persistence import StoredEvent

    return [StoredEvent(stream_id, v, topic, state) for _, v, topic, state in raw]


_UNREAD = object()


# -- one process's share -------------------------------------------------------------------------

_worker: dict = {}


def _open(database_url: str, key_file: str | None, checkpoint_log: str | None, log_report: Any = None) -> None:
    """A worker's own store (its own connections), verification facade, catalogue and checkpoint log report
    (`log_report`: the report the parent made, else the log is checked here). The worker composes only what verifying
    needs, as the front door (service.facade) composes it: a concern never imports the front door."""
    from service.adapters.catalogue_store import Catalogue
    from service.evidence.facade import Evidence
    from service.store.application import Store

    from .facade import VerificationFacade

    app = Store(database_url)
    evidence = Evidence.configured(app, database_url, key_file, checkpoint_log)
    catalogue = Catalogue.for_app(app)  # several workers at once are safe (service.adapters.store_tables)
    checked: list = []  # the catalogue the checks read: opened on first use, caught up at each (as the lobby's)

    def caught_up() -> Catalogue:
        if not checked:
            checked.append(Catalogue.for_app(app))
        checked[0].catch_up()
        return checked[0]

    verification = VerificationFacade(app, evidence, caught_up)
    _worker.update(app=app, verification=verification, catalogue=catalogue,
                   log=evidence.checked_log() if log_report is None else log_report)


def _worker_batch(ids: list[str]) -> tuple[list[dict], int, float]:
    """A worker's reports of a batch, its process id and the CPU seconds it has used so far (start-up included)."""
    reports = _verify_batch(ids)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return reports, os.getpid(), usage.ru_utime + usage.ru_stime


def _verify_batch(ids: list[str]) -> list[dict]:
    """The reports of a batch of games (ids as the facade lists them), in order.

    The cyclic garbage collector waits until the batch is done: a batch makes a few hundred thousand short-lived
    dicts and lists (rows, events, states), freed by their reference counts, and the collections those allocations
    would set off (each scanning every object the process holds) cost more than the whole check of a row."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _batch_reports(ids)
    finally:
        if enabled:
            gc.enable()


def _batch_reports(ids: list[str]) -> list[dict]:
    from service.access import parse_game_id

    app, verification, log = _worker["app"], _worker["verification"], _worker["log"]
    gids = [parse_game_id(i) for i in ids]
    batch = read_batch(app, gids, _worker["catalogue"])
    reports, marks = [], []
    try:
        for gid in gids:
            rows = batch[gid]
            if rows.catalogue is _UNREAD:
                rows.catalogue = None  # the detailed decoder's report reads the row itself and names its fault
                reports.append(verification.verify(gid, full=True, log_report=log, marks=marks))
            elif not rows.raw:  # deleted: the log knows it, the store not
                reports.append(verification.verify(gid, full=True, log_report=log, marks=marks))
            else:
                reports.append(verification.verify(gid, full=True, rows=rows, log_report=log, marks=marks))
    finally:
        verification.mark_verified(marks)  # the verdicts kept on the catalogue rows, the batch's in one transaction
    return reports


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def verify_all(database_url: str, ids: list[str], key_file: str | None = None, checkpoint_log: str | None = None,
               workers: int | None = None, batch: int = BATCH, cpu: dict | None = None,
               log_report: Any = None) -> Iterator[dict]:
    """The report of every game of `ids`, in that order, verified by `workers` processes (1: in this process).

    `log_report`: the checkpoint log's report the caller has made already (its own facade's), else the log is checked
    here. `cpu`: a dict given to be filled, once every report is out, with the CPU seconds each verifying process used
    (`workers`: {process id: seconds, start-up included}) and this process's own (`here`), for benchmarks."""
    workers = default_workers() if workers is None else workers
    batches = [ids[k:k + batch] for k in range(0, len(ids), batch)]
    used: dict[int, float] = {}
    started = time.process_time()
    if workers <= 1 or len(batches) <= 1:
        _open(database_url, key_file, checkpoint_log, log_report)
        try:
            for b in batches:
                yield from _verify_batch(b)
        finally:
            _worker.clear()
        if cpu is not None:
            cpu.update(workers={}, here=time.process_time() - started)
        return
    context = start_workers()  # the workers' server starts now (if not yet), and imports while this process opens the store
    _open(database_url, key_file, checkpoint_log, log_report)  # here first: the catalogue's tables exist before the
    log = _worker["log"]  # workers start; the checkpoint log checked once, here, for every worker: all hold games
    # against the same log
    _worker.clear()
    with ProcessPoolExecutor(min(workers, len(batches)), mp_context=context, initializer=_open,
                             initargs=(database_url, key_file, checkpoint_log, log)) as pool:
        for reports, pid, seconds in pool.map(_worker_batch, batches):
            used[pid] = max(seconds, used.get(pid, 0.0))
            yield from reports
    if cpu is not None:
        cpu.update(workers=used, here=time.process_time() - started)


def start_workers() -> Any:
    """The multiprocessing context of verify_all's workers, its server started (a caller may start it early).

    forkserver: workers forked from a clean server process, not from this one (whose threads, connections and locks a
    fork would copy half-way); the server imports the verifier once for all of them. It is started before anything
    else is done, so that its imports (a quarter of a second) run beside this process's own opening of the store."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["service.store.application", "service.evidence.facade", "service.verification.bulk",
                                    "service.verification.driver", "service.adapters.catalogue_store"])
    forkserver.ensure_running()
    return context


def stored_events(report: dict) -> int:
    """How many stored events a report covers (for progress and speed figures)."""
    return (report.get("chain") or {}).get("length") or 0


