"""C2SP tlog-proof files (service.evidence.tlog_proof) and their offline check (service.evidence.proof_check): the
spec's layout written and read exactly; a proof of a leaf of an arbiter log verifies (the log's signature, the leaf's
inclusion, which game and version the leaf is); an altered hash, index, checkpoint or leaf is refused, and so is a
malformed file, each naming what is wrong."""

from __future__ import annotations

import base64
import hashlib
import json
import uuid

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.evidence import merkle, receipts
from service.evidence.checkpoints import FORMAT, line_hash
from service.evidence.cosignatures import Cosigner
from service.evidence.keys import ServerKey, canonical
from service.evidence.proof_check import BundleProblem, check_file, check_tlog_proof
from service.evidence.tlog_policy import from_witnesses
from service.evidence.tlog_policy import parse as parse_policy
from service.evidence.tlog_proof import (
    HEADER,
    ProofFormatError,
    TlogProof,
    from_bundle,
    is_tlog_proof,
    parse,
)
from service.evidence.tree_heads import TreeHead

KEY = ServerKey.generate()
ORIGIN = "arbiter.test/tlog-proof"
SIGNER = KEY.note_signer(ORIGIN)
GAMES = [str(uuid.UUID(int=n + 1)) for n in range(3)]
WITNESS = Cosigner("witness.test/one", Ed25519PrivateKey.generate())


def _log(size: int = 7) -> list[bytes]:
    """`size` signed, chained checkpoint lines: game g of line n is GAMES[n % 3] at version n."""
    lines, prev = [], ""
    for seq in range(1, size + 1):
        doc = KEY.sign({"format": FORMAT, "seq": seq, "prev": prev, "game": GAMES[seq % 3], "version": seq,
                        "head": hashlib.sha256(str(seq).encode()).hexdigest(), "at": "2026-11-29T06:00:00+00:00",
                        "reason": "every", "attempts": 0, "attempts_head": ""})
        lines.append(canonical(doc))
        prev = line_hash(lines[-1])
    return lines


LINES = _log()


def proof_of(index: int, lines: list[bytes] = LINES, extra: bool = True, cosigners=()) -> TlogProof:
    hashes = merkle.MemoryHashes()
    for raw in lines:
        hashes.append_leaf(raw)
    head = TreeHead(ORIGIN, len(lines), merkle.tree_hash(len(lines), hashes.read))
    note = SIGNER.sign(head.text) + "".join(c.cosign(head.text).line for c in cosigners)
    return TlogProof(index, tuple(merkle.inclusion_proof(index, len(lines), hashes.read)), note,
                     lines[index] if extra else None)


def test_a_proof_is_written_in_the_spec_s_layout():
    proof = proof_of(4)
    text = proof.text
    lines = text.split("\n")
    assert lines[0] == HEADER and lines[1] == "extra " + base64.b64encode(LINES[4]).decode() and lines[2] == "index 4"
    assert lines[3:3 + len(proof.hashes)] == [base64.b64encode(h).decode() for h in proof.hashes]
    assert lines[3 + len(proof.hashes)] == "" and text.endswith(proof.checkpoint)
    assert parse(text) == proof and parse(text.encode()) == proof


def test_a_proof_without_extra_data_omits_the_extra_line_and_reads_back():
    proof = proof_of(0, extra=False)
    assert proof.text.startswith(f"{HEADER}\nindex 0\n") and parse(proof.text) == proof


def test_another_writer_s_proof_of_the_spec_s_shape_is_read():
    # The layout of the spec's example and of filippo.io/torchwood's FormatProof: no extra, hashes, an empty line.
    h1, h2 = (base64.b64encode(hashlib.sha256(s).digest()).decode() for s in (b"hash1", b"hash2"))
    proof = parse(f"c2sp.org/tlog-proof@v1\nindex 5\n{h1}\n{h2}\n\ntest checkpoint\n")
    assert proof.index == 5 and len(proof.hashes) == 2 and proof.checkpoint == "test checkpoint\n" and proof.extra is None
    assert parse("c2sp.org/tlog-proof@v1\nindex 0\n\ncheckpoint\n").hashes == ()


def test_a_proof_of_a_leaf_of_an_arbiter_log_verifies_and_names_its_game_and_version():
    done = check_tlog_proof(proof_of(4), SIGNER.verifier)
    assert done.leaf == {"index": 4, "seq": 5, "game": GAMES[5 % 3], "version": 5,
                         "head": hashlib.sha256(b"5").hexdigest()}
    assert [p.split(":")[0] for p in done.passed] == ["leaf", "checkpoint", "inclusion"]
    assert check_file(proof_of(6).text.encode(), SIGNER.verifier).leaf["version"] == 7


def test_the_leaf_may_be_given_beside_a_proof_without_extra_data():
    assert check_tlog_proof(proof_of(2, extra=False), SIGNER.verifier, leaf=LINES[2]).leaf["seq"] == 3
    with pytest.raises(BundleProblem, match="leaf: the proof carries no leaf .* --leaf FILE"):
        check_tlog_proof(proof_of(2, extra=False), SIGNER.verifier)
    with pytest.raises(BundleProblem, match="differs from the one in the proof's extra line"):
        check_tlog_proof(proof_of(2), SIGNER.verifier, leaf=LINES[3])


def test_a_receipt_given_beside_a_proof_must_be_the_leaf_s_game_head():
    doc = json.loads(LINES[4])
    receipt = receipts.issue(KEY, uuid.UUID(doc["game"]), doc["version"], doc["head"])
    assert check_tlog_proof(proof_of(4), SIGNER.verifier, receipt=receipt).passed[0].startswith("receipt: signed by")
    other = receipts.issue(KEY, uuid.UUID(doc["game"]), doc["version"], "0" * 64)
    with pytest.raises(BundleProblem, match="leaf: the leaf's head is .* it is not the receipt's game head"):
        check_tlog_proof(proof_of(4), SIGNER.verifier, receipt=other)


def _swap_hash(text: str) -> str:
    lines = text.split("\n")
    lines[3] = base64.b64encode(bytes(32)).decode()
    return "\n".join(lines)


def _resign(text: str) -> str:
    head, note = text.split("\n\n", 1)
    body = note[:note.index("\n\n") + 1]
    other = ServerKey.generate().note_signer(ORIGIN)
    return head + "\n\n" + other.sign(body)


def _bigger_tree(text: str) -> str:
    head, note = text.split("\n\n", 1)
    tree = TreeHead.parse(note[:note.index("\n\n") + 1])
    return head + "\n\n" + note.replace(f"\n{tree.size}\n", f"\n{tree.size + 1}\n", 1)


def _other_leaf(text: str) -> str:
    return text.replace(base64.b64encode(LINES[4]).decode(), base64.b64encode(LINES[3]).decode())


@pytest.mark.parametrize("what, alter, check", [
    ("a proof hash", _swap_hash, "inclusion"),
    ("the index", lambda t: t.replace("\nindex 4\n", "\nindex 5\n"), "inclusion"),
    ("the index to one outside the tree", lambda t: t.replace("\nindex 4\n", "\nindex 70\n"), "inclusion"),
    ("the checkpoint's tree size", _bigger_tree, "checkpoint"),
    ("the checkpoint re-signed with another key", _resign, "checkpoint"),
    ("the leaf in the extra line", _other_leaf, "inclusion"),
])
def test_an_altered_tlog_proof_is_refused_naming_the_check(what, alter, check):
    text = proof_of(4).text
    altered = alter(text)
    assert altered != text
    with pytest.raises(BundleProblem) as e:
        check_file(altered.encode(), SIGNER.verifier)
    assert e.value.check == check, e.value


def test_a_leaf_rewritten_and_re_signed_by_the_log_key_is_not_in_the_tree():
    doc = json.loads(LINES[4])
    forged = canonical(KEY.sign({k: v for k, v in doc.items() if k not in ("key", "signature")} | {"version": 99}))
    proof = proof_of(4)
    with pytest.raises(BundleProblem, match="inclusion"):
        check_tlog_proof(TlogProof(4, proof.hashes, proof.checkpoint, forged), SIGNER.verifier)


def test_a_leaf_that_is_no_signed_checkpoint_line_is_refused():
    lines = [*LINES[:3], b'{"format":"something else"}', *LINES[4:]]
    with pytest.raises(BundleProblem, match="leaf: the leaf is not a checkpoint line"):
        check_tlog_proof(proof_of(3, lines), SIGNER.verifier)


def test_the_policy_s_quorum_is_demanded_of_the_proof_s_checkpoint():
    policy = from_witnesses([WITNESS.verifier], 1)
    with pytest.raises(BundleProblem, match="witnesses: 0 of the named witnesses cosigned"):
        check_tlog_proof(proof_of(4), SIGNER.verifier, policy)
    done = check_tlog_proof(proof_of(4, cosigners=[WITNESS]), SIGNER.verifier, policy)
    assert done.passed[-1].startswith("witnesses: quorum named-witnesses met, 1 of 1 cosigned")


def test_a_policy_that_lists_the_log_gives_its_key():
    policy = parse_policy(f"log {SIGNER.verifier.text}\nwitness w {WITNESS.verifier.text}\nquorum w\n")
    assert check_tlog_proof(proof_of(1, cosigners=[WITNESS]), None, policy).leaf["version"] == 2


@pytest.mark.parametrize("text, problem", [
    ("c2sp.org/tlog-proof@v2\nindex 0\n\nx\n", ("line 1 is 'c2sp.org/tlog-proof@v2', expected 'c2sp.org/tlog-proof@v1'"
                                               " (another version of the format)")),
    ("c2sp.org/tlog-proof@v1\nindex 01\n\nx\n", "line 2: the index '01' is not a decimal number without leading zeros"),
    ("c2sp.org/tlog-proof@v1\nindex -1\n\nx\n", "line 2: the index '-1' is not a decimal"),
    ("c2sp.org/tlog-proof@v1\n\nx\n", "line 2: expected 'index <decimal>' (or 'extra <base64>' before it), found nothing"),
    ("c2sp.org/tlog-proof@v1\nextra AAAA\n\nx\n", "line 3: expected 'index <decimal>', found nothing"),
    ("c2sp.org/tlog-proof@v1\nextra !!!\nindex 0\n\nx\n", "line 2: the extra data is not base64"),
    ("c2sp.org/tlog-proof@v1\nindex 0\nnot base64!\n\nx\n", "line 3: the proof hash is not base64"),
    ("c2sp.org/tlog-proof@v1\nindex 0\nAAAA\n\nx\n", "line 3: the proof hash is 3 bytes, a SHA-256 hash is 32"),
    ("c2sp.org/tlog-proof@v1\r\nindex 0\r\n\r\nx\n", ("no empty line: the checkpoint must follow the proof's lines "
                                                   "after an empty line (its lines end in a carriage return")),
    ("c2sp.org/tlog-proof@v1\r\nindex 0\n\nx\n", "line 1: a carriage return"),
    ("c2sp.org/tlog-proof@v1\nindex 0\n", "no empty line"),
    ("c2sp.org/tlog-proof@v1\nindex 0\n\n", "the checkpoint is missing"),
    (b"c2sp.org/tlog-proof@v1\nindex 0\n\xff\n\nx\n", "line 3: not UTF-8"),
])
def test_a_malformed_tlog_proof_is_refused_naming_the_line(text, problem):
    with pytest.raises(ProofFormatError) as e:
        parse(text)
    assert problem in str(e.value)
    with pytest.raises(BundleProblem, match="format: not a well-formed tlog-proof"):
        check_file(text if isinstance(text, bytes) else text.encode(), SIGNER.verifier)


def test_a_malformed_checkpoint_inside_a_proof_is_named():
    with pytest.raises(BundleProblem, match="checkpoint: the note has no signature block"):
        check_file(f"{HEADER}\nextra {base64.b64encode(LINES[0]).decode()}\nindex 0\n\nx\n".encode(), SIGNER.verifier)


def test_the_two_formats_are_told_apart_by_content():
    assert is_tlog_proof(proof_of(0).text.encode()) and not is_tlog_proof(b'{"format": "arbiter.proof/1"}')
    with pytest.raises(BundleProblem, match="format: neither a tlog-proof"):
        check_file(b"index 0\n\nx\n", SIGNER.verifier)


def test_a_bundle_becomes_the_same_tlog_proof():
    proof = proof_of(4)
    bundle = {"format": "arbiter.proof/1", "index": 4, "tree_size": len(LINES), "leaf": base64.b64encode(LINES[4]).decode(),
              "proof": [base64.b64encode(h).decode() for h in proof.hashes], "checkpoint": proof.checkpoint}
    assert from_bundle(bundle) == proof


VALID = proof_of(4, cosigners=[WITNESS]).text.encode()


@given(cut=st.integers(0, len(VALID)), junk=st.binary(max_size=8), at=st.integers(0, len(VALID)))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_damaged_tlog_proof_is_refused_with_a_named_problem_never_an_exception(cut, junk, at):
    damaged = (VALID[:at] + junk + VALID[at:])[:max(cut, 1)] if junk or cut < len(VALID) else VALID
    try:
        done = check_file(damaged, SIGNER.verifier)
    except BundleProblem as e:
        assert e.check in ("format", "leaf", "checkpoint", "inclusion", "key") and e.detail
    else:
        assert done.leaf["index"] == 4


@pytest.mark.parametrize("change", [{"proof": "AAAA"}, {"leaf": "not base64!"}, {"index": -1}, {"checkpoint": None}])
def test_a_bundle_with_malformed_parts_is_refused_rather_than_written(change):
    proof = proof_of(4)
    bundle = {"format": "arbiter.proof/1", "index": 4, "leaf": base64.b64encode(LINES[4]).decode(),
              "proof": [base64.b64encode(h).decode() for h in proof.hashes], "checkpoint": proof.checkpoint}
    with pytest.raises(ProofFormatError, match="missing or malformed"):
        from_bundle({**bundle, **change})
