"""The seats of one game that its referee offers to anyone (the lobby's "open seats"): an aggregate of its own,
one per game, beside the game and not in its hash chain (an offer changes nothing of the play, the audit or the
record).

An offered seat's token is kept sealed (service/play/seat_offers.py seals it to a key only the server derives), never
in clear: a seat token never enters an event. Taking a seat removes its offer, so one person gets it; the referee can
withdraw an offer; nothing else is recorded.
"""

from __future__ import annotations

import copy
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate


def offers_id(game_id: str) -> UUID:
    """The id of a game's offers (the same for every process: derived from the game's id)."""
    return uuid5(NAMESPACE_URL, f"arbiter:seat-offers:{game_id}")


class SeatOffers(Aggregate):
    """A game's seats on offer: {seat: sealed token}."""

    class Offered(Aggregate.Event):
        seat: int
        sealed: str

        def apply(self, offers: "SeatOffers") -> None:
            offers.sealed = {**offers.sealed, str(self.seat): self.sealed}

    class Taken(Aggregate.Event):
        seat: int

        def apply(self, offers: "SeatOffers") -> None:
            offers.sealed = {k: v for k, v in offers.sealed.items() if k != str(self.seat)}

    class Withdrawn(Taken):
        pass

    @classmethod
    def create_id(cls, game_id: str) -> UUID:
        return offers_id(game_id)

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.sealed: dict[str, str] = {}

    def __deepcopy__(self, memo: dict) -> "SeatOffers":
        new = object.__new__(type(self))
        new.__dict__ = copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_pending_events"}, memo)
        new.__dict__["_pending_events"] = list(self.__dict__.get("_pending_events", []))
        return new

    @property
    def seats(self) -> list[int]:
        """The seats on offer, in order."""
        return sorted(int(s) for s in self.sealed)

    def offer(self, seat: int, sealed: str) -> None:
        self.trigger_event(SeatOffers.Offered, seat=seat, sealed=sealed)

    def take(self, seat: int) -> None:
        self.trigger_event(SeatOffers.Taken, seat=seat)

    def withdraw(self, seat: int) -> None:
        self.trigger_event(SeatOffers.Withdrawn, seat=seat)
