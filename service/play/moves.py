"""A move on its way from a seat to the game: `RecordMove` (what arrived), `GameMove` (what the game's codec made of
it), and `PlayMove`, the command that carries a record move to the referee.

A road builds `PlayMove.from_body(...)` (an `Asked`, service.play.asked) from what it received: the JSON API from the
request body (`within_bounds=True`: its body guard, api/http/limits.py, read the body within the JSON bounds) and the
`Idempotency-Key` header, the pages from a form made a body, a bot seat from the bot's move and the version it saw.
The facade learns who the token is, then `checked(seat)` is the command's one check: the body a JSON object, within
the JSON bounds unless the road read it so (a header key is no part of the body: it is bounded here on every road),
a named seat the token's, `expected_version` an integer, `idempotency_key` a string of 1 to MAX_IDEMPOTENCY_KEY
characters. What only the game can tell (the move's own fields and cards, its legality, a stale version, a reused
key) the referee (service.play.referee) asks the game, parsing the record move once per attempt of the unit of work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NewType
from uuid import UUID

from service.bounds import bounded
from service.errors import BadInput, Forbidden

from .asked import Asked

MAX_IDEMPOTENCY_KEY = 200
BESIDE_THE_MOVE = ("expected_version", "idempotency_key")  # body fields that are the command's, not the move's

GameMove = NewType("GameMove", dict)  # a move as its game's codec parsed it (domain.records.parse_move), seat included


@dataclass(frozen=True)
class RecordMove:
    """A record move as a seat sent it, the seat aside: its `type` and the game's own fields, JSON values within the
    bounds (cards still strings: the game's codec reads them, once, in the referee)."""

    fields: Mapping[str, Any]

    @property
    def type(self) -> Any:
        """The move's type as sent (which types exist is the game's to say)."""
        return self.fields.get("type")

    def of_seat(self, seat: int) -> dict:
        """The record move with its seat, as domain.records.parse_move reads it."""
        return {**self.fields, "seat": seat}


@dataclass(frozen=True)
class PlayMove:
    """A seat's move: the record move it plays, the version the seat decided on (`expected_version`: refused with 409
    once the game moved on), and an `idempotency_key` (the same move sent again with the same key from the same seat
    is answered again without playing it twice; service.store.idempotency binds the key to its request)."""

    game_id: str | UUID
    move: RecordMove
    expected_version: int | None = None
    idempotency_key: str | None = None

    @classmethod
    def from_body(cls, game_id: str | UUID, body: Any, idempotency_key: str | None = None,
                  within_bounds: bool = False) -> Asked["PlayMove"]:
        """The move a JSON body stands for, to be checked: everything but `expected_version` and `idempotency_key` is
        the move. `idempotency_key`: the request's `Idempotency-Key` header, used when the body names no key;
        `within_bounds`: the road read `body` within the JSON bounds already (the JSON API's body guard)."""
        beside = {"idempotency_key": idempotency_key} if idempotency_key else {}
        return Asked(cls, game_id, body, beside, within_bounds)

    @classmethod
    def check(cls, asked: Asked["PlayMove"], seat: int) -> "PlayMove":
        """The move `asked` stands for as the token's `seat` may give it; raises BadInput naming the field (Forbidden:
        another seat named). The one check of a move's shape and bounds, on every road."""
        body = asked.body
        if not isinstance(body, dict):
            raise BadInput("a move is a JSON object with a type", field="type")
        move = {k: v for k, v in body.items() if k not in BESIDE_THE_MOVE}
        expected = body.get("expected_version")
        key = body["idempotency_key"] if "idempotency_key" in body else asked.beside.get("idempotency_key")
        given = {name: value for name, value in zip(BESIDE_THE_MOVE, (expected, key)) if value is not None}
        if not asked.within_bounds:
            bounded(move)  # each part within the JSON bounds, by its own name (no body is put together again)
            if given:
                bounded(given)
        elif "idempotency_key" not in body and key is not None:
            bounded({"idempotency_key": key})  # the header is no part of the body the guard read
        if "seat" in move and move.pop("seat") != seat:
            raise Forbidden(f"this token acts for seat {seat} only")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise BadInput("expected_version: must be an integer, the version of the view the move was chosen on",
                           field="expected_version")
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY):
            raise BadInput(f"idempotency_key: must be a string of 1 to {MAX_IDEMPOTENCY_KEY} characters",
                           field="idempotency_key")
        return cls(asked.game_id, RecordMove(move), expected, key)

    def as_body(self) -> dict:
        """The JSON body of POST /games/{id}/moves that carries this move (what `from_body` reads back)."""
        extra = {"expected_version": self.expected_version, "idempotency_key": self.idempotency_key}
        return {**self.move.fields, **{k: v for k, v in extra.items() if v is not None}}
