"""The evidence routes: the server's public key, a receipt checked against the store, the checkpoint log."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api.current import arbiter

from . import evidence_schemas as e
from . import schemas as s

evidence_blp = Blueprint("evidence", __name__, url_prefix="/api/v1",
                         description="Evidence kept outside the event store: signing key, receipts, checkpoints")


@evidence_blp.route("/keys")
class Keys(MethodView):
    @evidence_blp.response(200, e.PublicKey)
    def get(self):
        """The server's Ed25519 public key: receipts and checkpoints verify under it."""
        return arbiter().evidence.public_key()


@evidence_blp.route("/receipts/verify")
class ReceiptVerify(MethodView):
    @evidence_blp.arguments(e.ReceiptToCheck)
    @evidence_blp.response(200, e.ReceiptCheck)
    @evidence_blp.alt_response(422, schema=s.Problem, description="A malformed receipt, or a forged one (refused)",
                               content_type="application/problem+json")
    def post(self, receipt):
        """Does the store still hold what a receipt says? intact, truncated, rewritten or deleted."""
        return arbiter().evidence.verify_receipt(receipt)


@evidence_blp.route("/checkpoints")
class Checkpoints(MethodView):
    @evidence_blp.arguments(e.CheckpointQuery, location="query")
    @evidence_blp.response(200, e.Checkpoints)
    def get(self, query):
        """The signed checkpoint log after line `after` (optionally one game's), and the log's own check."""
        facade = arbiter()
        log = {k: v for k, v in facade.evidence.log_report().items() if k not in ("path", "exists")}  # no server path
        return {"log": log, "checkpoints": facade.evidence.checkpoints(**query)}
