"""marshmallow schemas of the evidence routes: receipts, the server's public key, the checkpoint log (docs/evidence.md)."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from .declared import DeclaredInteger, DeclaredString


class Receipt(Schema):
    """The server's signed word that the store held `head` at `version` of `game` at time `at`."""

    format = fields.String(required=True, metadata={"example": "arbiter.receipt/1"})
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    head = fields.String(required=True, metadata={"description": "the game's chain head at that version"})
    at = fields.String(required=True, metadata={"description": "when it was signed (UTC, ISO 8601)"})
    key = fields.String(required=True, metadata={"description": "the signing key's id (GET /api/v1/keys)"})
    signature = fields.String(required=True, metadata={"description": "Ed25519, hex, over the canonical JSON of the other fields"})
    promise = fields.String(metadata={"description": "the log's signed promise (a C2SP signed note, arbiter.promise/1, "
                                                     "under the log's key: GET /api/v1/log/key) that this version is "
                                                     "in a published checkpoint by its `in-log-by` time (the maximum "
                                                     "merge delay); receipts signed before it have none"})


class ReceiptToCheck(Schema):
    """A receipt as kept by its holder (the `Receipt` fields): the service checks it field by field (a malformed one is a
    422 naming the field, a forged one refused), so the fields are declared here and parsed there."""

    class Meta:
        unknown = INCLUDE

    format = DeclaredString(required=True, metadata={"example": "arbiter.receipt/1"})
    game = DeclaredString(required=True, metadata={"description": "the game's id"})
    version = DeclaredInteger(required=True, metadata={"description": "the game's version the receipt was signed at"})
    head = DeclaredString(required=True, metadata={"description": "the game's chain head at that version"})
    at = DeclaredString(required=True, metadata={"description": "when it was signed (UTC, ISO 8601)"})
    key = DeclaredString(required=True, metadata={"description": "the signing key's id (GET /api/v1/keys)"})
    signature = DeclaredString(required=True, metadata={"description": "Ed25519, hex, over the canonical JSON of the "
                                                                        "other fields"})
    promise = DeclaredString(metadata={"description": "the log's signed promise, when the receipt carries one: held "
                                                      "against the published checkpoints"})


class ReceiptCheck(Schema):
    ok = fields.Boolean(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["intact", "truncated", "rewritten", "deleted"]))
    detail = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    receipt = fields.Nested(Receipt, required=True)
    chain = fields.Dict(allow_none=True, metadata={"description": "the whole stored chain checked, beyond the receipt"})
    promise = fields.Nested(lambda: PromiseCheck(), metadata={"description": "the receipt's promise held against the "
                                                                              "published checkpoints, when it has one"})


class PromiseCheck(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["kept", "pending", "broken"]))
    detail = fields.String(required=True)
    line = fields.Integer(allow_none=True, metadata={"description": "the first checkpoint line that covers it"})
    published_at = fields.String(allow_none=True, metadata={"description": "when the first published checkpoint "
                                                                           "holding that line was published"})
    promise = fields.Dict(metadata={"description": "what was promised: game, version, attempts, acknowledged, in_log_by"})


class PublicKey(Schema):
    algorithm = fields.String(required=True, metadata={"example": "Ed25519"})
    key_id = fields.String(required=True)
    public_key = fields.String(required=True, metadata={"description": "the raw 32-byte public key, hex"})
    pem = fields.String(required=True)
    checkpoint_every = fields.Integer(metadata={"description": "a running game is checkpointed every this many versions"})
    mmd_seconds = fields.Float(metadata={"description": "the maximum merge delay: whatever the server acknowledges is "
                                                        "in a published checkpoint within this many seconds"})


class CheckpointQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**53))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    game = fields.String(validate=validate.Length(max=64))


class Checkpoints(Schema):
    log = fields.Dict(required=True, metadata={
        "description": "the log checked: ok, lines, head, broken_at, problem, gone (the runs of lines deleted, altered "
                       "or cut, each with the game and version the line after it names), stopped"})
    checkpoints = fields.List(fields.Dict(), required=True)


# -- the transparency log (docs/evidence.md, "The transparency log") --------------------------------------------

MAX_INDEX = 2**53


class InclusionQuery(Schema):
    game = fields.String(required=True, validate=validate.Regexp(
        r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$",
        error="not a game id (a UUID)"), metadata={"description": "the game's id (a UUID)"})
    version = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_INDEX),
                             metadata={"description": "the game's version whose leaf is asked for"})


class Inclusion(Schema):
    index = fields.Integer(required=True, metadata={"description": "the leaf's index (its checkpoint line's seq - 1)"})
    tree_size = fields.Integer(required=True, metadata={"description": "the size of the latest published checkpoint"})
    leaf = fields.String(required=True, metadata={"description": "base64 of the leaf's bytes: the checkpoint line"})
    proof = fields.List(fields.String(), required=True, metadata={"description": "RFC 6962 audit path, base64 hashes"})


class ConsistencyQuery(Schema):
    old = fields.Integer(required=True, validate=validate.Range(min=0, max=MAX_INDEX))
    new = fields.Integer(required=True, validate=validate.Range(min=0, max=MAX_INDEX))


class Consistency(Schema):
    old = fields.Integer(required=True)
    new = fields.Integer(required=True)
    proof = fields.List(fields.String(), required=True, metadata={"description": "RFC 6962 consistency proof, base64"})


class ProofFormatQuery(Schema):
    format = fields.String(load_default="arbiter.proof/1", validate=validate.OneOf(["arbiter.proof/1", "tlog-proof"]),
                           metadata={"description": "arbiter.proof/1: the JSON bundle; tlog-proof: a C2SP tlog-proof "
                                                    "(text/plain), the leaf's bytes in its extra line"})


class ProofBundle(Schema):
    """A receipt with the proof that its game head is a leaf of a published checkpoint (`arbiter proof check`); for a
    promise kept alone (a refusal's), the promise with the proof of the first leaf that covers it."""

    format = fields.String(required=True, metadata={"example": "arbiter.proof/1"})
    receipt = fields.Nested(Receipt, metadata={"description": "the receipt (every bundle of a receipt)"})
    promise = fields.String(metadata={"description": "the promise (a bundle asked for with a promise kept alone, "
                                                     "`{\"promise\": ...}`, instead of a receipt)"})
    leaf = fields.String(required=True)
    index = fields.Integer(required=True)
    tree_size = fields.Integer(required=True)
    proof = fields.List(fields.String(), required=True)
    checkpoint = fields.String(required=True, metadata={"description": "the signed checkpoint note, with cosignatures"})


class ProofPending(Schema):
    status = fields.String(required=True, metadata={"example": "pending"})
    index = fields.Integer(required=True, metadata={"description": "the receipt's leaf"})
    tree_size = fields.Integer(required=True, metadata={"description": "the latest published checkpoint's size"})
    retry_after = fields.Float(required=True, metadata={"description": "seconds until it is worth asking again"})
    detail = fields.String(required=True)
