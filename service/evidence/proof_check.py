"""A proof bundle (`arbiter.proof/1`, POST /api/v1/log/proofs) checked offline: no store, no network, only the log's
verifier key (and the witnesses' keys a checker demands). Each check is named; the first that fails says what is wrong.

    receipt      the receipt's shape, and its signature under the log's key (the same Ed25519 key)
    promise      (a bundle of a promise kept alone, a refusal's: `promise` instead of `receipt`) the promise's note
                 signed by the log's key under its origin (service.evidence.promises)
    leaf         the leaf is a checkpoint line of the receipt's game, version and head (of a promise: of its game,
                 at its version or later, with its refused attempts or more), signed by that key
    checkpoint   the checkpoint note is signed by the log's key under its origin, and its tree size is the bundle's
    inclusion    the audit path leads from the leaf to the checkpoint's root
    witnesses    at least `quorum` of the named witnesses cosigned the checkpoint
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain import json_limits
from service.errors import ServiceError

from . import merkle, receipts
from .checkpoints import FIELDS_OF
from .keys import PublicKey
from .signed_notes import COSIGNATURE, ED25519, NoteError, Verifier, open_note
from .tree_heads import TreeHead

BUNDLE = "arbiter.proof/1"
FIELDS = {"format": str, "receipt": dict, "leaf": str, "index": int, "tree_size": int, "proof": list, "checkpoint": str}


class BundleProblem(ValueError):
    """A bundle that does not prove what it claims: `check` names which check failed, `detail` why."""

    def __init__(self, check: str, detail: str):
        super().__init__(f"{check}: {detail}")
        self.check, self.detail = check, detail


def _b64(text: Any, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError, TypeError):
        raise BundleProblem("bundle", f"{what} is not base64") from None


def check_bundle(bundle: Any, log_key: Verifier, witnesses: list[Verifier] = (), quorum: int = 0) -> list[str]:
    """The checks passed, in order (each a sentence); raises BundleProblem at the first that fails."""
    if not isinstance(bundle, dict) or bundle.get("format") != BUNDLE:
        raise BundleProblem("bundle", f"not a proof bundle (a JSON object of format {BUNDLE})")
    if "receipt" not in bundle and "promise" in bundle:
        return _check_promise_bundle(bundle, log_key, witnesses, quorum)
    for name, kind in FIELDS.items():
        if not isinstance(bundle.get(name), kind) or isinstance(bundle.get(name), bool):
            raise BundleProblem("bundle", f"{name} is missing or not {kind.__name__}")
    if log_key.algorithm != ED25519:
        raise BundleProblem("key", "the log's key must be an Ed25519 signed-note key (algorithm 0x01)")
    passed = []
    key = PublicKey(Ed25519PublicKey.from_public_bytes(log_key.public))
    try:
        receipt = receipts.parse(bundle["receipt"])
    except ServiceError as e:
        raise BundleProblem("receipt", e.detail) from None
    problem = key.signature_problem(receipt)
    if problem:
        raise BundleProblem("receipt", f"its signature does not hold under the log's key: {problem}")
    passed.append(f"receipt: signed by key {key.id} (game {receipt['game']}, version {receipt['version']})")

    leaf = _b64(bundle["leaf"], "leaf")
    try:
        line = json_limits.read_document(leaf)
    except ValueError as e:  # not JSON, or outside the JSON bounds (a stranger's bundle)
        raise BundleProblem("leaf", f"the leaf is not a checkpoint line ({e})") from None
    if not isinstance(line, dict) or line.get("format") not in FIELDS_OF:
        raise BundleProblem("leaf", "the leaf is not a checkpoint line")
    for name in ("game", "version", "head"):
        if line.get(name) != receipt[name]:
            raise BundleProblem("leaf", f"the leaf's {name} is {str(line.get(name))[:70]!r}, the receipt's "
                                        f"{str(receipt[name])[:70]!r}: it is not the receipt's game head")
    problem = key.signature_problem(line)
    if problem:
        raise BundleProblem("leaf", f"the leaf's line signature does not hold: {problem}")
    passed.append(f"leaf: checkpoint line {line.get('seq')} signs the receipt's game, version and head")
    return passed + _check_tree(bundle, leaf, log_key, witnesses, quorum)


def _check_promise_bundle(bundle: dict, log_key: Verifier, witnesses: list[Verifier], quorum: int) -> list[str]:
    """A promise's bundle: the promise signed by the log, the leaf covering it, then the tree's checks."""
    from . import promises

    fields = {**{k: v for k, v in FIELDS.items() if k != "receipt"}, "promise": str}
    for name, kind in fields.items():
        if not isinstance(bundle.get(name), kind) or isinstance(bundle.get(name), bool):
            raise BundleProblem("bundle", f"{name} is missing or not {kind.__name__}")
    try:
        promise = promises.read(bundle["promise"], log_key)
    except ServiceError as e:
        raise BundleProblem("promise", e.detail) from None
    passed = [f"promise: signed by {log_key.name} (game {promise.game}, version {promise.version}, "
              f"{promise.attempts} refused attempt(s), in the log by {promise.by.isoformat()})"]
    leaf = _b64(bundle["leaf"], "leaf")
    try:
        line = json_limits.read_document(leaf)
    except ValueError as e:
        raise BundleProblem("leaf", f"the leaf is not a checkpoint line ({e})") from None
    if not isinstance(line, dict) or line.get("format") not in FIELDS_OF or not promises.covers(line, promise):
        raise BundleProblem("leaf", "the leaf is not a checkpoint line of the promise's game at its version or later "
                                    "with its refused attempts or more")
    problem = PublicKey(Ed25519PublicKey.from_public_bytes(log_key.public)).signature_problem(line)
    if problem:
        raise BundleProblem("leaf", f"the leaf's line signature does not hold: {problem}")
    passed.append(f"leaf: checkpoint line {line.get('seq')} covers the promise")
    return passed + _check_tree(bundle, leaf, log_key, witnesses, quorum)


def _check_tree(bundle: dict, leaf: bytes, log_key: Verifier, witnesses: list[Verifier], quorum: int) -> list[str]:
    """The checkpoint, the leaf's inclusion in its tree and the witnesses' cosignatures."""
    passed = []
    try:
        note = open_note(bundle["checkpoint"], [log_key, *witnesses])
        head = TreeHead.parse(note.text)
    except NoteError as e:
        raise BundleProblem("checkpoint", str(e)) from None
    if not note.signed_by(log_key.name) or head.origin != log_key.name:
        raise BundleProblem("checkpoint", f"the checkpoint is not signed by the log {log_key.name} under its origin "
                                          f"(its origin line: {head.origin[:80]!r})")
    if head.size != bundle["tree_size"]:
        raise BundleProblem("checkpoint", f"the bundle says tree size {bundle['tree_size']}, the checkpoint {head.size}")
    passed.append(f"checkpoint: signed by {log_key.name} (tree size {head.size})")

    proof = [_b64(h, "a proof hash") for h in bundle["proof"]]
    try:
        merkle.check_inclusion(bundle["index"], head.size, merkle.leaf_hash(leaf), proof, head.root)
    except merkle.ProofError as e:
        raise BundleProblem("inclusion", f"{e}: the leaf is not in the checkpoint's tree as claimed") from None
    passed.append(f"inclusion: leaf {bundle['index']} is in the tree of {head.size} leaves")

    cosigned = sorted({s.name for s in note.verified} & {w.name for w in witnesses if w.algorithm == COSIGNATURE})
    if len(cosigned) < quorum:
        raise BundleProblem("witnesses", f"{len(cosigned)} of the named witnesses cosigned the checkpoint "
                                         f"({', '.join(cosigned) or 'none'}), {quorum} are required")
    if witnesses:
        passed.append(f"witnesses: {len(cosigned)} of {len(witnesses)} cosigned ({', '.join(cosigned) or 'none'})")
    return passed


def read_key(text: str, what: str) -> Verifier:
    """A verifier key given as its text or as a file holding it; raises BundleProblem naming what is wrong."""
    from pathlib import Path

    value = text.strip()
    try:
        if Path(value).is_file():
            value = Path(value).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as e:
        raise BundleProblem(what, f"{value[:80]}: cannot be read ({e})") from None
    try:
        return Verifier.parse(value)
    except NoteError as e:
        raise BundleProblem(what, str(e)) from None
