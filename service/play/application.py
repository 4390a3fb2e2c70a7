"""The referee's eventsourcing Application: one method per use case, stores chosen by URL.

Concurrency: every command loads the game, decides, and saves; a stale save
(another writer got there first) re-runs the whole command on fresh state. A
per-game lock serialises writers inside one process; across processes the
store's version check decides.

Over 300 lines on purpose: one eventsourcing Application, whose use cases share its loading, its command loop
(load, decide, save, retry) and its snapshots; the shapes of the commands are checked before (commands.py), the
tokens are made apart (tokens.py).
"""

from __future__ import annotations

import os
import threading
from collections import defaultdict
from typing import Any, Callable, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, MapperDeserialisationError, Transcoding

from domain import ENGINE_VERSION
from domain.attempts import Attempts, attempts_id
from domain.game import Game, seat_actor
from domain.games import SPECS
from domain.records import FORMAT, InvalidRecord, Record, parse, parse_move
from domain.rules import InvalidSetup, RuleViolation

from service.adapters.group_commit import GroupCommit, WriteLock
from service.adapters.store_tables import retried
from service.adapters.stores import DEFAULT_URL, ensure_schema, persistence_env, startup_lock, write_lock_path
from service.errors import BadInput, Conflict, Damaged, IllegalMove, NotFound
from service.views.spectator_delay import parse_delay

from .clocks import flag_due, parse_time_control, server_ms
from .idempotency import refuse_different, same_request, stored_key
from .tokens import new_token, seat_token, token_hash

# what reading a damaged stored game raises: the mapper's decoding, then the aggregate's own folding of bad data
UNREADABLE = (MapperDeserialisationError, ValueError, KeyError, TypeError, AttributeError, IndexError)


def damaged(game_id: UUID, e: Exception) -> Damaged:
    """The refusal for a stored game that cannot be read: names the game and the kind of damage, never a stored value."""
    return Damaged(f"the stored events of game {game_id} cannot be read ({type(e).__name__}); nothing was changed. "
                   f"The referee can locate the damage with `arbiter verify {game_id}`.")

T = TypeVar("T")
MAX_RETRIES = 50
SNAPSHOT_INTERVAL = 100


class StateTranscoding(Transcoding):
    """Snapshots: a decider's State as JSON-safe data."""

    def __init__(self, spec):
        self.type = spec.codec.State
        self.name = f"{spec.id}/state"
        self._codec = spec.codec

    def encode(self, obj: Any) -> dict:
        return self._codec.dump_state(obj)

    def decode(self, data: dict) -> Any:
        return self._codec.load_state(data)


class Referee(Application):
    """Stores games, runs moves through their deciders, keeps evidence, disputes and rewinds."""

    name = "arbiter"
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, database_url: str = DEFAULT_URL, env: dict | None = None):
        self.database_url = database_url
        store_env = persistence_env(database_url)
        # fast-forwarded from the store on every get; AGGREGATE_CACHE_MAXSIZE=0 in the environment turns it off
        store_env["AGGREGATE_CACHE_MAXSIZE"] = os.environ.get("AGGREGATE_CACHE_MAXSIZE", "1000")
        store_env.update(env or {})

        def start() -> None:
            with startup_lock(store_env):  # workers starting at once would race on CREATE SCHEMA/TABLE/FUNCTION, WAL
                ensure_schema(store_env)
                super(Referee, self).__init__(env=store_env)

        retried(start)  # again if a process outside the lock created the same objects at the same moment
        # moves saved at the same moment by this process's threads share one transaction (service.adapters.group_commit)
        lock_file = write_lock_path(store_env)
        across = None if lock_file is None else WriteLock(lock_file)  # a SQLite file's writers queue, not sleep
        self.recorder.insert_events = self.group_commit = GroupCommit(self.recorder.insert_events, across)
        self._locks: dict[UUID, threading.Lock] = defaultdict(threading.Lock)
        self._locks_guard = threading.Lock()

    def _take_snapshots(self, processing_event) -> None:
        """A snapshot when a command's save crosses a multiple of the interval, taken from the game just saved (the
        library rebuilds it from the store: the latest snapshot and up to 99 events replayed inside the request).
        A save that crosses several (an imported record) gets one at each multiple, so that any version loads
        with at most 99 events replayed."""
        if not self.snapshots:
            return
        for aggregate_id, aggregate in processing_event.aggregates.items():
            interval = self.snapshotting_intervals.get(type(aggregate))
            crossed = [e.originator_version for e in processing_event.events
                       if interval and e.originator_id == aggregate_id and e.originator_version % interval == 0]
            if len(crossed) == 1:  # a command: the game as saved, a few versions past the multiple at most
                snapshot_class = getattr(type(aggregate), "Snapshot", type(self).snapshot_class)
                self.snapshots.put([snapshot_class.take(aggregate)])
            else:  # an import (many multiples in one save): one at each, as the library takes them
                for version in crossed:
                    self.take_snapshot(aggregate_id, version=version)

    closed = False

    def close(self) -> None:
        """Close the store's connections; the process's duty loop (service.duty) stops when it sees this."""
        self.closed = True
        super().close()

    def register_transcodings(self, transcoder) -> None:
        super().register_transcodings(transcoder)
        for spec in SPECS.values():
            transcoder.register(StateTranscoding(spec))

    # -- loading -----------------------------------------------------------------------------

    def aggregate_of(self, kind: type, aggregate_id: UUID, what: str):
        """The stored aggregate of class `kind` with this id (a tournament, a study); raises NotFound naming `what`
        when there is none, or when the id is another kind's."""
        try:
            aggregate = self.repository.get(aggregate_id)
        except AggregateNotFoundError:
            raise NotFound(f"no {what} with id {aggregate_id}") from None
        if not isinstance(aggregate, kind):
            raise NotFound(f"no {what} with id {aggregate_id}")
        return aggregate

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """A game, at its latest version or as at `version`; raises NotFound."""
        try:
            if version is None:
                return self.repository.get(game_id, projector_func=_project)
            if version < 1:
                raise NotFound(f"game {game_id} has no version {version}: versions start at 1", field="version")
            game = self.repository.get(game_id, version=version, projector_func=_project)
        except AggregateNotFoundError:
            raise NotFound(f"no game with id {game_id}") from None
        except UNREADABLE as e:
            raise damaged(game_id, e) from None
        if game.version != version:
            raise NotFound(f"game {game_id} has no version {version}: it is at version {game.version}", field="version")
        return game

    def attempts(self, game_id: UUID) -> Attempts | None:
        """A game's refused attempts (None while there are none)."""
        try:
            return self.repository.get(attempts_id(game_id), projector_func=_project)
        except AggregateNotFoundError:
            return None
        except UNREADABLE as e:
            raise damaged(game_id, e) from None

    def stored_attempts(self, game_id: UUID) -> list:
        """Every stored event of a game's attempts stream, in order (empty while there are none)."""
        try:
            return list(self.events.get(attempts_id(game_id)))
        except UNREADABLE as e:
            raise damaged(game_id, e) from None

    def read_events(self, game_id: UUID, gt: int | None = None, lte: int | None = None) -> list:
        """A game's stored events in (gt, lte], decoded; raises Damaged for a row that cannot be read."""
        try:
            return list(self.events.get(game_id, gt=gt, lte=lte))
        except UNREADABLE as e:
            raise damaged(game_id, e) from None

    def stored_events(self, game_id: UUID) -> list:
        """Every stored event of a game, in order (for the audit log and its verification)."""
        return self.read_events(game_id)

    def _lock(self, game_id: UUID) -> threading.Lock:
        with self._locks_guard:
            return self._locks[game_id]

    def _command(self, game_id: UUID, body: Callable[[Game], T]) -> T:
        """Load, run, save; on a concurrent write re-run the whole command on fresh state."""
        with self._lock(game_id):
            for _ in range(MAX_RETRIES):
                game = self.game(game_id)
                result = body(game)
                also = result.pop("_also_save", ()) if isinstance(result, dict) else ()
                try:
                    self.save(game, *also)
                except IntegrityError:
                    continue
                if self.repository.cache is not None:  # the next load fast-forwards from here, not re-applying these
                    self.repository.cache.put(game_id, game)
                return result
        raise Conflict(f"game {game_id} is too busy: the move was not applied, try again")

    # -- use cases ---------------------------------------------------------------------------

    def create_game(self, spec: dict) -> dict:
        """Create a game from {game, options, players, seed?, deck?, dealer?, starter?, outcomes?}."""
        if not isinstance(spec, dict):
            raise BadInput("a game is created from an object with game, options and players")
        doc = {"format": FORMAT, "moves": []}
        for key in ("game", "options", "players", "seed", "deck", "dealer", "starter", "outcomes"):
            if key in spec and spec[key] is not None:
                doc[key] = spec[key]
        delay = parse_delay(spec.get("spectator_delay"))
        control = parse_time_control(spec.get("time_control"))
        record = _validated(doc)
        return self._start(record, delay, control)

    def _start(self, record: Record, delay: dict | None = None, control: dict | None = None,
               imported: bool = False) -> dict:
        referee = new_token()
        tokens = [seat_token(referee, seat) for seat in range(len(record.setup.names))]
        try:
            game = Game.start(record, [token_hash(t) for t in tokens], token_hash(referee), delay, control, imported)
        except InvalidSetup as e:
            raise BadInput(str(e), field=e.field) from None
        self.save(game)
        return {"id": str(game.id), "tokens": tokens, "referee_token": referee, "game": game}

    def import_record(self, doc: Any) -> dict:
        """Import a whole record: create its game and replay its moves; stops at the first illegal move."""
        record = _validated(doc)
        started = self._start(record, imported=True)
        game = started["game"]
        illegal = None
        for i, move in enumerate(record.moves):
            try:
                game.play(move)
            except RuleViolation as v:
                attempts = Attempts.open(game.id)
                attempts.refuse(seat_actor(move["seat"]), game.codec.format_move(move), v.clause, v.reason, game.version,
                                ENGINE_VERSION, record_move=i)
                self.save(game, attempts)
                illegal = {"move_index": i, "rule": v.clause, "reason": v.reason}
                break
        else:
            self.save(game)
        started["illegal"] = illegal
        started["moves_applied"] = len(game.moves)
        return started

    def submit_move(self, game_id: UUID, seat: int, raw_move: Any, expected_version: int | None = None,
                    idempotency_key: str | None = None) -> dict:
        """Play one move for a seat; returns {version, first_version, replayed} and, for a new move, its saved `events`
        and the `chain_head` after it; raises IllegalMove, Conflict, BadInput.

        `raw_move`: the record move (a dict; its seat is this seat), as service.play.commands.PlayMove checked it;
        `idempotency_key`: the seat's key, bound to the request it first came with (service.play.idempotency: the
        same move again gets the first answer, anything else a 422 naming the key)."""
        key = stored_key(seat, idempotency_key)

        def body(game: Game) -> dict:
            attempts = self.attempts(game_id) if key else None  # read only when it can matter
            if key:
                replayed = self._answer_again(game_id, game, attempts, seat, raw_move, idempotency_key)
                if replayed is not None:
                    return replayed
            if expected_version is not None and not game.current_for(expected_version):
                raise Conflict(f"expected version {expected_version} but the game is at version {game.version}: "
                               "reload the view and decide again", field="expected_version")
            move = _parsed_move(raw_move, seat, game)
            flag_due(game, server_ms())  # a late move: its flag is recorded first, in the same save
            first = game.version + 1
            try:
                game.play(move, key)
            except RuleViolation as v:  # kept in the attempts stream: the game's version does not move
                attempts = attempts or self.attempts(game_id) or Attempts.open(game_id)
                attempts.refuse(seat_actor(seat), game.codec.format_move(move), v.clause, v.reason, game.version,
                                ENGINE_VERSION, key)
                return {"rejected": v, "attempt": attempts.count, "_also_save": [attempts]}
            game.play_forced()  # the table's auto_pass: the passes its rules force now, in the same save
            # the move's events as saved, and the chain's head: the answer needs no second read of the store
            return {"version": game.version, "first_version": first, "replayed": False,
                    "events": list(game.pending_events), "chain_head": game.chain_head}

        result = self._command(game_id, body)
        if "rejected" in result:
            v = result["rejected"]
            raise IllegalMove(v.reason, rule=v.clause, attempt=result.get("attempt"))
        return result

    def _answer_again(self, game_id: UUID, game: Game, attempts: Attempts | None, seat: int, raw_move: Any,
                      key: str) -> dict | None:
        """The first answer to a seat's key, when the seat used the key and this is the same request (None: a key the
        seat has not used yet); raises BadInput when the seat used it for another move (service.play.idempotency).
        Keys are the seat's own: the same key from another seat is another key."""
        refused = attempts.answers if attempts is not None else {}
        mine = stored_key(seat, key)
        answer = game.answers.get(mine) or refused.get(mine)
        if answer is None:
            return None
        try:
            move = _parsed_move(raw_move, seat, game)
        except BadInput:
            move = None
        if not same_request(self._first_move(game_id, game, answer, mine), move):
            raise refuse_different()
        return _replayed(answer, seat)

    def _first_move(self, game_id: UUID, game: Game, answer: dict, key: str) -> dict | None:
        """The move first sent with a stored key, canonical (the decider's form), from the store: the move on the
        event the key is on, or the refused attempt's move."""
        decider = game.decider
        if answer["rejected"]:
            refused = [e for e in self.stored_attempts(game_id) if getattr(e, "idempotency_key", None) == key]
            if not refused:
                return None
            try:
                return parse_move(dict(refused[-1].move), game.setup.n, game.codec)
            except InvalidRecord:
                return None
        stored = self.read_events(game_id, gt=answer["version"] - 1, lte=answer["version"])
        if not stored or getattr(stored[0], "idempotency_key", None) != key:
            return None
        return decider.move_of(game.codec.decode_event(stored[0].data))

    def file_dispute(self, game_id: UUID, seat: int, version: Any, claim: Any, attempt: Any = None) -> dict:
        """A seat disputes the move at a version of the active line, or (`attempt`) the refusal of one of its own
        attempts (the number its refusal answered); returns the dispute. Its shape is FileDispute's (checked there)."""
        def body(game: Game) -> dict:
            against = version
            if attempt is not None:
                against = self._own_refusal(game_id, seat, attempt, version)
            elif version not in game.move_versions:
                raise BadInput(f"version: no move of the current line of play starts at version {version}", field="version")
            number = game.file_dispute(seat, against, claim, attempt)
            return dict(game.disputes[number - 1])

        return self._command(game_id, body)

    def check_clocks(self, game_id: UUID, now_ms: int) -> list[int]:
        """Record the time flags of a game due at `now_ms` (service.play.clocks); returns their numbers (none: nothing written)."""
        return self._command(game_id, lambda game: {"flags": flag_due(game, now_ms)})["flags"]

    def name_player(self, game_id: UUID, seat: int, name: Any) -> dict:
        """A seat's name from now on (as NameSeat checked it); returns {seat, name, version}."""
        def body(game: Game) -> dict:
            if game.players[seat]["name"] == name:
                return {"seat": seat, "name": name, "version": game.version}  # nothing to change, nothing written
            game.name_player(seat, name)
            return {"seat": seat, "name": name, "version": game.version}

        return self._command(game_id, body)

    def _own_refusal(self, game_id: UUID, seat: int, attempt: int, version: Any) -> int:
        """The game version a seat's own refused attempt met; raises BadInput for any other number (another seat's
        refusals stay secret: they answer exactly as a number never used)."""
        attempts = self.attempts(game_id)
        refused = attempts.refused.get(attempt) if attempts is not None else None
        if refused is None or refused["actor"] != seat_actor(seat):
            raise BadInput(f"attempt: you made no refused attempt numbered {attempt}", field="attempt")
        if version is not None and version != refused["at_version"]:
            raise BadInput(f"version: your attempt {attempt} met version {refused['at_version']}, not {version}", field="version")
        return refused["at_version"]

    def rule_dispute(self, game_id: UUID, number: Any, decision: Any, remedy: Any, note: Any) -> dict:
        """The referee rules `upheld` or `rejected`, remedy `none` or `rewind` (upheld only), as GiveRuling checked it;
        which dispute, and whether the game still allows the remedy, are checked here."""
        def body(game: Game) -> dict:
            if not isinstance(number, int) or not 1 <= number <= len(game.disputes):
                raise NotFound(f"game {game_id} has no dispute {number}")
            dispute = game.disputes[number - 1]
            if dispute["ruling"] is not None:
                raise Conflict(f"dispute {number} was already ruled {dispute['ruling']['decision']}")
            if remedy == "rewind" and dispute.get("time_expired") is not None:
                raise BadInput(f"remedy: entry {number} is a time flag, which changed nothing: there is no move to rewind",
                               field="remedy")
            if remedy == "rewind" and dispute.get("attempt") is not None:
                raise BadInput(f"remedy: dispute {number} is against a refused attempt, which changed nothing: "
                               "there is no move to rewind", field="remedy")
            if remedy == "rewind" and dispute["version"] not in game.move_versions:
                raise Conflict(f"dispute {number}: the disputed move was already undone by an earlier rewind")
            game.rule(number, decision, remedy, note)
            if remedy == "rewind":
                game.rewind(number, self.game(game_id, dispute["version"] - 1))
            return dict(game.disputes[number - 1])

        return self._command(game_id, body)


def _project(aggregate: Any, events: Any) -> Any:
    """The library's project_aggregate without its per-event `assert isinstance(event, CanMutateProtocol)`: a
    runtime Protocol check costs 9 us an event on Python 3.11, and a worker fast-forwards its cached game over every
    move the other workers played. Every stored event of this application is an eventsourcing event (mutate)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def _validated(doc: Any) -> Record:
    try:
        return parse(doc)
    except InvalidRecord as e:
        field = str(e).split(":", 1)[0] if ":" in str(e) else None
        raise BadInput(str(e), field=field) from None


def _parsed_move(raw: dict, seat: int, game: Game) -> dict:
    """The move parsed by the game's decider (domain.records.parse_move: seat and type, then the game's own fields),
    its errors named by the move's own fields (`cards`, not `move.cards`)."""
    try:
        return parse_move({**raw, "seat": seat}, game.setup.n, game.codec)
    except InvalidRecord as e:
        raise BadInput(str(e).removeprefix("move."), field=str(e).split(":", 1)[0].removeprefix("move.")) from None


def _replayed(answer: dict, seat: int) -> dict:
    """The answer already given to a request with this idempotency key."""
    if answer["actor"] != seat_actor(seat):
        raise refuse_different()
    if answer["rejected"]:
        return {"rejected": RuleViolation(answer["clause"], answer["reason"]), "attempt": answer.get("attempt")}
    return {"version": None, "first_version": answer["version"], "replayed": True}
