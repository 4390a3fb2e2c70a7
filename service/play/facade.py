"""Playing games, in simple types: creating and importing them, the commands of seats and referee (moves, disputes,
rulings, names: service.play.commands), a seat handed to a bot, seats offered to anyone (`open_seats`:
service.play.seat_offers), and the watch on time controls.

Every command is answered with the server's signed receipt (service.evidence): what the store held after it.
"""

from __future__ import annotations

import hmac
import logging
import threading
from typing import Any, Callable
from uuid import UUID

from projections.viewers import Viewer
from projections.views import view as view_of

from service.access import Access, parse_game_id
from service.duty import Duty
from service.errors import Forbidden, IllegalMove, NotFound
from service.evidence.facade import Evidence
from service.store.tokens import seat_token, token_hash
from service.verification.checks import check_evidence
from service.views.facade import ViewsFacade

from .bot_duty import BotDuty
from .bot_seats import SeatedBots
from .clocks import ClockWatch
from .asked import Asked
from .commands import FileDispute, GiveRuling, NameSeat, PlayMove
from .new_games import CreateGame, ImportRecord
from .referee import Referee
from .seat_offers import OpenSeats


class PlayFacade:
    """Games created, imported and played: each command checked once (commands.py), then run by the Referee."""

    def __init__(self, app: Referee, access: Access, views: ViewsFacade, evidence: Evidence, duty: Duty | None = None):
        self.app = app
        self.access = access
        self.views = views
        self.evidence = evidence
        # called with a game's id right after a move (through this process) ended it: what runs games in series
        # (service.tournaments.facade) creates the next one at once; a failing listener never fails the move
        self.game_over_listeners: list[Callable[[UUID], None]] = []
        self.bot_seats = SeatedBots(self)  # seats handed to bots, recorded in the store
        self.duty = duty if duty is not None else Duty(app)  # this process's duty loop (service.duty)
        self.bot_duty = BotDuty(self)  # its part that plays the bot seats of the games it holds the lease of
        self.duty.add(self.bot_duty)
        self.open_seats = OpenSeats(self)  # seats a referee offers to anyone (the lobby's list), taken once
        self._clock_watch: ClockWatch | None = None
        self._guard = threading.Lock()

    # -- games come to be --------------------------------------------------------------------

    def create_game(self, command: CreateGame) -> dict:
        """Create a game: its id, each seat's private token, the referee token and the seed's commitment."""
        started = self.app.create_game(command)
        created = _created(started)
        game = started["game"]
        created["receipt"] = self.evidence.answer(game.id, 1, game.version, "created", game.chain_head)
        return created

    def import_record(self, command: ImportRecord) -> dict:
        """Import and verify a record: the new game's id and the contract §2 verdict."""
        started = self.app.import_record(command)
        game = self.app.game(started["game"].id)
        created = _created({**started, "game": game})
        out = {**created, "verdict": verdict_of(game, started["illegal"])}
        out["receipt"] = self.evidence.answer(game.id, 1, game.version, "import", game.chain_head)
        evidence = check_evidence(self.app, game.id)
        if evidence is not None:
            out["evidence"] = evidence
        return out

    def verdict(self, game_id: Any, token: str | None) -> dict:
        """The verdict of an uploaded record's game, read back from the store (the verdict page after the upload's
        redirect: reloading it imports nothing): the game as it stands, and the record's illegal move from the import's
        refusal (`Attempts.Refused.record_move`). The referee's while the game is in progress (the verdict's `final`
        holds every hand), anyone's once it is over; a game that no upload made is a 404."""
        viewer = self.access.viewer(game_id, token)
        gid = parse_game_id(game_id)
        [created] = self.app.read_events(gid, lte=1)
        if getattr(created, "imported", False) is not True:
            raise NotFound(f"game {gid} was not made from an uploaded record", field="game_id")
        game = self.app.game(gid)
        if viewer.role != "referee" and not game.outcome.is_over:
            raise Forbidden("the verdict of a game in progress is its referee's (the browser that uploaded it)")
        refused = [a for a in self.app.stored_attempts(gid) if getattr(a, "record_move", None) is not None]
        illegal = None if not refused else {"move_index": refused[0].record_move, "rule": refused[0].clause,
                                            "reason": refused[0].reason}
        return {"id": str(gid), "verdict": verdict_of(game, illegal)}

    def links(self, game_id: Any, token: str | None) -> dict:
        """The referee's creation answer again (each seat's token, the referee's, the commitment), for the referee
        only; a seat whose token is not derived from the referee's (a game created before they were) has token None."""
        gid = self.access.referee(game_id, token)
        game = self.app.game(gid)
        secret = token.split(".", 1)[1]
        tokens = [seat_token(secret, seat) for seat in range(len(game.players))]
        tokens = [t if hmac.compare_digest(token_hash(t), stored) else None for t, stored in zip(tokens, game.seat_token_hashes)]
        return _created({"game": game, "tokens": tokens, "referee_token": secret})

    # -- commands ----------------------------------------------------------------------------

    def move(self, token: str | None, asked: Asked[PlayMove]) -> dict:
        """A seat's move: the version after it, its events as the seat may see them, whether it was an earlier
        answer given again (`replayed`: the same idempotency key), and the receipt."""
        gid, seat = self.access.seat(asked.game_id, token)
        return self.move_as_seat(gid, seat, asked)

    def as_seat(self, gid: UUID, seat: int) -> "SeatActor":
        """Act as a seat without its token: the service's own road for the bots seated there (service.play.bot_duty),
        whose seat's token was checked when the seat was handed over. The HTTP layer never calls it (a test holds that)."""
        return SeatActor(self, gid, seat)

    def move_as_seat(self, gid: UUID, seat: int, asked: Asked[PlayMove]) -> dict:
        command = asked.checked(seat)  # the move's one check (service.play.moves)
        try:
            result = self.app.submit_move(gid, seat, command.move, command.expected_version, command.idempotency_key)
        except IllegalMove as refusal:  # kept in the attempts stream: checkpointed every `every` refusals
            if refusal.attempt:  # the refusal is kept: its answer carries the log's promise to publish it
                refusal.promise = self.evidence.refused(gid, refusal.attempt)
            raise
        first = result["first_version"]
        last = result["version"]
        if result["replayed"]:  # the same events as the first answer, up to the next move or rejection, from the store
            last = self._move_end(gid, first)
            events = self.views.log_tail(gid, Viewer.of_seat(seat), first - 1, last, ended=False)
            receipt = self.evidence.receipt(gid, last)
        else:  # the events just saved, as the seat may see them (no read of the store)
            events = self.views.log_of(gid, Viewer.of_seat(seat), result["events"], first - 1, ended=False)
            ended = any(e["type"] == "seed_revealed" for e in events)
            receipt = self.evidence.answer(gid, first, last, "end" if ended else None, result["chain_head"])
            if ended:
                self._game_over(gid)
        return {"version": last, "events": events, "replayed": result["replayed"], "receipt": receipt}

    def _game_over(self, gid: UUID) -> None:
        for listener in list(self.game_over_listeners):
            try:
                listener(gid)
            except Exception:  # noqa: BLE001 - the move is stored and answered whatever a listener meets
                logging.getLogger("arbiter").exception("after game %s ended, %r failed", gid, listener)

    def _move_end(self, gid: UUID, first: int) -> int:
        """The version of a move's last event (its own and the automatic ones that followed it)."""
        last = first
        for e in self.app.read_events(gid, gt=first):
            if getattr(e, "actor", "engine") != "engine" or not hasattr(e, "kind"):
                break
            last = e.originator_version
        return last

    def file_dispute(self, token: str | None, asked: Asked[FileDispute]) -> dict:
        """A seat disputes the move at a version, or the refusal of its own attempt: the dispute and the receipt."""
        gid, seat = self.access.seat(asked.game_id, token)
        command = asked.checked()
        dispute = self.app.file_dispute(gid, seat, command.version, command.claim, command.attempt)
        return {**dispute, "receipt": self.evidence.answer(gid, dispute["filed_at"], dispute["filed_at"])}

    def rule(self, token: str | None, asked: Asked[GiveRuling]) -> dict:
        """The referee's ruling on a dispute: the dispute ruled and the receipt."""
        gid = self.access.referee(asked.game_id, token)
        command = asked.checked()
        was_over = self.app.game(gid).outcome.is_over
        dispute = self.app.rule_dispute(gid, command.number, command.decision, command.remedy, command.note)
        if was_over and not self.app.game(gid).outcome.is_over:  # reopened: its bots play again, its clocks run
            if self.bot_seats.resume(str(gid)):
                self.duty.start()
        ruled_at = dispute["ruling"]["ruled_at"]
        last = ruled_at + (1 if dispute["ruling"].get("remedy") == "rewind" else 0)  # a rewind is one more event
        return {**dispute, "receipt": self.evidence.answer(gid, ruled_at, last, "ruling")}

    def name_seat(self, token: str | None, asked: Asked[NameSeat]) -> dict:
        """A seat gives the name it plays under: {seat, name, version}."""
        gid, seat = self.access.seat(asked.game_id, token)
        return self.app.name_player(gid, seat, asked.checked().name)

    # -- seats played by the server ----------------------------------------------------------

    def seat_bot(self, game_id: Any, token: str | None, kind: Any = "heuristic") -> dict:
        """Hand the token's seat to a bot (service.play.bot_seats), recorded and played by whichever process holds the
        game's lease; this process's duty loop runs from now on, if it did not; {id, seat, bot}."""
        seated = self.bot_seats.hand_over(game_id, token, kind)
        self.duty.start()
        return seated

    def unseat_bot(self, game_id: Any, token: str | None, seat: Any = None) -> dict:
        """A seat taken back from its bot: the token's own, or the one the referee names; {id, seat, bot, released}."""
        released = self.bot_seats.take_back(game_id, token, seat)
        self.duty.wake()
        return released

    def bots_at(self, game_id: Any) -> dict[int, str]:
        """The seats bots play at a game now, {seat: bot kind}: public (every page may say a bot plays a seat)."""
        return self.bot_seats.seats(str(parse_game_id(game_id)))

    def bots_of(self, rows: list[dict]) -> dict[str, dict[int, str]]:
        """The seats bots play at the games of catalogue rows in progress: {game id: {seat: bot kind}}."""
        return self.bot_seats.at_games(rows)

    def watch_clocks(self) -> ClockWatch:
        """Start (once) this process's watcher of time controls (service.play.clocks), which flags seats out of time."""
        with self._guard:
            if self._clock_watch is None:
                self._clock_watch = ClockWatch(self.app).start()
        return self._clock_watch


class SeatActor:
    """One seat of one game acted for by the service itself (PlayFacade.as_seat): its view and its moves."""

    def __init__(self, play: PlayFacade, gid: UUID, seat: int):
        self.play, self.gid, self.seat = play, gid, seat

    def view(self) -> dict:
        """The seat's view now, as its token would get it (its legal moves included)."""
        return view_of(self.play.app.game(self.gid), Viewer.of_seat(self.seat))

    def move(self, asked: Asked[PlayMove]) -> dict:
        """The seat's move, answered as PlayFacade.move answers it."""
        return self.play.move_as_seat(self.gid, self.seat, asked)


def _created(started: dict) -> dict:
    """The creation answer of a started game: its id, each seat's token, the referee's, the commitment."""
    game = started["game"]
    prefix = game.id.hex
    seats = [{"seat": i, "name": p["name"], "team": p.get("team"), "token": f"{prefix}.{t}" if t else None}
             for i, (p, t) in enumerate(zip(game.players, started["tokens"]))]
    return {"id": str(game.id), "seats": seats, "referee_token": f"{prefix}.{started['referee_token']}",
            "commitment": game.commitment, "stacked": game.stacked, "version": game.version, "chain_head": game.chain_head}


def verdict_of(game, illegal: dict | None) -> dict:
    """The contract §2 verdict of a stored game."""
    outcome = game.outcome
    status = "illegal" if illegal else ("finished" if outcome.is_over else "in_progress")
    return {"status": status, "moves_applied": game.move_count, "result": outcome.result, "winner": outcome.winner_json(),
            "illegal": illegal, "final": game.decider.final(game.state)}
