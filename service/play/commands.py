"""The commands a seat or the referee gives a game: one frozen object each, built once where it arrives.

Each road builds the command from what it was given and hands it to the play facade (service.play.facade) with the
caller's token: the JSON API from the request body (`from_body`; the `Idempotency-Key` header is the move's
`idempotency_key`, one name from there on), the pages from a form, a bot seat and the load generator from the bot's
move and the version it saw. The facade first learns who the token is (401/403/404 come before anything about the
command, on every road), then checks the command once, here (`checked`): its shape, its bounds, and for a move that
the seat it names is the token's. What only the game can tell (a stale `expected_version`, a reused key, the move's
own fields and its legality, a dispute's version) is checked by the Referee against the game, and a move's fields
by the game's decider (domain.records.parse_move), once.

A command never holds the token (a credential, not part of what is asked), so printing one shows no secret. The JSON
API's marshmallow schemas document these fields (api/http/schemas.py, the OpenAPI document) and take their bounds
from here; at the HTTP edge they also parse the JSON types of a move's own fields, a dispute, a ruling and a name,
whose error answers are part of the API. A move's `expected_version` and `idempotency_key` are only declared there:
`PlayMove.checked` is their one check on every road (the page's form is made a body and read by `from_body` too).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from domain.players import MAX_NAME

from service.bounds import bounded
from service.errors import BadInput, Forbidden

MAX_IDEMPOTENCY_KEY = 200
MAX_CLAIM = 2000  # a dispute's claim, a ruling's note
DECISIONS = ("upheld", "rejected")
REMEDIES = ("none", "rewind")


@dataclass(frozen=True)
class PlayMove:
    """A seat's move: the record move it plays (`type` and the game's own fields; a `seat`, when named, must be the
    token's), the version the seat decided on (`expected_version`: refused with 409 once the game moved on), and an
    `idempotency_key` (the same move sent again with the same key from the same seat is answered again without
    playing it twice; service.store.idempotency binds the key to its request)."""

    game_id: Any
    move: Any
    expected_version: Any = None
    idempotency_key: Any = None

    @classmethod
    def from_body(cls, game_id: Any, body: Any, idempotency_key: str | None = None) -> "PlayMove":
        """The move a JSON body stands for: everything but `expected_version` and `idempotency_key` is the move.
        `idempotency_key`: the request's `Idempotency-Key` header, used when the body names no key."""
        if not isinstance(body, dict):
            return cls(game_id, body)
        move = {k: v for k, v in body.items() if k not in ("expected_version", "idempotency_key")}
        key = body["idempotency_key"] if "idempotency_key" in body else (idempotency_key or None)
        return cls(game_id, move, body.get("expected_version"), key)

    def as_body(self) -> dict:
        """The JSON body of POST /games/{id}/moves that carries this move (what `from_body` reads back)."""
        extra = {"expected_version": self.expected_version, "idempotency_key": self.idempotency_key}
        return {**self.move, **{k: v for k, v in extra.items() if v is not None}}

    def checked(self, seat: int) -> "PlayMove":
        """This move as the token's `seat` may give it; raises BadInput (or Forbidden: another seat named)."""
        if not isinstance(self.move, dict):
            raise BadInput("a move is a JSON object with a type", field="type")
        bounded(self.move)  # each part within the JSON bounds, by its own name (no body is put together again)
        given = {name: value for name, value in (("expected_version", self.expected_version),
                                                 ("idempotency_key", self.idempotency_key)) if value is not None}
        if given:
            bounded(given)
        if "seat" in self.move and self.move["seat"] != seat:
            raise Forbidden(f"this token acts for seat {seat} only")
        expected = self.expected_version
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise BadInput("expected_version: must be an integer, the version of the view the move was chosen on",
                           field="expected_version")
        key = self.idempotency_key
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY):
            raise BadInput(f"idempotency_key: must be a string of 1 to {MAX_IDEMPOTENCY_KEY} characters",
                           field="idempotency_key")
        return self


@dataclass(frozen=True)
class FileDispute:
    """A seat disputes the move at `version` of the current line of play, or the refusal of its own attempt number
    `attempt` (the `attempt` of that refusal's 422 answer; `version` may then name the version it met)."""

    game_id: Any
    claim: Any
    version: Any = None
    attempt: Any = None

    @classmethod
    def from_body(cls, game_id: Any, body: Any) -> "FileDispute":
        """The dispute a JSON body (`{version, claim}` or `{attempt, claim}`) stands for."""
        body = body if isinstance(body, dict) else {}
        return cls(game_id, body.get("claim"), body.get("version"), body.get("attempt"))

    def checked(self) -> "FileDispute":
        """This dispute if well formed; raises BadInput naming the field."""
        bounded({k: v for k, v in (("version", self.version), ("attempt", self.attempt), ("claim", self.claim))
                 if v is not None})
        if self.attempt is not None:
            if not isinstance(self.attempt, int) or isinstance(self.attempt, bool) or self.attempt < 1:
                raise BadInput("attempt: must be the number of your refused attempt (1 or more)", field="attempt")
        elif not isinstance(self.version, int) or isinstance(self.version, bool):
            raise BadInput("version: must be the integer version of the disputed move", field="version")
        if not isinstance(self.claim, str) or not self.claim.strip() or len(self.claim) > MAX_CLAIM:
            raise BadInput(f"claim: must be a non-empty text of at most {MAX_CLAIM} characters", field="claim")
        return self


@dataclass(frozen=True)
class GiveRuling:
    """The referee's ruling on dispute `number`: `upheld` or `rejected`, remedy `none` or `rewind` (an upheld
    dispute's move and everything after it undone), and a note."""

    game_id: Any
    number: Any
    decision: Any
    remedy: Any = "none"
    note: Any = ""

    @classmethod
    def from_body(cls, game_id: Any, number: Any, body: Any) -> "GiveRuling":
        """The ruling a JSON body (`{decision, remedy?, note?}`) stands for."""
        body = body if isinstance(body, dict) else {}
        return cls(game_id, number, body.get("decision"), body.get("remedy", "none"), body.get("note"))

    def checked(self) -> "GiveRuling":
        """This ruling if well formed (a missing note is empty); raises BadInput naming the field."""
        if self.decision not in DECISIONS:
            raise BadInput("decision: must be 'upheld' or 'rejected'", field="decision")
        if self.remedy not in REMEDIES:
            raise BadInput("remedy: must be 'none' or 'rewind'", field="remedy")
        if self.remedy == "rewind" and self.decision != "upheld":
            raise BadInput("remedy: a rewind needs the dispute upheld", field="remedy")
        note = "" if self.note is None else self.note
        if not isinstance(note, str) or len(note) > MAX_CLAIM:
            raise BadInput(f"note: must be a text of at most {MAX_CLAIM} characters", field="note")
        return replace(self, note=note)


@dataclass(frozen=True)
class NameSeat:
    """A seat gives the name it plays under (shown in every view, log and record from then on)."""

    game_id: Any
    name: Any

    def checked(self) -> "NameSeat":
        """This name without the spaces around it: 1 to MAX_NAME printable characters; raises BadInput."""
        name = self.name.strip() if isinstance(self.name, str) else None
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise BadInput(f"name: must be 1 to {MAX_NAME} printable characters", field="name")
        return replace(self, name=name)
