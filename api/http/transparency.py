"""The transparency log's routes (docs/evidence.md, "The transparency log"): the latest published checkpoint and the
log's verifier key (text/plain, in the C2SP signed-note formats), inclusion and consistency proofs in the tree of that
checkpoint, and a receipt turned into a proof bundle. Outside users script against these paths: keep them."""

from __future__ import annotations

import json

from flask import Response
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
