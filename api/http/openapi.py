"""What the OpenAPI document says beyond each route's schemas, written once: who may call each operation, the statuses
every route can answer whatever it does, the `Idempotency-Key` header, and every game's typed moves and legal moves.

`ContractPlugin` is an apispec plugin (flask-smorest's `extra_plugins`): as each route enters the document it gets
- `security`: the tokens it takes, as the document's bearer schemes (`seatToken`, `refereeToken`, `directorToken`;
  `{}` among them: callable without a token too). All three travel as `Authorization: Bearer <token>`; a token's
  kind is the server's to know, the scheme says which one the operation reads. WHO is the table of them, the
  contract's "who" column; tests/unit/test_openapi_document.py holds every operation to having a row;
- the statuses the app answers before any route runs: 400 (a body that is not JSON) and 413 (a body over 256 KiB) on
  every POST (api/http/limits.py), 429 with Retry-After where a route can be busy, and 409 on every route that
  writes through the unit of work (its retries can run out);
- the `Idempotency-Key` header on a move.
`typed(spec)` then puts the games' move schemas in (api/http/game_moves.py): `Move`, `StudyMove` and the view's
`table.legal_moves` become unions of each game's typed moves.
"""

from __future__ import annotations

from apispec import BasePlugin

from service.play.commands import MAX_IDEMPOTENCY_KEY

from . import game_moves
from .stream import STREAM_MESSAGE

SEAT, REFEREE, DIRECTOR, ANYONE = "seatToken", "refereeToken", "directorToken", ""
SCHEMES = {
    SEAT: "a seat's token (POST /games answers one per seat): acts for that seat only and sees what it may see",
    REFEREE: "the game's referee token (POST /games answers it): sees everything, rules on disputes",
    DIRECTOR: "a tournament's director token (POST /tournaments answers it, once): enters players, starts rounds, "
              "reads every game's links",
}
WHO = {  # "METHOD path" (under /api/v1): the tokens it takes; ANYONE: no token needed (a token sent must be good)
    "GET /games": (ANYONE,), "POST /games": (ANYONE,), "POST /records": (ANYONE,), "GET /health": (ANYONE,),
    "GET /games/{game_id}": (ANYONE, SEAT, REFEREE),
    "GET /games/{game_id}/view": (SEAT, REFEREE),
    "POST /games/{game_id}/moves": (SEAT,),
    "GET /games/{game_id}/events": (ANYONE, SEAT, REFEREE),
    "GET /games/{game_id}/stream": (ANYONE, SEAT, REFEREE),
    "GET /games/{game_id}/replay": (SEAT, REFEREE, ANYONE),  # no token: once the game is over
    "GET /games/{game_id}/positions": (SEAT, REFEREE, ANYONE),  # no token: once the game is over
    "GET /games/{game_id}/audit": (REFEREE, ANYONE),  # anyone once the game is over
    "GET /games/{game_id}/audit/verify": (ANYONE, SEAT, REFEREE),
    "GET /games/{game_id}/record": (REFEREE, ANYONE),  # anyone once the game is over
    "POST /games/{game_id}/disputes": (SEAT,),
    "POST /games/{game_id}/disputes/{number}/ruling": (REFEREE,),
    "POST /games/{game_id}/name": (SEAT,),
    "POST /games/{game_id}/bot": (SEAT,), "DELETE /games/{game_id}/bot": (SEAT, REFEREE),  # the referee names the seat
    "POST /games/{game_id}/analysis": (REFEREE, SEAT, ANYONE),  # a seat its own decisions, anyone once over
    "GET /games/{game_id}/analysis/{job_id}": (REFEREE, SEAT, ANYONE),
    "DELETE /games/{game_id}/analysis/{job_id}": (REFEREE, SEAT, ANYONE),  # whoever started it, or the referee
    "POST /games/{game_id}/studies": (REFEREE, SEAT, ANYONE),  # a seat or anyone once the game is over
    "GET /studies/{study_id}": (REFEREE, SEAT, ANYONE),
    "POST /studies/{study_id}/moves": (REFEREE, SEAT, ANYONE),
    "GET /studies/{study_id}/nodes/{node}": (REFEREE, SEAT, ANYONE),
    "POST /studies/{study_id}/nodes/{node}/moves": (REFEREE, SEAT, ANYONE),
    "POST /studies/{study_id}/comments": (REFEREE, SEAT),
    "GET /keys": (ANYONE,), "POST /receipts/verify": (ANYONE,), "GET /checkpoints": (ANYONE,),
    "GET /log/checkpoint": (ANYONE,), "GET /log/key": (ANYONE,), "GET /log/inclusion": (ANYONE,),
    "GET /log/consistency": (ANYONE,), "POST /log/proofs": (ANYONE,), "GET /log/tile/{tile}": (ANYONE,),
    "GET /tournaments": (ANYONE,), "POST /tournaments": (ANYONE,), "GET /tournaments/{tournament_id}": (ANYONE,),
    "PATCH /tournaments/{tournament_id}": (DIRECTOR,), "DELETE /tournaments/{tournament_id}": (DIRECTOR,),
    "GET /tournaments/{tournament_id}/standings": (ANYONE,),
    "POST /tournaments/{tournament_id}/players": (DIRECTOR,),
    "POST /tournaments/{tournament_id}/rounds": (DIRECTOR,),
    "POST /tournaments/{tournament_id}/rounds/{number}/review": (DIRECTOR,),
    "POST /tournaments/{tournament_id}/boards/{board}/release": (DIRECTOR,),
    "GET /tournaments/{tournament_id}/links": (DIRECTOR,),
    "GET /tournaments/{tournament_id}/bundle": (DIRECTOR, ANYONE),  # anyone once the tournament is over
    "POST /tournaments/{tournament_id}/fairplay": (DIRECTOR,),  # referee only: every card of the games
    "GET /tournaments/{tournament_id}/fairplay": (DIRECTOR,),
    "DELETE /tournaments/{tournament_id}/fairplay": (DIRECTOR,),
}
PREFIX = "/api/v1"
PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before asking again", "schema": {"type": "integer"}}}
BEFORE_THE_ROUTE = {  # answered for any body, before the route reads it (api/http/limits.py)
    400: {"description": "Malformed JSON: the body is not JSON (RFC 8259)", "content": PROBLEM},
    413: {"description": "Content too large: the body is over 256 KiB", "content": PROBLEM},
    415: {"description": "Unsupported Media Type: the body came under a Content-Type other than JSON (or none)",
          "content": PROBLEM},
}
BUSY = {429: {"description": "Too many requests: ask again after Retry-After seconds", "content": PROBLEM,
                "headers": RETRY_AFTER}}
BUSY_ROUTES = {"POST /games/{game_id}/moves", "POST /games/{game_id}/name", "POST /games/{game_id}/disputes"}
CONTENDED = {409: {"description": "Conflict: the game (study, tournament) kept changing under the request and the "
                                  "retries ran out, nothing changed: try again (service/store/unit_of_work.py)",
                   "content": PROBLEM}}
COMMAND_ROUTES = {  # the routes that write through the unit of work (store.command): each can answer CONTENDED
    "POST /games/{game_id}/moves", "POST /games/{game_id}/disputes", "POST /games/{game_id}/name",
    "POST /games/{game_id}/disputes/{number}/ruling", "POST /games/{game_id}/bot", "DELETE /games/{game_id}/bot",
    "POST /studies/{study_id}/moves", "POST /studies/{study_id}/comments", "POST /studies/{study_id}/nodes/{node}/moves",
    "POST /tournaments/{tournament_id}/players", "POST /tournaments/{tournament_id}/rounds",
    "POST /tournaments/{tournament_id}/rounds/{number}/review", "PATCH /tournaments/{tournament_id}",
    "DELETE /tournaments/{tournament_id}", "POST /tournaments/{tournament_id}/boards/{board}/release"}
IDEMPOTENCY_KEY = {"in": "header", "name": "Idempotency-Key", "required": False,
                   "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
                   "description": "a retried move gets the first answer again, never a second move (docs/api.md, "
                                  "\"Idempotency keys\"); `idempotency_key` in the body wins over it"}


def security(tokens: tuple[str, ...]) -> list[dict]:
    """An operation's `security`: one requirement per token it takes, `{}` for no token."""
    return [{token: []} if token else {} for token in tokens]


class ContractPlugin(BasePlugin):
    """Security, the statuses answered before any route and the idempotency header, as each route enters the document."""

    def init_spec(self, spec) -> None:
        self.spec = spec
        spec.components.schema("StreamMessage", STREAM_MESSAGE)
        for name, description in SCHEMES.items():
            spec.components.security_scheme(name, {"type": "http", "scheme": "bearer", "description": description})

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for method, operation in (operations or {}).items():
            key = f"{method.upper()} {(path or '').removeprefix(PREFIX)}"
            if key in WHO:
                operation["security"] = security(WHO[key])
            responses = operation.setdefault("responses", {})
            extra = {**(BEFORE_THE_ROUTE if method.lower() in ("post", "put", "patch") else {}),
                     **(BUSY if key in BUSY_ROUTES else {}), **(CONTENDED if key in COMMAND_ROUTES else {})}
            for status, response in extra.items():
                if status not in responses and str(status) not in responses:
                    responses[status] = response
            busy = responses.get(429, responses.get("429"))
            if busy is not None and key in BUSY_ROUTES:  # a route's own 429 says when to ask again too
                busy.setdefault("headers", RETRY_AFTER)
            if key == "POST /games/{game_id}/moves":
                operation.setdefault("parameters", []).append(dict(IDEMPOTENCY_KEY))


def typed(spec) -> None:
    """Every game's moves in the document (api/http/game_moves.py): `Move` and `StudyMove` (the bodies' schemas,
    free-form objects before) become unions of each game's typed moves, and the view's `table` lists typed legal moves."""
    schemas = spec.components.schemas
    moves = game_moves.components()
    for name, schema in moves.items():
        if not name.startswith("Any"):
            schemas[name] = schema
    schemas["Move"], schemas["StudyMove"] = moves["AnyMove"], moves["AnyStudyMove"]
    schemas["GameTable"] = game_moves.table_schema()
    view = schemas["View"]["properties"]
    view["table"] = {"$ref": "#/components/schemas/GameTable"}
