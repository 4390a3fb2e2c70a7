"""The seats of one game that bots play for the server: an aggregate of its own, one per game, beside the game and not
in its hash chain (seating a bot changes nothing of the play, the audit or the record; the bot's moves are the seat's
moves, stored in the game like anyone's).

Recorded so that no host's memory holds them: whichever server process holds the game's lease plays them
(service/play/bot_duty.py). A seat is `Seated` with a bot kind (its own token asked for it) and `Released` with a
reason: the game is over, the seat's own token or the referee took it back, or the bot's moves were refused too
often. A seat the game's end released is seated again if a ruling's rewind reopens the game (`resume`). No token
is kept: the bot plays as the seat through the service, not through a token.
"""

from __future__ import annotations

import copy
from types import MappingProxyType
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

GAME_OVER = "the game is over"
TAKEN_BACK = "the seat's own token took it back"
REFEREE_TOOK_BACK = "the referee took it back"


def bot_seats_id(game_id: str) -> UUID:
    """The id of a game's bot seats (the same for every process: derived from the game's id)."""
    return uuid5(NAMESPACE_URL, f"arbiter:bot-seats:{game_id}")


class BotSeats(Aggregate):
    """A game's seats played by bots: {seat: bot kind}, and those its end released ({seat: bot kind}: `ended`)."""

    ended = MappingProxyType({})  # assigned anew by every event (the default of aggregates stored before it)

    class Seated(Aggregate.Event):
        seat: int
        bot: str

        def apply(self, seats: "BotSeats") -> None:
            seats.bots = {**seats.bots, str(self.seat): self.bot}
            seats.ended = {k: v for k, v in seats.ended.items() if k != str(self.seat)}

    class Released(Aggregate.Event):
        seat: int
        reason: str

        def apply(self, seats: "BotSeats") -> None:
            if self.reason == GAME_OVER and str(self.seat) in seats.bots:  # back if a ruling reopens the game
                seats.ended = {**seats.ended, str(self.seat): seats.bots[str(self.seat)]}
            seats.bots = {k: v for k, v in seats.bots.items() if k != str(self.seat)}

    @classmethod
    def create_id(cls, game_id: str) -> UUID:
        return bot_seats_id(game_id)

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.bots: dict[str, str] = {}

    def __deepcopy__(self, memo: dict) -> "BotSeats":
        new = object.__new__(type(self))
        new.__dict__ = copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_pending_events"}, memo)
        new.__dict__["_pending_events"] = list(self.__dict__.get("_pending_events", []))
        return new

    @property
    def seats(self) -> dict[int, str]:
        """The seats bots play now: {seat: bot kind}, in seat order."""
        return {int(s): self.bots[s] for s in sorted(self.bots, key=int)}

    def seat(self, seat: int, bot: str) -> None:
        """A bot of kind `bot` plays `seat` from now on (the caller checked the seat is not a bot's already)."""
        if str(seat) in self.bots:
            raise ValueError(f"seat {seat} is already played by a bot")
        self.trigger_event(BotSeats.Seated, seat=seat, bot=bot)

    def resume(self) -> list[int]:
        """The bots the game's end released play their seats again (a ruling reopened the game); returns the seats."""
        back = sorted(int(s) for s in self.ended if s not in self.bots)
        for seat in back:
            self.trigger_event(BotSeats.Seated, seat=seat, bot=self.ended[str(seat)])
        return back

    def release(self, seat: int, reason: str) -> None:
        """The bot leaves `seat` (nothing happens for a seat no bot plays)."""
        if str(seat) in self.bots:
            self.trigger_event(BotSeats.Released, seat=seat, reason=reason)
