"""Open seats: the referee of a game offers a seat to anyone, the lobby lists it, the first person to take it gets
that seat's link (and no other): domain/seat_offers.py records the offers, one aggregate per game.

The server can hand out an offered seat's token only if it keeps it: the offer holds it sealed (AES-GCM) under a
key derived from the server's signing key (service.evidence.keys.ServerKey.derived_secret), bound to the game and
the seat, never in clear. Taking a seat removes its offer in the same save that the version check guards, so two
people pressing "take" at once get it once. A seat that has played a move since it was offered is not listed (its
player is there), nor is a seat of a game that is over.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable, TypeVar
from uuid import UUID

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from eventsourcing.application import AggregateNotFoundError

from domain.seat_offers import SeatOffers, offers_id

from service.access import parse_game_id
from service.errors import BadInput, Conflict, NotFound

T = TypeVar("T")
LABEL = "arbiter open seats"


class OpenSeats:
    """Offer, withdraw, list and take open seats, over a play facade (its store, access and referee links)."""

    def __init__(self, play: Any):
        self.play = play
        self.app = play.app

    # -- sealing -----------------------------------------------------------------------------

    def _aead(self, game_id: str) -> AESGCM:
        secret = self.play.evidence.key.derived_secret(LABEL)
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=f"{LABEL}|{game_id}".encode()).derive(
            bytes.fromhex(secret))
        return AESGCM(key)

    def _seal(self, game_id: str, seat: int, token: str) -> str:
        nonce = os.urandom(12)
        return (nonce + self._aead(game_id).encrypt(nonce, token.encode(), f"{game_id}:{seat}".encode())).hex()

    def _open(self, game_id: str, seat: int, sealed: str) -> str:
        raw = bytes.fromhex(sealed)
        return self._aead(game_id).decrypt(raw[:12], raw[12:], f"{game_id}:{seat}".encode()).decode()

    # -- the aggregate -----------------------------------------------------------------------

    def _load(self, game_id: str) -> SeatOffers | None:
        try:
            offers = self.app.repository.get(offers_id(game_id))
        except AggregateNotFoundError:
            return None
        return offers if isinstance(offers, SeatOffers) else None

    def _change(self, game_id: str, decide: Callable[[SeatOffers], T]) -> T:
        """Run `decide` on the game's offers through the store's unit of work (a new game's offers are not stored
        before their first offer: nothing changed, nothing written)."""
        return self.app.command(offers_id(game_id), lambda uow: decide(uow.aggregate),
                                load=lambda _: self._load(game_id) or SeatOffers(game_id=game_id),
                                what="the game's open seats")

    # -- the referee's side ------------------------------------------------------------------

    def offered(self, game_id: Any, token: str | None) -> list[int]:
        """The seats of a game its referee has on offer."""
        gid = self.play.access.referee(game_id, token)
        offers = self._load(str(gid))
        return offers.seats if offers is not None else []

    def offer(self, game_id: Any, token: str | None, seat: Any) -> list[int]:
        """Offer a seat of a game in progress to anyone (the referee's token); the seats on offer."""
        links = self.play.links(game_id, token)  # the referee's, or 401/403/404
        gid = str(parse_game_id(game_id))
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats:
            raise BadInput(f"seat: must be one of {', '.join(map(str, sorted(seats)))}", field="seat")
        if seats[seat] is None:
            raise Conflict("this seat's link cannot be recomputed, so it cannot be offered")
        if self.app.game(UUID(gid)).outcome.is_over:
            raise Conflict("the game is over: no seat can be offered")

        def body(offers: SeatOffers) -> list[int]:
            if seat not in offers.seats:
                offers.offer(seat, self._seal(gid, seat, seats[seat]))
            return offers.seats

        return self._change(gid, body)

    def withdraw(self, game_id: Any, token: str | None, seat: Any) -> list[int]:
        """Take a seat off offer (the referee's token); the seats still on offer."""
        gid = str(self.play.access.referee(game_id, token))

        def body(offers: SeatOffers) -> list[int]:
            if seat in offers.seats:
                offers.withdraw(seat)
            return offers.seats

        return self._change(gid, body)

    # -- everyone's side ---------------------------------------------------------------------

    def listed(self, rows: Iterable[dict]) -> list[dict]:
        """The open seats among catalogue rows of games in progress: {game_id, game, players, seat, name}, no token."""
        out = []
        for row in rows:
            if row.get("status") != "in_progress":
                continue
            if not self.app.recorder.select_events(offers_id(row["id"]), limit=1):
                continue  # never offered: one indexed read, no aggregate (the lobby asks for up to 100 games)
            offers = self._load(row["id"])
            if offers is None or not offers.seats:
                continue
            game = self.app.game(UUID(row["id"]))
            if game.outcome.is_over:
                continue
            played = {m.get("seat") for m in game.moves}
            for seat in offers.seats:
                if seat not in played:
                    out.append({"game_id": row["id"], "game": row["game"], "players": [p["name"] for p in game.players],
                                "seat": seat, "name": game.players[seat]["name"]})
        return out

    def take(self, game_id: Any, seat: Any) -> str:
        """Take an offered seat: its token, once (the offer is gone after); NotFound if it is not (or no longer) offered."""
        gid = str(parse_game_id(game_id))
        if self.app.game(UUID(gid)).outcome.is_over:
            raise NotFound("this game is over: its seats are no longer offered")

        def body(offers: SeatOffers) -> str | None:
            if not isinstance(seat, int) or seat not in offers.seats:
                return None
            token = self._open(gid, seat, offers.sealed[str(seat)])
            offers.take(seat)
            return token

        token = self._change(gid, body)
        if token is None:
            raise NotFound("this seat is not offered (any more): someone may have taken it")
        return token

