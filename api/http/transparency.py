"""The transparency log's routes (docs/evidence.md, "The transparency log"): the latest published checkpoint and the
log's verifier key (text/plain, in the C2SP signed-note formats), inclusion and consistency proofs in the tree of that
checkpoint, and a receipt turned into a proof bundle. Outside users script against these paths: keep them.

/api/v1/log is also a C2SP tlog-tiles prefix: `checkpoint` and `tile/...` (service.evidence.tiles) are the static
files a mirror copies and a client computes its own proofs from."""

from __future__ import annotations

import gzip
import json

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.current import arbiter
from service.evidence.log_service import game_id
from service.evidence.tlog_proof import from_bundle

from . import evidence_schemas as e
from . import schemas as s

log_blp = Blueprint("transparency", __name__, url_prefix="/api/v1/log",
                    description="The transparency log: signed checkpoints, inclusion and consistency proofs")


def _log():
    return arbiter().evidence.transparency


def _problems(*statuses: int):
    def wrap(f):
        for status in statuses:
            f = log_blp.alt_response(status, schema=s.Problem, content_type="application/problem+json")(f)
        return f
    return wrap


TEXT = {200: {"content": {"text/plain": {"schema": {"type": "string"}}}}}  # the document says what is served


TILE = {200: {"content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
              "headers": {"Cache-Control": {"description": "`public, max-age=31536000, immutable`: a tile's path names "
                                                           "its width, so its bytes never change",
                                            "schema": {"type": "string"}}}}}
IMMUTABLE = "public, max-age=31536000, immutable"
TILE_PATH = {"in": "path", "name": "tile", "required": True,
             "description": "`<L>/<N>[.p/<W>]` (a hash tile of level L) or `entries/<N>[.p/<W>]` (an entry bundle): N "
                            "in groups of three digits, all but the last starting with `x` (1234067 is "
                            "`x001/x234/067`), `.p/<W>` a partial tile of W (1 to 255) hashes or leaves",
             "schema": {"type": "string",
                        "pattern": r"^(entries|0|[1-9][0-9]?)/(x[0-9]{3}/)*[0-9]{3}(\.p/[1-9][0-9]{0,2})?$"}}


def _text(body: str) -> Response:
    return Response(body, mimetype="text/plain", headers={"Cache-Control": "no-cache"})


@log_blp.route("/checkpoint")
class Checkpoint(MethodView):
    @log_blp.response(200, content_type="text/plain",
                      description="A C2SP tlog-checkpoint in the signed-note format, with any witness cosignatures")
    @log_blp.doc(responses=TEXT)
    @_problems(404)
    def get(self):
        """The latest published checkpoint (one is published first when there is none yet)."""
        return _text(_log().checkpoint_text())


@log_blp.route("/tile/<path:tile>")
class Tiles(MethodView):
    @log_blp.response(200, content_type="application/octet-stream",
                      description="A hash tile (its hashes, 32 bytes each) or an entry bundle (each leaf as a 2-byte "
                                  "big-endian length and its bytes); an entry bundle gzip'd for a client that accepts it")
    @log_blp.doc(responses=TILE, parameters=[TILE_PATH])
    @_problems(404, 409)
    def get(self, tile):
        """A C2SP tlog-tiles tile of the latest published checkpoint's tree (https://c2sp.org/tlog-tiles): the tree
        hashes at a level, or the leaves (the checkpoint log's lines); 404 for a path that is not one or a tile the
        published tree does not hold yet."""
        found, body = _log().tile("tile/" + tile)
        response = Response(body, mimetype="application/octet-stream", headers={"Cache-Control": IMMUTABLE})
        if found.level is None:  # entry bundles SHOULD be compressed at the HTTP layer (the spec)
            response.headers["Vary"] = "Accept-Encoding"
            if "gzip" in request.headers.get("Accept-Encoding", "").lower():
                response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
                response.headers["Content-Encoding"] = "gzip"
        return response


@log_blp.route("/key")
class Key(MethodView):
    @log_blp.response(200, content_type="text/plain", description="`<origin>+<key id, 8 hex>+<base64 key>`")
    @log_blp.doc(responses=TEXT)
    @_problems(404)
    def get(self):
        """The log's verifier key in the signed-note text form (the same Ed25519 key as GET /api/v1/keys)."""
        return _text(_log().key_text())


@log_blp.route("/inclusion")
class Inclusion(MethodView):
    @log_blp.arguments(e.InclusionQuery, location="query")
    @log_blp.response(200, e.Inclusion)
    @_problems(404)
    def get(self, query):
        """The RFC 6962 audit path of a game head's leaf in the tree of the latest published checkpoint; 404 names
        the nearest versions of the game that are leaves."""
        return _log().inclusion(game_id(query["game"]), query["version"])


@log_blp.route("/consistency")
class Consistency(MethodView):
    @log_blp.arguments(e.ConsistencyQuery, location="query")
    @log_blp.response(200, e.Consistency)
    @_problems(404)
    def get(self, query):
        """The RFC 6962 proof that the tree of `old` leaves is a prefix of the tree of `new` leaves (`new` at most the
        latest published checkpoint's size)."""
        return _log().consistency(query["old"], query["new"])


TLOG_PROOF = {200: {"content": {"text/plain": {"schema": {
    "type": "string", "description": "with ?format=tlog-proof: a C2SP tlog-proof (https://c2sp.org/tlog-proof)"}}}}}


@log_blp.route("/proofs")
class Proofs(MethodView):
    @log_blp.arguments(e.ReceiptToCheck)
    @log_blp.arguments(e.ProofFormatQuery, location="query")
    @log_blp.response(200, e.ProofBundle)
    @log_blp.doc(responses=TLOG_PROOF)
    @log_blp.alt_response(202, schema=e.ProofPending, description="The leaf is appended or not yet published: ask again")
    @_problems(404, 409)
    def post(self, receipt, query):
        """A receipt turned into a proof once a published checkpoint holds its leaf (`arbiter proof check` verifies
        it offline): the JSON bundle, or with `format=tlog-proof` a C2SP tlog-proof; 202 while the leaf waits for
        the next checkpoint (a leaf is appended for a receipt whose version has none, once the store is found to
        hold what it says)."""
        status, body = _log().proof(receipt)
        if status == 202:  # an answer of its own schema, not the bundle's
            return Response(json.dumps(e.ProofPending().dump(body)), status=202, mimetype="application/json",
                            headers={"Retry-After": str(max(1, round(body["retry_after"])))})
        if query["format"] == "tlog-proof":
            return _text(from_bundle(body).text)
        return body
