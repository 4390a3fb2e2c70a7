"""A proof checked offline: no store, no network, only the log's verifier key (given, or the policy's log named by the
checkpoint's origin) and the witness policy a checker demands. Two formats, told apart by their content:

    arbiter.proof/1   the JSON bundle of POST /api/v1/log/proofs: a receipt, its leaf, the audit path, the checkpoint
    tlog-proof        C2SP tlog-proof (service.evidence.tlog_proof): index, audit path, checkpoint; the leaf in its
                      `extra` line (arbiter's) or given beside it; a receipt may be given beside it too

Each check is named; the first that fails says what is wrong (BundleProblem):

    format       the file is a proof of either format, well formed
    receipt      the receipt's shape, and its signature under the log's key (the same Ed25519 key)
    promise      (a bundle of a promise kept alone, a refusal's: `promise` instead of `receipt`) the promise's note
                 signed by the log's key under its origin (service.evidence.promises)
    leaf         the leaf is a checkpoint line (of the receipt's game, version and head, when there is a receipt; of a
                 promise's game at its version or later with its refused attempts or more, for a promise), line
                 index + 1 of the log, signed by that key
    checkpoint   the checkpoint note is signed by the log's key under its origin (and its tree size is the bundle's)
    inclusion    the audit path leads from the leaf to the checkpoint's root
    witnesses    the checkpoint's cosignatures satisfy the policy's quorum (service.evidence.tlog_policy)
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain import json_limits
from service.errors import ServiceError

from . import merkle, receipts, tlog_proof
from .checkpoints import FIELDS_OF
from .keys import PublicKey
from .signed_notes import ED25519, NoteError, Verifier, split
from .tlog_policy import Policy
from .tree_heads import TreeHead

BUNDLE = "arbiter.proof/1"
TLOG_PROOF = "tlog-proof"
FIELDS = {"format": str, "receipt": dict, "leaf": str, "index": int, "tree_size": int, "proof": list, "checkpoint": str}


class BundleProblem(ValueError):
    """A proof that does not prove what it claims: `check` names which check failed, `detail` why."""

    def __init__(self, check: str, detail: str):
        super().__init__(f"{check}: {detail}")
        self.check, self.detail = check, detail


@dataclass
class Checked:
    """A proof that holds: its format, the checks passed (each a sentence) and the leaf's game head."""

    format: str
    passed: list[str] = field(default_factory=list)
    leaf: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"ok": True, "format": self.format, "checks": self.passed, "leaf": self.leaf}


def _b64(text: Any, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError, TypeError):
        raise BundleProblem("format", f"{what} is not base64") from None


def check_file(data: bytes, log_key: Verifier | None, policy: Policy | None = None, leaf: bytes | None = None,
               receipt: Any = None) -> Checked:
    """A proof file's bytes, of either format (told by content), checked; raises BundleProblem."""
    if tlog_proof.is_tlog_proof(data):
        try:
            proof = tlog_proof.parse(data)
        except tlog_proof.ProofFormatError as e:
            raise BundleProblem("format", f"not a well-formed tlog-proof: {e}") from None
        return check_tlog_proof(proof, log_key, policy, leaf, receipt)
    try:
        doc = json_limits.read_document(data)
    except ValueError as e:
        raise BundleProblem("format", f"neither a tlog-proof (first line {tlog_proof.HEADER}) nor a JSON proof "
                                      f"bundle ({e})") from None
    if leaf is not None or receipt is not None:
        raise BundleProblem("format", f"an {BUNDLE} bundle carries its own leaf and receipt: --leaf and --receipt "
                                      "are for a tlog-proof")
    return check_bundle(doc, log_key, policy)


def check_bundle(bundle: Any, log_key: Verifier | None, policy: Policy | None = None) -> Checked:
    """An `arbiter.proof/1` bundle checked; raises BundleProblem at the first check that fails."""
    if not isinstance(bundle, dict) or bundle.get("format") != BUNDLE:
        raise BundleProblem("format", f"not a proof bundle (a JSON object of format {BUNDLE}, or a tlog-proof)")
    if "receipt" not in bundle and "promise" in bundle:
        return _check_promise_bundle(bundle, log_key, policy)
    for name, kind in FIELDS.items():
        if not isinstance(bundle.get(name), kind) or isinstance(bundle.get(name), bool):
            raise BundleProblem("format", f"{name} is missing or not {kind.__name__}")
    out = Checked(BUNDLE)
    log_key, key = _log_key(bundle["checkpoint"], log_key, policy)
    receipt = _receipt(bundle["receipt"], key, out)
    line = _leaf(_b64(bundle["leaf"], "leaf"), bundle["index"], key, receipt, out)
    head, opened = _checkpoint(bundle["checkpoint"], log_key, policy, out)
    if head.size != bundle["tree_size"]:
        raise BundleProblem("checkpoint", f"the bundle says tree size {bundle['tree_size']}, the checkpoint {head.size}")
    proof = [_b64(h, "a proof hash") for h in bundle["proof"]]
    _inclusion(bundle["index"], head, line, proof, out)
    _witnesses(opened, policy, out)
    return out


def check_tlog_proof(proof: tlog_proof.TlogProof, log_key: Verifier | None, policy: Policy | None = None,
                     leaf: bytes | None = None, receipt: Any = None) -> Checked:
    """A C2SP tlog-proof checked: the leaf from its extra line or `leaf` (both: they must agree), the receipt when
    given; raises BundleProblem at the first check that fails."""
    out = Checked(TLOG_PROOF)
    if proof.extra and leaf is not None and proof.extra != leaf:
        raise BundleProblem("leaf", "the leaf given differs from the one in the proof's extra line")
    raw = proof.extra or leaf
    if not raw:
        raise BundleProblem("leaf", "the proof carries no leaf (no extra line): give the leaf's bytes with --leaf FILE "
                                    "(the checkpoint line, as in the log's data tiles or the `leaf` of GET "
                                    "/api/v1/log/inclusion, base64-decoded)")
    log_key, key = _log_key(proof.checkpoint, log_key, policy)
    parsed = _receipt(receipt, key, out) if receipt is not None else None
    line = _leaf(raw, proof.index, key, parsed, out)
    head, opened = _checkpoint(proof.checkpoint, log_key, policy, out)
    _inclusion(proof.index, head, line, list(proof.hashes), out)
    _witnesses(opened, policy, out)
    return out


def _log_key(note: str, log_key: Verifier | None, policy: Policy | None) -> tuple[Verifier, PublicKey]:
    """The log's verifier key (given, else the policy's log of the checkpoint's origin) and the same key for lines."""
    if log_key is None:
        try:
            text, _ = split(note)
            origin = TreeHead.parse(text).origin
        except NoteError as e:
            raise BundleProblem("checkpoint", str(e)) from None
        log_key = policy.log_for(origin) if policy is not None else None
        if log_key is None:
            raise BundleProblem("key", f"no key for the log {origin[:80]!r}: give --key, or a policy that lists it")
    if log_key.algorithm != ED25519:
        raise BundleProblem("key", "the log's key must be an Ed25519 signed-note key (algorithm 0x01)")
    return log_key, PublicKey(Ed25519PublicKey.from_public_bytes(log_key.public))


def _receipt(doc: Any, key: PublicKey, out: Checked) -> dict:
    try:
        receipt = receipts.parse(doc)
    except ServiceError as e:
        raise BundleProblem("receipt", e.detail) from None
    problem = key.signature_problem(receipt)
    if problem:
        raise BundleProblem("receipt", f"its signature does not hold under the log's key: {problem}")
    out.passed.append(f"receipt: signed by key {key.id} (game {receipt['game']}, version {receipt['version']})")
    return receipt


def _leaf(leaf: bytes, index: int, key: PublicKey, receipt: dict | None, out: Checked) -> bytes:
    """The leaf's bytes, once they are a signed checkpoint line (of the receipt's game head, when there is one)."""
    try:
        line = json_limits.read_document(leaf)
    except ValueError as e:  # not JSON, or outside the JSON bounds (a stranger's proof)
        raise BundleProblem("leaf", f"the leaf is not a checkpoint line ({e})") from None
    if not isinstance(line, dict) or line.get("format") not in FIELDS_OF:
        raise BundleProblem("leaf", "the leaf is not a checkpoint line")
    for name in ("game", "version", "head") if receipt is not None else ():
        if line.get(name) != receipt[name]:
            raise BundleProblem("leaf", f"the leaf's {name} is {str(line.get(name))[:70]!r}, the receipt's "
                                        f"{str(receipt[name])[:70]!r}: it is not the receipt's game head")
    problem = key.signature_problem(line)
    if problem:
        raise BundleProblem("leaf", f"the leaf's line signature does not hold: {problem}")
    out.leaf = {"index": index, "seq": line.get("seq"), "game": line.get("game"), "version": line.get("version"),
                "head": line.get("head")}
    what = "the receipt's game, version and head" if receipt is not None else \
        f"game {line.get('game')} at version {line.get('version')} (head {str(line.get('head'))[:16]}…)"
    out.passed.append(f"leaf: checkpoint line {line.get('seq')} signs {what}")
    return leaf


def _check_promise_bundle(bundle: dict, log_key: Verifier | None, policy: Policy | None) -> Checked:
    """The bundle of a promise kept alone (a refusal's): the promise signed by the log, the leaf covering it, then the
    tree's checks; raises BundleProblem at the first that fails."""
    from . import promises

    for name, kind in {**{k: v for k, v in FIELDS.items() if k != "receipt"}, "promise": str}.items():
        if not isinstance(bundle.get(name), kind) or isinstance(bundle.get(name), bool):
            raise BundleProblem("format", f"{name} is missing or not {kind.__name__}")
    out = Checked(BUNDLE)
    log_key, key = _log_key(bundle["checkpoint"], log_key, policy)
    try:
        promise = promises.read(bundle["promise"], log_key)
    except ServiceError as e:
        raise BundleProblem("promise", e.detail) from None
    out.passed.append(f"promise: signed by {log_key.name} (game {promise.game}, version {promise.version}, "
                      f"{promise.attempts} refused attempt(s), in the log by {promise.by.isoformat()})")
    line = _leaf(_b64(bundle["leaf"], "leaf"), bundle["index"], key, None, out)
    if not promises.covers(json_limits.read_document(line), promise):
        raise BundleProblem("leaf", "the leaf is not a checkpoint line of the promise's game at its version or later "
                                    "with its refused attempts or more")
    out.passed.append(f"leaf: checkpoint line {out.leaf.get('seq')} covers the promise")
    head, opened = _checkpoint(bundle["checkpoint"], log_key, policy, out)
    if head.size != bundle["tree_size"]:
        raise BundleProblem("checkpoint", f"the bundle says tree size {bundle['tree_size']}, the checkpoint {head.size}")
    _inclusion(bundle["index"], head, line, [_b64(h, "a proof hash") for h in bundle["proof"]], out)
    _witnesses(opened, policy, out)
    return out


def _checkpoint(note: str, log_key: Verifier, policy: Policy | None, out: Checked):
    try:
        opened, _ = (policy or Policy()).open(note, log_key)
        head = TreeHead.parse(opened.text)
    except NoteError as e:
        raise BundleProblem("checkpoint", str(e)) from None
    out.passed.append(f"checkpoint: signed by {log_key.name} (tree size {head.size})")
    return head, opened


def _inclusion(index: int, head: TreeHead, leaf: bytes, proof: list[bytes], out: Checked) -> None:
    try:
        merkle.check_inclusion(index, head.size, merkle.leaf_hash(leaf), proof, head.root)
    except merkle.ProofError as e:
        raise BundleProblem("inclusion", f"{e}: the leaf is not in the checkpoint's tree as claimed") from None
    out.passed.append(f"inclusion: leaf {index} is in the tree of {head.size} leaves")
    seq = out.leaf.get("seq")
    if seq != index + 1:  # leaf i is line i + 1: a line elsewhere means the log's lines were moved before publishing
        raise BundleProblem("leaf", f"the leaf says it is line {str(seq)[:20]} of the log, but it is leaf {index} of "
                                    f"the tree (line {index + 1}): the log's lines are out of place")


def _witnesses(opened, policy: Policy | None, out: Checked) -> None:
    if policy is None or (not policy.witnesses and policy.quorum == "none"):
        return
    problem = policy.shortfall(opened)
    if problem:
        raise BundleProblem("witnesses", problem)
    cosigned = policy.cosigned(opened)
    out.passed.append(f"witnesses: quorum {policy.quorum} met, {len(cosigned)} of {len(policy.witnesses)} cosigned "
                      f"({', '.join(cosigned) or 'none'})")


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
