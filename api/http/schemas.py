"""marshmallow schemas of the HTTP API (contract §3): they parse request bodies and document requests and responses.

The bodies of the commands (a move, a dispute, a ruling, a name) are parsed here for their JSON types, with the bounds
of service.play.commands, and each route then builds its command (PlayMove, FileDispute, GiveRuling, NameSeat: its
`from_body`, the body marked as read within the JSON bounds by api/http/limits.py), which the service checks once; a type error found here is answered as the API always answered it (422, `errors`).
A move's `expected_version` and `idempotency_key` are only declared here (`Declared`, api/http/declared.py): the command is their one
check, so a key in the body and one in the `Idempotency-Key` header get the same refusal.

Over 300 lines on purpose: the one place the games routes' requests and answers are documented (the OpenAPI
document is made from it); the evidence and tournament routes have their own schema modules.
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from bots import BOT_KINDS
from domain.games import DECIDERS, first_game
from domain.json_limits import MAX_INT
from domain.players import MAX_NAME

from service.bounds import MAX_POSITION
from service.play.commands import DECISIONS, MAX_CLAIM, MAX_IDEMPOTENCY_KEY, REMEDIES

from .declared import DeclaredInteger, DeclaredString
from .evidence_schemas import Receipt

JSON_INT = validate.Range(min=-MAX_INT, max=MAX_INT)  # every JSON integer (domain.json_limits)
POSITION = validate.Range(min=0, max=MAX_POSITION)  # a version, offset or `after` in a query
CARD = fields.String(validate=validate.Length(min=2, max=3), metadata={"example": "TD"})


class Problem(Schema):
    type = fields.String()
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    rule = fields.String(metadata={"description": "the rulebook clause of an illegal move, e.g. ER-3.4"})
    rule_url = fields.String(metadata={"description": "the page of that clause in its rulebook (/rules/<game>#<clause>), "
                                                      "when the rulebook is installed"})
    field = fields.String(metadata={"description": "the request field that is wrong"})
    errors = fields.Dict()
    attempt = fields.Integer(metadata={"description": "an illegal move's attempt number: dispute its refusal with it"})
    seat_attempt = fields.Integer(metadata={"description": "the same refusal's number for its seat (its 1st, 2nd, ...): "
                                                           "the number the pages show"})
    promise = fields.String(metadata={"description": "a kept refusal's acknowledgement: the log's signed promise (a C2SP "
                                                     "signed note, arbiter.promise/1) to publish the game's refused "
                                                     "attempts up to this one within the maximum merge delay "
                                                     "(docs/evidence.md)"})


class Player(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    team = fields.String(allow_none=True, validate=validate.Length(min=1, max=64))


class CreateGame(Schema):
    game = fields.String(required=True, metadata={"example": first_game()})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    players = fields.List(fields.Nested(Player), required=True, validate=validate.Length(min=1, max=16))
    seed = fields.String(allow_none=True, validate=validate.Length(min=2, max=256))
    deck = fields.List(CARD, allow_none=True, validate=validate.Length(max=200))
    dealer = fields.Integer(allow_none=True, strict=True, validate=JSON_INT)
    starter = fields.Integer(allow_none=True, strict=True, validate=JSON_INT)
    outcomes = fields.Dict(keys=fields.String(), allow_none=True)
    spectator_delay = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True, validate=JSON_INT), allow_none=True,
                                  metadata={"description": 'spectators see the game {"moves": N} or {"seconds": S} behind '
                                                           "until it ends (docs/clocks.md)", "example": {"moves": 2}})
    time_control = fields.Dict(keys=fields.String(), allow_none=True,
                               metadata={"description": '{"game_seconds": N} and/or {"move_seconds": M} (integers) and/or '
                                                        '{"start": "first_move" | "created"} (when the clocks start; '
                                                        'without it "created", as before); running out is recorded for '
                                                        "the referee, never applied (docs/clocks.md)",
                                         "example": {"game_seconds": 600, "start": "first_move"}})


class SeatToken(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    team = fields.String(allow_none=True)
    token = fields.String(required=True)
    join_url = fields.String(metadata={"description": "the seat's private link: opens its table in a browser"})


class Created(Schema):
    id = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatToken), required=True)
    referee_token = fields.String(required=True)
    commitment = fields.String(required=True)
    stacked = fields.Boolean()
    version = fields.Integer()
    chain_head = fields.String()
    receipt = fields.Nested(Receipt, metadata={"description": "the server's signed receipt (docs/evidence.md)"})
    referee_join_url = fields.String(metadata={"description": "the referee's private link (the game's links and every hand)"})
    table_url = fields.String(metadata={"description": "the table page for spectators"})


class Move(Schema):
    # the body of a PlayMove (service.play.commands): the record move, expected_version, idempotency_key
    class Meta:
        unknown = INCLUDE  # a game's own move fields (cards, text, target, ...) are checked by its decider

    type = fields.String(required=True, validate=validate.Length(min=1, max=32))
    cards = fields.List(CARD, validate=validate.Length(max=60))
    text = fields.String(validate=validate.Length(max=2000))
    # declared for the OpenAPI document only: PlayMove.checked is their one check, and its refusal the one answered
    expected_version = DeclaredInteger(allow_none=True, metadata={"minimum": -MAX_INT, "maximum": MAX_INT})
    idempotency_key = DeclaredString(allow_none=True, metadata={"minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY})


class Event(Schema):
    prev = fields.String()
    engine_version = fields.String(allow_none=True)
    rewound = fields.Boolean()
    version = fields.Integer(required=True)
    at = fields.String(required=True)
    type = fields.String(required=True)
    actor = fields.String(allow_none=True)
    clause = fields.String(allow_none=True)
    data = fields.Dict()


class MoveResult(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(Event), required=True)
    replayed = fields.Boolean()
    receipt = fields.Nested(Receipt, metadata={"description": "the server's signed receipt (docs/evidence.md)"})


class PlayerSeat(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    team = fields.String(allow_none=True)


class Winner(Schema):
    seats = fields.List(fields.Integer(), required=True)
    team = fields.String(allow_none=True)


class View(Schema):
    """A game as one caller may see it; `table` is the game's own view (docs/api.md)."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    title = fields.String(required=True, metadata={"description": "the game's name, as people say it"})
    options = fields.Dict(required=True)
    players = fields.List(fields.Nested(PlayerSeat), required=True)
    viewer = fields.Dict(required=True)
    version = fields.Integer(required=True)
    chain_head = fields.String(required=True)
    commitment = fields.String(required=True)
    stacked = fields.Boolean(required=True)
    seed = fields.String(metadata={"description": "only once the game has ended and revealed it"})
    status = fields.String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    result = fields.String(allow_none=True)
    winner = fields.Nested(Winner, allow_none=True)
    engine_version = fields.String(required=True)
    disputes = fields.List(fields.Dict(), required=True)
    rewinds = fields.List(fields.Dict(), required=True)
    table = fields.Dict(required=True)
    clock = fields.Dict(metadata={"description": "each seat's thinking time, who is running, the server's time "
                                                 "(docs/clocks.md)"})
    spectator_delay = fields.Dict(allow_none=True, metadata={"description": "the game's spectator delay; in a delayed "
                                                                            "spectator's view also `as_of`"})
    delayed = fields.Boolean(metadata={"description": "true in a spectator's view shown behind the game"})


class Integrity(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(allow_none=True, metadata={"description": "the game's length when it was verified"})
    checked_at = fields.String(required=True)
    problem = fields.String(allow_none=True, metadata={"description": "the first failed check, in words"})


class CatalogueRow(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "the game's options as created (edition, variants, ...)"})
    players = fields.List(fields.Dict(), required=True)
    status = fields.String(required=True)
    result = fields.String(allow_none=True)
    winner = fields.Nested(Winner, allow_none=True)
    scores = fields.List(fields.Integer(), allow_none=True,
                         metadata={"description": "each seat's final score where the game keeps one (chips, points)"})
    created_at = fields.String(allow_none=True)
    finished_at = fields.String(allow_none=True)
    version = fields.Integer(required=True)
    chain_head = fields.String(required=True)
    stacked = fields.Boolean(required=True)
    imported = fields.Boolean(metadata={"description": "made from an uploaded record (POST /records, `arbiter import`); "
                                                       "false for a game stored before this was kept"})
    disputes = fields.Integer(metadata={"description": "how many disputes were filed"})
    open_disputes = fields.Integer(metadata={"description": "how many of them await a ruling"})
    integrity = fields.Nested(Integrity, allow_none=True, metadata={
        "description": "the latest verification's verdict (GET /games/{id}/audit/verify, `arbiter verify`), or null"})


class Audit(Schema):
    id = fields.String(required=True)
    chain_head = fields.String(required=True)
    length = fields.Integer(required=True)
    engine_version = fields.String(required=True)
    entries = fields.List(fields.Dict(), required=True)
    disclosures = fields.List(fields.Dict(), required=True)
    disputes = fields.List(fields.Dict(), required=True)
    rewinds = fields.List(fields.Dict(), required=True)


class Verification(Schema):
    id = fields.String(required=True)
    game = fields.String(allow_none=True)
    ok = fields.Boolean(metadata={"description": "every integrity check passed (provenance is no failure)"})
    chain = fields.Dict(required=True, metadata={"description": "the hash chain and stored rows: ok, length, head, broken_at, "
                                                                "problem, and problems (each damaged row at its version)"})
    deal = fields.Dict(required=True)
    provenance = fields.List(fields.String(), metadata={"description": "how the game was set up where not by arbiter's own "
                                                                      "draw: stacked deck, fixed shuffles, creator's seed"})
    evidence = fields.Dict(metadata={"description": "the game's own evidence check where its spec declares one (commitments made at the table against the revealed seed)"})
    checkpoint = fields.Dict(metadata={"description": "the game held against its latest signed checkpoint (docs/evidence.md)"})


class RecordDocument(Schema):
    format = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.Dict(), required=True)
    seed = fields.String()
    deck = fields.List(fields.String())
    dealer = fields.Integer()
    starter = fields.Integer()
    outcomes = fields.Dict()
    moves = fields.List(fields.Dict(), required=True)
    evidence = fields.Dict(metadata={"description": "an addition to arbiter.record/1: the game's own honesty check once over, where its spec declares one"})


class AfterQuery(Schema):
    after = fields.Integer(load_default=0, validate=POSITION)


class ResumeHeaders(Schema):
    last_event_id = fields.String(data_key="Last-Event-ID", metadata={"description":
        "resume after this version (what a reconnecting EventSource sends): an integer, clamped to 0 to 2^31 - 1; any "
        "other value resumes from the start (docs/api.md, Limits)"})


class VersionQuery(Schema):
    version = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_POSITION))


class VerifyQuery(Schema):
    head = fields.String(validate=validate.Length(equal=64))
    length = fields.Integer(validate=validate.Range(min=1, max=MAX_POSITION))


class CatalogueQuery(Schema):
    status = fields.String(validate=validate.OneOf(["in_progress", "finished"]))
    game = fields.String(validate=validate.OneOf(sorted(DECIDERS)))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=POSITION)
    player = fields.String(validate=validate.Regexp(r"^[^\n\r\x00]{1,64}$", error="must be 1 to 64 characters on one line"),
                           metadata={"description": "only games with a player whose name contains this (any case)"})
    open_disputes = fields.Boolean(metadata={"description": "true: only games with a dispute awaiting a ruling; "
                                                            "false: only games without one"})
    tampered = fields.Boolean(metadata={"description": "true: only games whose latest verification failed; false: the "
                                                       "others (verified intact, or never verified)"})
    order = fields.String(load_default="created", validate=validate.OneOf(["created", "desk"]), metadata={
        "description": "`created` (creation order) or `desk` (games with open disputes first, then the newest)"})


class DisputeRequest(Schema):
    version = fields.Integer(strict=True, validate=JSON_INT,
                             metadata={"description": "the version of the disputed move (required without `attempt`)"})
    attempt = fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_INT), metadata={
        "description": "instead of a move: the number of your own refused attempt (the `attempt` of its 422 answer)"})
    claim = fields.String(required=True, validate=validate.Length(min=1, max=MAX_CLAIM))

    @validates_schema
    def _names_what_is_disputed(self, data, **kwargs):
        if data.get("version") is None and data.get("attempt") is None:
            raise ValidationError("Missing data for required field (or give `attempt`, the number of your refused attempt).",
                                  field_name="version")


class NameRequest(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=MAX_NAME), metadata={"example": "Ann"})


class Named(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True)


class BotRequest(Schema):
    bot = fields.String(load_default="heuristic", validate=validate.OneOf(BOT_KINDS, error="unknown bot '{input}': expected one of {choices}"),
                        metadata={"description": "which bot plays the seat (default heuristic)", "example": "heuristic"})

    class Meta:
        unknown = INCLUDE  # other keys are ignored, as they always were


class BotSeat(Schema):
    id = fields.String(required=True, metadata={"description": "the game"})
    seat = fields.Integer(required=True, metadata={"description": "the seat the bot now plays"})
    bot = fields.String(required=True, metadata={"description": "the bot playing it"})


class BotTakeBack(Schema):
    seat = fields.Integer(validate=validate.Range(min=0, max=MAX_INT), metadata={
        "description": "the referee's token: the seat to take back from its bot (a seat's own token needs none)"})


class BotReleased(BotSeat):
    released = fields.Boolean(required=True, metadata={"description": "the seat is its player's again"})


class RulingRequest(Schema):
    decision = fields.String(required=True, validate=validate.OneOf(list(DECISIONS)))
    remedy = fields.String(load_default="none", validate=validate.OneOf(list(REMEDIES)))
    note = fields.String(load_default="", validate=validate.Length(max=MAX_CLAIM))


class Dispute(Schema):
    filed_at = fields.Integer(metadata={"description": "the version of the dispute's own event"})
    filed_time = fields.String(metadata={"description": "when it was filed (ISO 8601, UTC, server time)"})
    number = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    attempt = fields.Integer(metadata={"description": "the seat's refused attempt under dispute (a dispute of a refusal)"})
    claim = fields.String(required=True)
    ruling = fields.Dict(allow_none=True)
    kind = fields.String(metadata={"description": "`move` (against a move), `refusal` (against a refused attempt) or "
                                                  "`clock` (a time flag the clock filed: `automatic`)"})
    automatic = fields.Boolean(metadata={"description": "true for the clock's flags, which nobody at the table filed"})
    receipt = fields.Nested(Receipt, metadata={"description": "the server's signed receipt (docs/evidence.md)"})


class Imported(Created):
    verdict = fields.Dict(required=True)
    evidence = fields.Dict(metadata={"description": "the game's own honesty check where its spec declares one, once the game is over"})


class Free(Schema):
    """An object whose shape depends on the game (documented in docs/api.md)."""

    class Meta:
        unknown = INCLUDE


class Health(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    engine_version = fields.String(required=True)
    games = fields.List(fields.String(), required=True)
