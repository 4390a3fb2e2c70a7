"""Bots at live tables: a seat handed to a bot that the server plays, recorded in the store (domain/bot_seats.py) and
played by whichever server process holds the game's lease (service/play/bot_duty.py).

Whoever holds a seat's token may hand the seat to a bot (so a person can practise against bots in the browser:
create a game, let bots take the other seats, open your own link), and take it back with the same token; the
referee may take any bot's seat back for its player (its token names the seat). Handing it
over records a `Seated` event in the game's bot seats, an aggregate of its own beside the game (not in its hash
chain: the game's versions, record and audit are the same with or without bots); taking it back records `Released`.
Nothing about the bot lives in the memory of the process that seated it: a restarted server, or another host after
this one died, finds the seat in the store and plays it.

No token is stored. A bot acts as its seat through the play facade's service-level road (`PlayFacade.as_seat`),
which the HTTP layer never calls: the seat's own token was checked once, when the seat was handed over, and the
`Seated` event is that permission. Sealing the token instead (as open seats do) would put a secret in the store that
every host must be able to open, for no gain: the service needs no token to know who a seat is.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from bots import BOT_KINDS
from domain.bot_seats import REFEREE_TOOK_BACK, TAKEN_BACK, BotSeats, bot_seats_id

from service.access import parse_game_id
from service.errors import BadInput, Conflict, Forbidden, NotFound, Unauthorized

T = TypeVar("T")


class SeatedBots:
    """Seat and release bots at a store's games, over a play facade (its store and access)."""

    def __init__(self, play: Any):
        self.play = play
        self.app = play.app

    def load(self, game_id: str) -> BotSeats | None:
        """A game's bot seats as stored (None while no bot was ever seated there)."""
        return self.load_by_id(bot_seats_id(game_id))

    def load_by_id(self, seats_id: UUID) -> BotSeats | None:
        """Bot seats by the aggregate's own id (None for none, or for another aggregate's id)."""
        try:
            seats = self.app.repository.get(seats_id)
        except AggregateNotFoundError:
            return None
        return seats if isinstance(seats, BotSeats) else None

    def seats(self, game_id: str) -> dict[int, str]:
        """The seats bots play at a game now: {seat: bot kind}."""
        seats = self.load(game_id)
        return seats.seats if seats is not None else {}

    def at_games(self, rows: Iterable[dict]) -> dict[str, dict[int, str]]:
        """The seats bots play at the games of catalogue rows in progress, {game id: {seat: bot kind}} (games with
        none left out): one indexed read a game where no bot was ever seated (the lobby lists up to 100 games)."""
        out = {}
        for row in rows:
            if row.get("status") != "in_progress" or not self.app.recorder.select_events(bot_seats_id(row["id"]), limit=1):
                continue
            seats = self.seats(row["id"])
            if seats:
                out[row["id"]] = seats
        return out

    def change(self, game_id: str, decide: Callable[[BotSeats], T]) -> T:
        """Run `decide` on the game's bot seats through the store's unit of work (saved if it recorded anything)."""
        return self.app.command(bot_seats_id(game_id), lambda uow: decide(uow.aggregate),
                                load=lambda seats_id: self.load_by_id(seats_id) or BotSeats(game_id=game_id),
                                what="the game's bot seats")

    def _own_seat(self, game_id: Any, token: str | None) -> tuple[str, int]:
        viewer = self.play.access.viewer(game_id, token)
        if token is None:
            raise Unauthorized("a seat's bearer token is required")
        if viewer.role != "seat":
            raise Forbidden("only a seat's own token may hand the seat to a bot or take it back")
        return str(parse_game_id(game_id)), viewer.seat

    def hand_over(self, game_id: Any, token: str | None, kind: Any) -> dict:
        """Let a bot of `kind` play the token's seat from now on; raises BadInput, Forbidden or Conflict."""
        gid, seat = self._own_seat(game_id, token)
        if kind not in BOT_KINDS:
            raise BadInput(f"bot: unknown bot {kind!r}: expected one of {', '.join(BOT_KINDS)}", field="bot")
        if self.app.game(parse_game_id(gid)).outcome.is_over:
            raise Conflict("the game is over: no bot can play it")

        def body(seats: BotSeats) -> None:
            if seat in seats.seats:
                raise Conflict(f"seat {seat} is already played by a bot")
            seats.seat(seat, kind)

        self.change(gid, body)
        return {"id": gid, "seat": seat, "bot": kind}

    def take_back(self, game_id: Any, token: str | None, seat: Any = None) -> dict:
        """A bot's seat is its player's again (the bot stops before its next move): the token's own seat (`seat` None or
        that seat), or, for the referee's token, the seat named; raises Unauthorized, Forbidden, BadInput, NotFound."""
        viewer = self.play.access.viewer(game_id, token)
        if token is None:
            raise Unauthorized("a seat's or the referee's bearer token is required")
        gid = str(parse_game_id(game_id))
        if viewer.role == "referee" and seat is None:  # as before the referee could take seats back at all
            raise Forbidden("the referee takes a seat back from its bot by naming it (seat), never its own")
        if viewer.role == "referee":
            n = len(self.app.game(parse_game_id(gid)).players)
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise BadInput(f"seat: the referee names the seat to take back, from 0 to {n - 1}", field="seat")
            if not 0 <= seat < n:  # a well-formed seat number this table does not have: no such seat, like no bot
                raise NotFound(f"seat {seat}: this game has no such seat (its seats are 0 to {n - 1})", field="seat")
            reason = REFEREE_TOOK_BACK
        elif viewer.role == "seat" and seat in (None, viewer.seat):
            seat, reason = viewer.seat, TAKEN_BACK
        else:
            raise Forbidden("only a seat's own token, or the referee's, may take a seat back from its bot")

        def body(seats: BotSeats) -> str:
            kind = seats.seats.get(seat)
            if kind is None:
                raise NotFound(f"seat {seat} is not played by a bot")
            seats.release(seat, reason)
            return kind

        kind = self.change(gid, body)
        return {"id": gid, "seat": seat, "bot": kind, "released": True}

    def resume(self, game_id: str) -> list[int]:
        """The bots the game's end released play again (a ruling's rewind reopened it); the seats, or []."""
        if self.load(game_id) is None:
            return []
        return self.change(game_id, lambda seats: seats.resume())

    def release(self, game_id: str, seat: int, reason: str) -> None:
        """A bot leaves its seat (the game is over, its moves were refused too often)."""
        self.change(game_id, lambda seats: seats.release(seat, reason))
