"""The routes of contract §3: each parses, calls the facade, and returns; errors become problem+json."""

from __future__ import annotations

from flask import request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from service.errors import Unauthorized
from service.play.commands import FileDispute, GiveRuling, NameSeat, PlayMove

from api.current import arbiter
from api.pages.links import with_links

from . import schemas as s
from .fast_dump import compile_dump, json_response
from .positions import Positions, positions_response
from service.play.new_games import CreateGame, ImportRecord

blp = Blueprint("games", __name__, url_prefix="/api/v1", description="Games, moves, views, replays, audits, disputes")
LOCATION = {"Location": {"description": "the new game's address (GET /games/{id})", "schema": {"type": "string"}}}
ERRORS = {401: "Bad or missing token", 403: "Token outside its role or game", 404: "No such game", 422: "Invalid or illegal",
          429: "Too many refused attempts (Retry-After says when to try again)"}
MOVE_RESULT = compile_dump(s.MoveResult())  # a move's answer, as flask-smorest would dump it (api.http.fast_dump)


def bearer() -> str | None:
    """The bearer token of the request, or None (a spectator)."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def errors_of(blueprint, *codes):
    """Document a route's problem+json answers (by status code)."""
    def wrap(f):
        for code in codes:
            f = blueprint.alt_response(code, schema=s.Problem, description=ERRORS.get(code, "error"),
                                       content_type="application/problem+json")(f)
        return f
    return wrap


def _errors(*codes):
    return errors_of(blp, *codes)


@blp.route("/games")
class Games(MethodView):
    @blp.arguments(s.CatalogueQuery(), location="query")
    @blp.response(200, s.CatalogueRow(many=True))
    def get(self, query):
        """The game catalogue: id, game, players, status, winner, version, chain head."""
        return arbiter().lobby.catalogue(**query)

    @blp.arguments(s.CreateGame())
    @blp.response(201, s.Created, headers=LOCATION)
    @_errors(422)
    def post(self, spec):
        """Create a game: each seat's private token and link, the referee's, and the seed's commitment.

        `Location` is the new game's address; `seats[].join_url` and `referee_join_url` are the private links
        that open its table in a browser (GET /join/{id}/{token}), `table_url` the spectators'."""
        created = with_links(arbiter().play.create_game(CreateGame.from_body(spec)))
        return created, 201, {"Location": url_for("games.Game", game_id=created["id"])}


@blp.route("/games/<game_id>")
class Game(MethodView):
    @blp.response(200, s.View)
    @_errors(401, 403, 404)
    def get(self, game_id):
        """The public summary and spectator view (no hidden card)."""
        return arbiter().views.public(game_id, bearer())  # a token, when sent, must be good here too (as on /events)


@blp.route("/games/<game_id>/view")
class GameView(MethodView):
    @blp.response(200, s.View)
    @_errors(401, 403, 404)
    def get(self, game_id):
        """What the token may see now; a seat's view lists its legal moves."""
        return arbiter().views.view(game_id, bearer())


@blp.route("/games/<game_id>/moves")
class Moves(MethodView):
    @blp.arguments(s.Move())
    @blp.response(200, s.MoveResult)
    @_errors(401, 403, 404, 409, 422, 429)
    def post(self, body, game_id):
        """Play a move for the token's seat (record shape minus seat); a finished game takes none (422 with the
        rules' clause, nothing kept), and a seat's refusals past its bound are 429 with Retry-After."""
        command = PlayMove.from_body(game_id, body, request.headers.get("Idempotency-Key"), within_bounds=True)  # api.http.limits
        return json_response(MOVE_RESULT(arbiter().play.move(bearer(), command)))


@blp.route("/games/<game_id>/events")
class Events(MethodView):
    @blp.arguments(s.AfterQuery(), location="query")
    @blp.response(200, s.Event(many=True))
    @_errors(401, 403, 404)
    def get(self, query, game_id):
        """The event log after version `after`, as the caller may see it."""
        return arbiter().views.events(game_id, bearer(), query["after"])


@blp.route("/games/<game_id>/replay")
class Replay(MethodView):
    @blp.arguments(s.VersionQuery(), location="query")
    @blp.response(200, s.View)
    @_errors(401, 403, 404)
    def get(self, query, game_id):
        """The caller's view as it was at a version; without a token, once the game is over, the public replay."""
        return arbiter().views.replay(game_id, bearer(), query["version"])


@blp.route("/games/<game_id>/positions")
class PositionsRoute(MethodView):
    @blp.response(200, Positions)
    @_errors(401, 403, 404)
    def get(self, game_id):
        """Every version's view as GET /replay gives it to the caller, in one compact document (the first view, then
        each version's difference from the one before); gzip'd when the client accepts it. The replay viewer loads it
        once and steps in the browser."""
        return positions_response(arbiter().views.positions(game_id, bearer()))


@blp.route("/games/<game_id>/audit")
class Audit(MethodView):
    @blp.response(200, s.Audit)
    @_errors(401, 403, 404)
    def get(self, game_id):
        """The hash-chained audit log (the referee's; anyone's once the game is over)."""
        return arbiter().views.audit(game_id, bearer())


@blp.route("/games/<game_id>/audit/verify")
class AuditVerify(MethodView):
    @blp.arguments(s.VerifyQuery(), location="query")
    @blp.response(200, s.Verification)
    @_errors(401, 403, 404)
    def get(self, query, game_id):
        """Check the hash chain (optionally against a head you kept) and the fair deal."""
        return arbiter().verification.checks(game_id, bearer(), query.get("head"), query.get("length"))


@blp.route("/games/<game_id>/disputes")
class Disputes(MethodView):
    @blp.arguments(s.DisputeRequest())
    @blp.response(201, s.Dispute)
    @_errors(401, 403, 404, 422)
    def post(self, body, game_id):
        """A seat disputes the move at a version."""
        return arbiter().play.file_dispute(bearer(), FileDispute.from_body(game_id, body, within_bounds=True))


@blp.route("/games/<game_id>/name")
class SeatName(MethodView):
    @blp.arguments(s.NameRequest())
    @blp.response(200, s.Named)
    @_errors(401, 403, 404, 409, 422)
    def post(self, body, game_id):
        """A seat gives the name it plays under (shown in every view, log and record from then on); 409 once the game
        is over."""
        return arbiter().play.name_seat(bearer(), NameSeat.from_body(game_id, body))


@blp.route("/games/<game_id>/disputes/<int:number>/ruling")
class Ruling(MethodView):
    @blp.arguments(s.RulingRequest())
    @blp.response(200, s.Dispute)
    @_errors(401, 403, 404, 409, 422)
    def post(self, body, game_id, number):
        """The referee rules on a dispute; an upheld dispute may rewind the game."""
        return arbiter().play.rule(bearer(), GiveRuling.from_body(game_id, number, body))


@blp.route("/games/<game_id>/record")
class RecordView(MethodView):
    @blp.response(200, s.RecordDocument)
    @_errors(401, 403, 404)
    def get(self, game_id):
        """The game as an arbiter.record/1 document (the referee's; anyone's once over)."""
        return arbiter().views.record(game_id, bearer())


@blp.route("/records")
class Records(MethodView):
    @blp.arguments(s.Free())
    @blp.response(201, s.Imported, headers=LOCATION)
    @_errors(422)
    def post(self, doc):
        """Import and verify a recorded game: its new id (and links, as on POST /games) and the verdict."""
        imported = with_links(arbiter().play.import_record(ImportRecord.from_body(doc)))
        return imported, 201, {"Location": url_for("games.Game", game_id=imported["id"])}


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, s.Health)
    def get(self):
        """Liveness: the rules-engine version and the games this server referees."""
        return arbiter().lobby.health()
