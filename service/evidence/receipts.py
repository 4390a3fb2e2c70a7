"""Receipts: the server's signed word that a game's store held chain head `head` at `version`, and their check.

A receipt holds only the game id, the version, the chain head, the time and the signature (no card,
no token), in canonical JSON (service.evidence.keys, docs/evidence.md):

    {"at":"2025-05-01T12:00:00.000000+00:00","format":"arbiter.receipt/1","game":"<uuid>",
     "head":"<64 hex>","key":"<key id>","promise":"<signed note>","signature":"<128 hex>","version":42}

`promise` (added; receipts signed before it have none) is the log's promise to publish the version within the maximum
merge delay (service.evidence.promises), covered by the receipt's signature too.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from domain.audit import verify_chain

from service.errors import BadInput, NotFound, ServiceError
from service.store.application import Store
from service.verification.checks import check_chain

from .checkpoints import now
from .keys import PublicKey, ServerKey

FORMAT = "arbiter.receipt/1"
FIELDS = {"format": str, "game": str, "version": int, "head": str, "at": str, "key": str, "signature": str}
MAX_VERSION = 2**53  # beyond any game, and within every store's integer column
OPTIONAL = {"promise": 4096}  # fields a receipt may carry, with their longest length
HEX64 = re.compile(r"[0-9a-f]{64}")


class ForgedReceipt(ServiceError):
    """A receipt whose signature does not verify under this server's key: refused."""

    status = 422
    title = "Forged receipt"


def gone(first: int, last: int) -> str:
    """Which versions are gone, in words."""
    return f"version {first} is gone" if first == last else f"versions {first} to {last} are gone"


def issue(key: ServerKey, game_id: UUID, version: int, head: str, promise: str | None = None) -> dict:
    """A signed receipt: the store holds chain head `head` at `version` of the game, now (with the log's `promise`)."""
    doc = {"format": FORMAT, "game": str(game_id), "version": version, "head": head, "at": now()}
    return key.sign({**doc, "promise": promise} if promise is not None else doc)


def parse(doc: Any) -> dict:
    """A receipt's shape checked (exactly its fields, each of its type); raises BadInput naming the field."""
    if not isinstance(doc, dict):
        raise BadInput("a receipt is a JSON object with " + ", ".join(FIELDS), field="receipt")
    missing = [name for name in FIELDS if name not in doc]
    if missing:
        raise BadInput(f"{missing[0]}: a receipt needs this field", field=missing[0])
    extra = sorted(set(doc) - set(FIELDS) - set(OPTIONAL))
    if extra:
        raise BadInput(f"{extra[0]}: not a field of a receipt (a receipt has exactly {', '.join(FIELDS)}, and may "
                       f"have {', '.join(OPTIONAL)})", field=extra[0])
    for name, longest in OPTIONAL.items():
        if name in doc and (not isinstance(doc[name], str) or len(doc[name]) > longest):
            raise BadInput(f"{name}: must be a string of at most {longest} characters", field=name)
    for name, kind in FIELDS.items():
        value = doc[name]
        if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and len(value) > 200):
            raise BadInput(f"{name}: must be {'an integer' if kind is int else 'a string of at most 200 characters'}",
                           field=name)
    if doc["format"] != FORMAT:
        raise BadInput(f"format: must be {FORMAT}", field="format")
    if not HEX64.fullmatch(doc["head"]):
        raise BadInput("head: must be a chain head (64 lower-case hex digits)", field="head")
    if not 1 <= doc["version"] <= MAX_VERSION:
        raise BadInput(f"version: must be from 1 to {MAX_VERSION}", field="version")
    try:
        UUID(doc["game"])
    except ValueError:
        raise BadInput("game: must be a game id", field="game") from None
    return doc


def verify(app: Store, key: PublicKey | None, doc: Any) -> dict:
    """Does the store still hold what the receipt says? Raises BadInput (malformed), ForgedReceipt (bad signature).

    Returns {ok, status, detail, receipt, chain}: status `intact`, `truncated` (the store ends before the
    receipt's version), `rewritten` (another head at that version, or the chain breaks before it) or
    `deleted` (the store holds no event of the game).
    """
    receipt = parse(doc)
    if key is None:
        raise NotFound("this server has no signing key yet: it never signed a receipt")
    problem = key.signature_problem(receipt)
    if problem:
        raise ForgedReceipt(f"receipt refused: {problem}", field="signature")
    game, version, head = UUID(receipt["game"]), receipt["version"], receipt["head"]
    out = {"receipt": receipt, "game": str(game), "version": version}
    rows = app.recorder.select_events(game, lte=version)
    if not rows:
        return {**out, "ok": False, "status": "deleted", "chain": None,
                "detail": f"deleted: the store holds no event of game {game}, but the server signed its version {version} "
                          f"with head {head} at {receipt['at']}"}
    events = []
    for row in rows:
        try:
            events.append(app.mapper.to_domain_event(row))
        except Exception as e:  # a row that no longer decodes is a rewrite too
            return {**out, "ok": False, "status": "rewritten", "chain": None,
                    "detail": f"rewritten: stored event {row.originator_version} cannot be read ({type(e).__name__})"}
    up_to = verify_chain(events, head, version)
    out["chain"] = check_chain(app, game)  # the whole stored chain, beyond the receipt too
    if up_to.ok:
        return {**out, "ok": True, "status": "intact",
                "detail": f"intact: the store holds head {head} at version {version} (it is now at version "
                          f"{out['chain']['length']})"}
    if len(events) < version and up_to.broken_at == len(events) + 1:
        return {**out, "ok": False, "status": "truncated",
                "detail": f"truncated: the store ends at version {len(events)}, but the server signed version {version} "
                          f"at {receipt['at']}: {gone(len(events) + 1, version)}"}
    return {**out, "ok": False, "status": "rewritten",
            "detail": f"rewritten: the store no longer holds head {head} at version {version}: "
                      f"at version {up_to.broken_at}, {up_to.problem}"}
