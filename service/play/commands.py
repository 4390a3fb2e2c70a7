"""The commands a seat or the referee gives a game: one frozen, typed object each, checked once from what arrived.

Each road builds the command's `from_body(...)` (an `Asked`, service.play.asked) from what it was given and hands it
to the play facade (service.play.facade) with the caller's token: the JSON API from the request body (its body guard,
api/http/limits.py, read the body within the JSON bounds: `within_bounds=True`), the pages from a form made a body,
a bot seat from the bot's move. The facade first learns who the token is (401/403/404 come before anything about the
command, on every road), then `checked(...)` is the command's one check: its shape, its bounds (unless the road read
the body within them), and for a move that the seat it names is the token's; it gives the typed command, which the
Referee runs without looking again. What only the game can tell (a stale `expected_version`, a reused key, the
move's own fields and cards and its legality, a dispute's version, which disputes exist) the Referee asks the game.

A move's command, `PlayMove`, and its values live in service.play.moves. A command never holds the token (a
credential, not part of what is asked), so printing one shows no secret. The JSON API's marshmallow schemas document
these fields (api/http/schemas.py, the OpenAPI document) and take their bounds from here; at the HTTP edge they also
parse the JSON types of a move's own fields, a dispute, a ruling and a name, whose error answers are part of the API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal
from uuid import UUID

from domain.players import MAX_NAME

from service.bounds import bounded
from service.errors import BadInput, NotFound

from .asked import Asked
from .moves import MAX_IDEMPOTENCY_KEY, GameMove, PlayMove, RecordMove

__all__ = ["DECISIONS", "MAX_CLAIM", "MAX_IDEMPOTENCY_KEY", "REMEDIES", "Asked", "FileDispute", "GameMove",
           "GiveRuling", "NameSeat", "PlayMove", "RecordMove"]

MAX_CLAIM = 2000  # a dispute's claim, a ruling's note
DECISIONS = ("upheld", "rejected")
REMEDIES = ("none", "rewind")
Decision = Literal["upheld", "rejected"]
Remedy = Literal["none", "rewind"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(body: Any) -> dict:
    return body if isinstance(body, dict) else {}


@dataclass(frozen=True)
class FileDispute:
    """A seat disputes the move at `version` of the current line of play, or the refusal of its own attempt number
    `attempt` (the `attempt` of that refusal's 422 answer; `version` may then name the version it met)."""

    game_id: str | UUID
    claim: str
    version: int | None = None
    attempt: int | None = None

    @classmethod
    def from_body(cls, game_id: str | UUID, body: Any, within_bounds: bool = False) -> Asked["FileDispute"]:
        """The dispute a JSON body (`{version, claim}` or `{attempt, claim}`) stands for, to be checked;
        `within_bounds`: the road read `body` within the JSON bounds already (the JSON API's body guard)."""
        return Asked(cls, game_id, body, within_bounds=within_bounds)

    @classmethod
    def check(cls, asked: Asked["FileDispute"]) -> "FileDispute":
        """The dispute `asked` stands for if well formed; raises BadInput naming the field."""
        body = _object(asked.body)
        claim, version, attempt = body.get("claim"), body.get("version"), body.get("attempt")
        if not asked.within_bounds:
            bounded({k: v for k, v in (("version", version), ("attempt", attempt), ("claim", claim)) if v is not None})
        if attempt is not None:
            if not _is_int(attempt) or attempt < 1:
                raise BadInput("attempt: must be the number of your refused attempt (1 or more)", field="attempt")
        elif not _is_int(version):
            raise BadInput("version: must be the integer version of the disputed move", field="version")
        if not isinstance(claim, str) or not claim.strip() or len(claim) > MAX_CLAIM:
            raise BadInput(f"claim: must be a non-empty text of at most {MAX_CLAIM} characters", field="claim")
        return cls(asked.game_id, claim, version, attempt)


@dataclass(frozen=True)
class GiveRuling:
    """The referee's ruling on dispute `number`: `upheld` or `rejected`, remedy `none` or `rewind` (an upheld
    dispute's move and everything after it undone), and a note."""

    game_id: str | UUID
    number: int
    decision: Decision
    remedy: Remedy = "none"
    note: str = ""

    @classmethod
    def from_body(cls, game_id: str | UUID, number: int, body: Any) -> Asked["GiveRuling"]:
        """The ruling a JSON body (`{decision, remedy?, note?}`) on dispute `number` (the path's) stands for."""
        return Asked(cls, game_id, body, {"number": number})

    @classmethod
    def check(cls, asked: Asked["GiveRuling"]) -> "GiveRuling":
        """The ruling `asked` stands for if well formed (a missing note is empty); raises BadInput naming the field
        (NotFound: a dispute number that is no integer, which no game has)."""
        body = _object(asked.body)
        number, decision, remedy = asked.beside.get("number"), body.get("decision"), body.get("remedy", "none")
        if not _is_int(number):
            raise NotFound(f"game {asked.game_id} has no dispute {number}")
        if decision not in DECISIONS:
            raise BadInput("decision: must be 'upheld' or 'rejected'", field="decision")
        if remedy not in REMEDIES:
            raise BadInput("remedy: must be 'none' or 'rewind'", field="remedy")
        if remedy == "rewind" and decision != "upheld":
            raise BadInput("remedy: a rewind needs the dispute upheld", field="remedy")
        note = "" if body.get("note") is None else body["note"]
        if not isinstance(note, str) or len(note) > MAX_CLAIM:
            raise BadInput(f"note: must be a text of at most {MAX_CLAIM} characters", field="note")
        return cls(asked.game_id, number, decision, remedy, note)


@dataclass(frozen=True)
class NameSeat:
    """A seat gives the name it plays under (shown in every view, log and record from then on)."""

    game_id: str | UUID
    name: str

    @classmethod
    def from_body(cls, game_id: str | UUID, body: Any) -> Asked["NameSeat"]:
        """The name a JSON body (`{name}`, or a form made one) stands for, to be checked."""
        return Asked(cls, game_id, body)

    @classmethod
    def check(cls, asked: Asked["NameSeat"]) -> "NameSeat":
        """The name without the spaces around it: 1 to MAX_NAME printable characters; raises BadInput."""
        name = _object(asked.body).get("name")
        name = name.strip() if isinstance(name, str) else None
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise BadInput(f"name: must be 1 to {MAX_NAME} printable characters", field="name")
        return cls(asked.game_id, name)
