"""The referee's use cases on the store: create and import games, play moves, file and rule disputes, name seats,
flag seats out of time. Each command runs through the store's unit of work (service.store.unit_of_work): load the
game, decide, save the game and any refused attempt in one transaction, decide again on a concurrent write. The
shapes of the commands are checked before (commands.py); the tokens are made in service.store.tokens.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from domain import ENGINE_VERSION
from domain.attempts import KEPT_PER_WINDOW, WINDOW_SECONDS, Attempts
from domain.disputes import described
from domain.game import Game, seat_actor
from domain.records import InvalidRecord, Record, parse_move
from domain.rules import InvalidSetup, RuleViolation
from service.errors import BadInput, Conflict, IllegalMove, NotFound, TooBusy
from service.store.application import Store
from service.store.idempotency import refuse_different, same_request, stored_key
from service.store.server_clock import server_ms
from service.store.tokens import new_token, seat_token, token_hash
from service.store.unit_of_work import UnitOfWork

from .clocks import flag_due
from .moves import GameMove, RecordMove
from .not_kept import NotKept

if TYPE_CHECKING:  # the commands are built and checked at the edge; the store only reads them
    from .commands import Decision, Remedy
    from .new_games import CreateGame, ImportRecord

T = TypeVar("T")


class Referee(Store):
    """The referee's use cases on the store: games created and imported, moves run through their deciders, disputes
    ruled and rewound, seats named and flagged out of time."""

    name = "arbiter"  # the library's name for the store's settings (a subclass would otherwise be "Referee")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.not_kept = NotKept()  # refusals not kept for the bound, per (game, actor)

    def _command(self, game_id: UUID, decide: Callable[[UnitOfWork[Game]], T]) -> T:
        """One command on a game through the store's unit of work."""
        return self.command(game_id, decide, load=self.game, what=f"game {game_id}")

    # -- use cases ---------------------------------------------------------------------------

    def create_game(self, command: CreateGame) -> dict:
        """Create a game from its set-up (a record without moves), spectator delay and time control, as the command
        (service.play.new_games) checked them."""
        return self._start(command.record, command.spectator_delay, command.time_control)

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

    def import_record(self, command: ImportRecord) -> dict:
        """Import a whole record (as the command, service.play.new_games, read it): create its game and replay its
        moves; stops at the first illegal move."""
        record = command.record
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

    def submit_move(self, game_id: UUID, seat: int, move: RecordMove | Mapping[str, Any],
                    expected_version: int | None = None, idempotency_key: str | None = None) -> dict:
        """Play one move for a seat; returns {version, first_version, replayed} and, for a new move, its saved `events`
        and the `chain_head` after it; raises IllegalMove, Conflict, BadInput.

        `move`: the record move (its seat is this seat), as service.play.moves.PlayMove checked it (a plain mapping:
        the same, from a test or bench that plays the store directly); `idempotency_key`: the seat's key, bound to the
        request it first came with (service.store.idempotency: the same move again gets the first answer, anything
        else a 422 naming the key). The move is parsed by the game's codec once per attempt, and that parse is what
        the key's request is compared with and what the game plays."""
        record = move if isinstance(move, RecordMove) else RecordMove(move)
        key = stored_key(seat, idempotency_key)

        def decide(uow: UnitOfWork[Game]) -> dict:
            game = uow.aggregate
            parsed = _parsed_move(record, seat, game)  # a GameMove, or the refusal due once key and version are heard
            attempts = self.attempts(game_id) if key else None  # read only when it can matter
            if key:
                replayed = self._answer_again(game_id, game, attempts, seat, parsed, idempotency_key)
                if replayed is not None:
                    return replayed
            if game.outcome.is_over and not isinstance(parsed, BadInput):  # closed: the end is the reason (before a
                return {"rejected": _after_the_end(game, parsed), "attempt": None}  # stale version), nothing kept
            if expected_version is not None and not game.current_for(expected_version):
                raise Conflict(f"expected version {expected_version} but the game is at version {game.version}: "
                               "reload the view and decide again", field="expected_version")
            if isinstance(parsed, BadInput):
                raise parsed
            flag_due(game, server_ms())  # a late move: its flag is recorded first, in the same save
            first = game.version + 1
            try:
                game.play(parsed, key)
            except RuleViolation as v:  # kept in the attempts stream: the game's version does not move
                attempts = attempts or self.attempts(game_id) or Attempts.open(game_id)
                actor = seat_actor(seat)
                if not attempts.keeps_more(actor):  # the seat's refusals kept are at their bound: answered, not kept
                    return {"rejected": v, "attempt": None, "not_kept": True}
                wait = attempts.wait_before_keeping(actor, _now())
                if wait:  # too many refusals of this seat in the window: 429, nothing kept (the game's flags are)
                    return {"throttled": wait, "not_kept": True}
                attempts.refuse(actor, game.codec.format_move(parsed), v.clause, v.reason, game.version,
                                ENGINE_VERSION, key)
                uow.add(attempts)  # saved with the game's flags, if any: the refusal is kept, then raised
                return {"rejected": v, "attempt": attempts.count, "seat_attempt": attempts.seat_attempt(attempts.count),
                        "under": (game.game, dict(game.options))}
            game.play_forced()  # the table's auto_pass: the passes its rules force now, in the same save
            # the move's events as saved, and the chain's head: the answer needs no second read of the store
            return {"version": game.version, "first_version": first, "replayed": False,
                    "events": list(game.pending_events), "chain_head": game.chain_head}

        result = self._command(game_id, decide)
        not_kept = self.not_kept.count(game_id, seat_actor(seat)) if result.get("not_kept") else 0
        if "throttled" in result:
            raise TooBusy(f"seat {seat} had {KEPT_PER_WINDOW} moves refused at this game within {WINDOW_SECONDS} s: "
                          "this refusal was not kept; send a legal move (the view lists them) or wait "
                          f"(this process has not kept {not_kept} of its refusals here)",
                          retry_after=max(1, math.ceil(result["throttled"])))
        if "rejected" in result:
            v = result["rejected"]
            raise IllegalMove(v.reason, rule=v.clause, attempt=result.get("attempt"),
                              seat_attempt=result.get("seat_attempt"), under=result.get("under"))
        return result

    def _answer_again(self, game_id: UUID, game: Game, attempts: Attempts | None, seat: int,
                      move: GameMove | BadInput, key: str) -> dict | None:
        """The first answer to a seat's key, when the seat used the key and this is the same request (None: a key the
        seat has not used yet); raises BadInput when the seat used it for another move (service.store.idempotency).
        `move`: this request's move as the game parsed it (a refusal: unparsable, never the same). Keys are the
        seat's own: the same key from another seat is another key."""
        refused = attempts.answers if attempts is not None else {}
        mine = stored_key(seat, key)
        answer = game.answers.get(mine) or refused.get(mine)
        if answer is None:
            return None
        if not same_request(self._first_move(game_id, game, answer, mine), None if isinstance(move, BadInput) else move):
            raise refuse_different()
        replayed = _replayed(answer, seat)
        if replayed.get("attempt"):
            replayed.update(seat_attempt=attempts.seat_attempt(replayed["attempt"]),
                            under=(game.game, dict(game.options)))
        return replayed

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

    def file_dispute(self, game_id: UUID, seat: int, version: int | None, claim: str, attempt: int | None = None) -> dict:
        """A seat disputes the move at a version of the active line, or (`attempt`) the refusal of one of its own
        attempts (the number its refusal answered); returns the dispute. Its shape is FileDispute's (checked there)."""
        def decide(uow: UnitOfWork[Game]) -> dict:
            game = uow.aggregate
            against = version
            if attempt is not None:
                against = self._own_refusal(game_id, seat, attempt, version)
            elif version not in game.move_versions:
                raise BadInput(f"version: no move of the current line of play starts at version {version}", field="version")
            number = game.file_dispute(seat, against, claim, attempt)
            return described(game.disputes[number - 1])

        return self._command(game_id, decide)

    def check_clocks(self, game_id: UUID, now_ms: int) -> list[int]:
        """Record the time flags of a game due at `now_ms` (service.play.clocks); returns their numbers (none: nothing written)."""
        return self._command(game_id, lambda uow: flag_due(uow.aggregate, now_ms))

    def name_player(self, game_id: UUID, seat: int, name: str) -> dict:
        """A seat's name from now on (as NameSeat checked it); returns {seat, name, version}. A finished game is closed:
        Conflict, nothing written."""
        def decide(uow: UnitOfWork[Game]) -> dict:
            game = uow.aggregate
            if game.players[seat]["name"] == name:
                return {"seat": seat, "name": name, "version": game.version}  # nothing to change, nothing written
            if game.outcome.is_over:
                raise Conflict(f"the game is over (version {game.version}): its seats' names are final", field="name")
            game.name_player(seat, name)
            return {"seat": seat, "name": name, "version": game.version}

        return self._command(game_id, decide)

    def _own_refusal(self, game_id: UUID, seat: int, attempt: int, version: int | None) -> int:
        """The game version a seat's own refused attempt met; raises BadInput for any other number (another seat's
        refusals stay secret: they answer exactly as a number never used)."""
        attempts = self.attempts(game_id)
        refused = attempts.refused.get(attempt) if attempts is not None else None
        if refused is None or refused["actor"] != seat_actor(seat):
            raise BadInput(f"attempt: you made no refused attempt numbered {attempt}", field="attempt")
        if version is not None and version != refused["at_version"]:
            raise BadInput(f"version: your attempt {attempt} met version {refused['at_version']}, not {version}", field="version")
        return refused["at_version"]

    def rule_dispute(self, game_id: UUID, number: int, decision: Decision, remedy: Remedy, note: str) -> dict:
        """The referee rules `upheld` or `rejected`, remedy `none` or `rewind` (upheld only), as GiveRuling checked it;
        which dispute, and whether the game still allows the remedy, are checked here."""
        def decide(uow: UnitOfWork[Game]) -> dict:
            game = uow.aggregate
            if not 1 <= number <= len(game.disputes):  # an integer: GiveRuling checked it
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
            return described(game.disputes[number - 1])

        return self._command(game_id, decide)


def _parsed_move(move: RecordMove, seat: int, game: Game) -> GameMove | BadInput:
    """The move parsed by the game's codec (domain.records.parse_move: seat and type, then the game's own fields and
    cards), or the refusal of it, named by the move's own fields (`cards`, not `move.cards`): the refusal is raised
    only after the idempotency key and the expected version were heard, as the game answers them first."""
    try:
        return GameMove(parse_move(move.of_seat(seat), game.setup.n, game.codec))
    except InvalidRecord as e:
        return BadInput(str(e).removeprefix("move."), field=str(e).split(":", 1)[0].removeprefix("move."))


def _now() -> float:
    """The time now (epoch seconds), as the bound on refused attempts reads it against their stored timestamps."""
    return time.time()


def _after_the_end(game: Game, move: GameMove) -> RuleViolation:
    """The refusal of a move sent to a finished game: the rules' own (its clause) when the decider refuses it; raises
    Conflict when it would not (a move the rules allow at any time still finds the game closed)."""
    try:
        game.decider.step(game.state, move, game.chance)  # pure: the game is not changed either way
    except RuleViolation as v:
        return v
    raise Conflict(f"the game is over (version {game.version}): it takes no more moves")


def _replayed(answer: dict, seat: int) -> dict:
    """The answer already given to a request with this idempotency key."""
    if answer["actor"] != seat_actor(seat):
        raise refuse_different()
    if answer["rejected"]:
        return {"rejected": RuleViolation(answer["clause"], answer["reason"]), "attempt": answer.get("attempt")}
    return {"version": None, "first_version": answer["version"], "replayed": True}
