"""`arbiter import`: recorded games (files, directories, JSON Lines archives) loaded into the store in bulk.

What an imported game is, is what `POST /records` makes of a record (Referee.import_record): a new game
with fresh tokens, the record's moves played by the engine, the seed revealed once the game is over, a
signed checkpoint (reason `import`). A record with an illegal move is stored up to that move with the
refusal in the game's refused-attempts stream, as `POST /records` does, and its verdict says `illegal`.

All or nothing for invalid input: every record is read and validated first; if any is invalid (not JSON,
not a record, a set-up the rules refuse) nothing is written and every invalid record is named. Running
the same import twice imports the games twice (each import is a new game with its own id and tokens).

How it is fast: each game's events are decided once by the bare decider (no aggregate objects), each
event is hashed into the chain as the aggregate would, mapped to its stored row by the application's
own mapper, and rows are written through the library's recorder in large transactions (many games
each), so the rows are exactly the ones the service writes. Checkpoints of a transaction's games are
appended to the log under one lock and one sync. Imported games get no snapshots: a snapshot only
spares a replay (the first load of a long imported game replays it once; later moves take snapshots
as usual).

What it was written for is declared (WRITES: the fields of the events it writes); a record it cannot write as the
service would (an illegal move, or events of another shape) takes the service's own import (Referee.import_record).

Over 300 lines: validation, the bare decider's rows and the write are one pass over the records.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator
from uuid import uuid4

from domain import ENGINE_VERSION
from domain.audit import GENESIS, fields_hash
from domain.game import ENGINE, Game, seat_actor
from domain.randomness import commitment
from domain.records import InvalidRecord, Record, Replay, parse
from domain.rules import InvalidSetup, RuleViolation

from service.adapters.canonical_json import chain_hash, plain, stored
from service.errors import BadInput
from service.json_files import FileProblem, read_json, read_json_lines
from service.play.new_games import ImportRecord

EXPECTED_SUFFIX = ".expected.json"  # the verdicts kept beside sample records: not records
ROWS_PER_TRANSACTION = 20_000
_GAME_TOPIC = "domain.game:Game"
_CREATED, _HAPPENED, _REVEALED = (f"domain.game:Game.{name}" for name in ("Created", "Happened", "SeedRevealed"))
MAX_LISTED = 20  # invalid records named in the refusal
# What build was written for: the aggregate's events with these fields, in this order (ids and versions aside), as
# Game.start and Game.play trigger them. Events of any other shape (the aggregate changed, this file did not) would be
# written wrongly: then every record takes the service's own import, as a record with an illegal move does.
WRITES = {
    Game.Created: ("timestamp", "originator_topic", "game", "options", "players", "dealer", "starter", "seed",
                   "seed_given", "commitment", "outcomes", "stacked", "engine_version", "seat_token_hashes",
                   "referee_token_hash", "prev", "spectator_delay", "time_control", "imported"),
    Game.Happened: ("timestamp", "prev", "kind", "data", "actor", "clause", "engine_version", "idempotency_key",
                    "automatic"),
    Game.SeedRevealed: ("timestamp", "prev", "seed", "result", "winner", "scores"),
}


def written_for(writes: dict = WRITES) -> bool:
    """Whether the aggregate's events have exactly the fields build writes, in its order."""
    return all(tuple(f.name for f in fields(cls) if f.name not in ("originator_id", "originator_version")) == names
               for cls, names in writes.items())


class ImportRefused(BadInput):
    """Some records are invalid: nothing was imported (`problems` names each)."""

    def __init__(self, problems: list[str], total: int):
        shown = problems[:MAX_LISTED]
        more = f"\n... and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
        super().__init__(f"{len(problems)} of {total} record(s) invalid, nothing imported:\n" + "\n".join(shown) + more)
        self.problems = problems


def sources(paths: list[str]) -> list[str]:
    """The files to read: each file given, and in each directory given its records (`*.json`, not the expected
    verdicts beside samples) and archives (`*.jsonl`), in name order; raises BadInput for a path that is neither."""
    out: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            found = sorted(str(f) for f in p.iterdir() if f.is_file() and (f.name.endswith(".jsonl") or (
                f.name.endswith(".json") and not f.name.endswith(EXPECTED_SUFFIX))))
            if not found:
                raise BadInput(f"{path}: a directory with no record (*.json) or archive (*.jsonl) in it", field="files")
            out.extend(found)
        elif p.is_file():
            out.append(str(p))
        else:
            raise BadInput(f"{path}: no such file or directory", field="files")
    return out


def documents(files: list[str]) -> Iterator[tuple[str, Any, bool]]:
    """(where, the decoded JSON document or the exception that stopped it, whether it keeps the JSON bounds) for every
    record of the files: a `.jsonl` file gives one a non-empty line (where = file:line), any other file one. Each is
    read by the one reader of files (service.json_files), within every bound: a document it gives keeps them."""
    for path in files:
        try:
            if path.endswith(".jsonl"):
                for number, doc in read_json_lines(path):
                    yield f"{path}:{number}", doc, not isinstance(doc, FileProblem)
            else:
                yield path, read_json(path), True
        except FileProblem as e:
            yield path, e, False


def _problem(doc: Any, screened: bool = False) -> tuple[Record | None, str | None]:
    """The validated record of a document, or what is wrong with it (the words `arbiter replay` uses)."""
    if isinstance(doc, FileProblem):  # cannot be read, too large, not UTF-8, not JSON, outside the JSON bounds
        return None, doc.reason
    try:
        record = parse(doc, checked=screened)
        record.decider.start(record.setup, record.chance)  # a set-up outcome the rules refuse makes it invalid
    except InvalidRecord as e:
        return None, str(e)
    except InvalidSetup as e:
        return None, str(e)
    except RecursionError:
        return None, "not a record: nested too deeply"
    return record, None


def validate(files: list[str]) -> int:
    """Read and validate every record; returns how many; raises ImportRefused naming every invalid one."""
    problems, total = [], 0
    for where, doc, screened in documents(files):
        total += 1
        _, problem = _problem(doc, screened)
        if problem:
            problems.append(f"{where}: {problem}")
    if problems:
        raise ImportRefused(problems, total)
    if not total:
        raise BadInput("no record to import: the files hold none", field="files")
    return total


@dataclass
class Built:
    """One record made into a game's events: its id, stored rows, tokens, chain head and verdict."""

    game_id: Any
    rows: list
    referee_token: str
    tokens: list[str]
    head: str
    verdict: dict


def _event(cls: type, fields: dict) -> Any:
    """An event object of `cls` holding `fields` (what the aggregate's trigger_event makes, without the aggregate)."""
    event = object.__new__(cls)
    event.__dict__.update(fields)
    return event


class _Rows:
    """One game's stored rows and chain, made as Application.save would make them: each event's state is what the
    mapper's own transcoder writes (its fields but id and version, the timestamp as the transcoder encodes a
    datetime), and the chain hash is domain.audit's, computed from the same fields. For plain fields (JSON types
    only, no float: service.adapters.canonical_json) both are written by orjson, byte for byte the same."""

    def __init__(self, mapper: Any, game_id: Any):
        from eventsourcing.persistence import JSONTranscoder, StoredEvent

        self.mapper, self.game_id, self.oid = mapper, game_id, str(game_id)
        self.direct = mapper.compressor is None and mapper.cipher is None
        self.orjson = self.direct and type(mapper.transcoder) is JSONTranscoder  # the transcoder orjson writes as
        self.encode, self.stored = mapper.transcoder.encode, StoredEvent
        self.rows: list = []
        self.head = GENESIS

    def add(self, cls: type, topic: str, version: int, fields: dict) -> None:
        """Append the event of class `cls` at `version` with `fields` (the timestamp as isoformat's text, _utc_now)."""
        text = fields["timestamp"]
        hashed = {"originator_id": self.oid, "originator_version": version, **fields}
        if self.direct:
            state = dict(fields)
            state["timestamp"] = {"_type_": "datetime_iso", "_data_": text}
            if self.orjson and plain(fields):
                self.rows.append(self.stored(self.game_id, version, topic, stored(state)))
                self.head = chain_hash(hashed, cls.__qualname__)
                return
            self.rows.append(self.stored(self.game_id, version, topic, self.encode(state)))
        else:
            self.rows.append(self.mapper.to_stored_event(_event(cls, {
                "originator_id": self.game_id, "originator_version": version, **fields,
                "timestamp": datetime.fromisoformat(text)})))
        self.head = fields_hash(hashed, cls.__qualname__)


_second: tuple[int, str] = (-1, "")  # the last second _utc_now met, and its text


def _utc_now() -> str:
    """The time now, as `datetime.now(timezone.utc).isoformat()` writes it (the text a stored timestamp holds), made
    without a datetime: the date and time of the second once a second, the microseconds (if any) added."""
    global _second
    second, micro = divmod(time.time_ns() // 1000, 1_000_000)
    if second != _second[0]:
        _second = (second, datetime.fromtimestamp(second, timezone.utc).isoformat()[:19])
    return f"{_second[1]}.{micro:06d}+00:00" if micro else f"{_second[1]}+00:00"


def build(record: Record, mapper: Any) -> Built | None:
    """The stored rows of a record's game as the service writes them (Game.start, then Game.play for every move),
    decided by the bare decider; None when a move is illegal (that record takes the service's own road). For events
    of the shape WRITES declares (import_files asks written_for first)."""
    from service.store.tokens import new_token, seat_token, token_hash

    d, setup, chance = record.decider, record.setup, record.chance
    referee = new_token()
    tokens = [seat_token(referee, seat) for seat in range(len(setup.names))]
    gid = uuid4()
    now = _utc_now
    out = _Rows(mapper, gid)
    out.add(Game.Created, _CREATED, 1, {
        "timestamp": now(), "originator_topic": _GAME_TOPIC,
        "game": record.game, "options": setup.options(), "players": setup.players(), "dealer": setup.dealer,
        "starter": setup.starter, "seed": record.seed, "seed_given": record.seed_given,
        "commitment": commitment(record.seed), "outcomes": record.outcomes, "stacked": record.stacked,
        "engine_version": ENGINE_VERSION, "seat_token_hashes": [token_hash(t) for t in tokens],
        "referee_token_hash": token_hash(referee), "prev": GENESIS, "spectator_delay": None, "time_control": None,
        "imported": True})
    version = 1
    happened, encode, clause_of, add = Game.Happened, record.codec.encode_event, d.clause_of, out.add

    def record_events(events: list, actor: str | None) -> None:
        nonlocal version
        for i, e in enumerate(events):
            version += 1
            add(happened, _HAPPENED, version, {
                "timestamp": now(), "prev": out.head, "kind": e["type"], "data": encode(e),
                "actor": actor if (i == 0 and actor) else ENGINE, "clause": clause_of(e),
                "engine_version": ENGINE_VERSION, "idempotency_key": None, "automatic": False})

    state = d.initial_state(setup)
    opening = d.start(setup, chance)
    for e in opening:
        state = d.evolve(state, e)
    record_events(opening, None)
    step, outcome_of = d.step, d.outcome
    for move in record.moves:
        try:
            events, state = step(state, move, chance)
        except RuleViolation:
            return None
        record_events(events, seat_actor(move["seat"]))
        outcome = outcome_of(state)
        if outcome.is_over:
            version += 1
            add(Game.SeedRevealed, _REVEALED, version, {
                "timestamp": now(), "prev": out.head, "seed": record.seed, "result": outcome.result,
                "winner": outcome.winner_json(), "scores": None if outcome.scores is None else list(outcome.scores)})
    verdict = Replay(record, state, [], len(record.moves), None).verdict()
    return Built(gid, out.rows, referee, tokens, out.head, verdict)


def _line(where: str, game_id: Any, referee_token: str, verdict: dict) -> dict:
    prefix = game_id.hex
    return {"source": where, "id": str(game_id), "referee_token": f"{prefix}.{referee_token}", **verdict}


def import_files(arbiter: Any, files: list[str], rows_per_transaction: int = ROWS_PER_TRANSACTION,
                 validated: bool = False) -> Iterator[dict]:
    """Import every record of `files` (validated first unless `validated`: ImportRefused, nothing written); yields
    one line a record: {source, id, referee_token, status, moves_applied, result, winner, illegal, final}, in the
    files' order, each once its transaction is committed."""
    if not validated:
        validate(files)
    app = arbiter.app
    pending: list[tuple[str, Built]] = []
    rows: list = []

    def flush() -> Iterator[dict]:
        if rows:
            app.recorder.insert_events(rows)
            # a record built here has no refused attempt (one with an illegal move takes the service's own import)
            checkpoints = [(str(b.game_id), len(b.rows), b.head, "import", 0, "") for _, b in pending]
            try:
                arbiter.evidence.log.append_many(checkpoints)
            except OSError as e:  # as Evidence.checkpoint: the games are stored; the log's failure is logged
                from service.evidence import keys

                keys.log.error("arbiter: checkpoints of %d imported games not written to %s: %s", len(checkpoints),
                               arbiter.evidence.log.storage, e)
        for where, b in pending:
            yield _line(where, b.game_id, b.referee_token, b.verdict)
        pending.clear()
        rows.clear()

    mapper = app.mapper
    bulk = written_for()
    for where, doc, screened in documents(files):
        record = parse(doc, checked=screened)
        built = build(record, mapper) if bulk else None
        if built is None:  # an illegal move (or events build was not written for): the service's own import
            yield from flush()
            done = arbiter.play.import_record(ImportRecord(record))  # the record read once, above
            yield {"source": where, "id": done["id"], "referee_token": done["referee_token"], **done["verdict"]}
            continue
        pending.append((where, built))
        rows.extend(built.rows)
        if len(rows) >= rows_per_transaction:
            yield from flush()
    yield from flush()

