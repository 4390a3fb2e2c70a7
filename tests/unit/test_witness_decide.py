"""The witness's add-checkpoint decision (service.witness.decide, C2SP tlog-witness): every answer the spec names,
and the two things a witness exists to refuse: a smaller tree after a bigger one (rollback) and a second root for a
size it cosigned (a split view)."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence import merkle
from service.evidence.cosignatures import Cosigner
from service.evidence.merkle import MemoryHashes
from service.evidence.signed_notes import Signer, open_note
from service.evidence.tree_heads import TreeHead
from service.witness.decide import KnownLog, Recorded, decide
from service.witness.protocol import MAX_PROOF_LINES, Refusal, read_request, request_body

ORIGIN = "arbiter.test/log"
LOG = Signer(ORIGIN, Ed25519PrivateKey.generate())
KNOWN = KnownLog(ORIGIN, (LOG.verifier,))
WITNESS = Cosigner("witness.test", Ed25519PrivateKey.generate())
NOW = 1_750_000_000


def tree(n: int, first: bytes = b"leaf 0") -> MemoryHashes:
    hashes = MemoryHashes()
    for i in range(n):
        hashes.append_leaf(first if i == 0 else f"leaf {i}".encode())
    return hashes


def checkpoint(hashes: MemoryHashes, size: int, signer: Signer = LOG, origin: str = ORIGIN) -> str:
    return signer.sign(TreeHead(origin, size, merkle.tree_hash(size, hashes.read)).text)


def recorded(hashes: MemoryHashes, size: int) -> Recorded:
    return Recorded(size, merkle.tree_hash(size, hashes.read))


def ask(state: Recorded | None, old: int, hashes: MemoryHashes, size: int, proof=None, note=None, log=KNOWN):
    proof = merkle.consistency_proof(old, size, hashes.read) if proof is None else proof
    request = read_request(request_body(old, proof, note or checkpoint(hashes, size)))
    return decide(log, state, request, WITNESS, NOW)


def test_a_first_checkpoint_from_size_zero_is_cosigned_and_recorded():
    a = tree(10)
    decision = ask(None, 0, a, 10)
    assert decision.answer.status == 200
    assert decision.recorded == Recorded(10, merkle.tree_hash(10, a.read), TreeHead(ORIGIN, 10, decision.recorded.root).text)
    note = open_note(checkpoint(a, 10) + decision.answer.body, [LOG.verifier, WITNESS.verifier])
    assert note.signed_by("witness.test"), "the answer is a cosignature line of the checkpoint"


def test_a_checkpoint_extending_the_recorded_one_by_a_good_proof_is_cosigned():
    a = tree(20)
    decision = ask(recorded(a, 7), 7, a, 20)
    assert decision.answer.status == 200 and decision.recorded.size == 20


def test_the_same_checkpoint_again_is_cosigned_again_without_a_proof():
    a = tree(9)
    assert ask(recorded(a, 9), 9, a, 9).answer.status == 200


def test_an_unknown_origin_is_404():
    a = tree(3)
    other = Signer("elsewhere.test/log", Ed25519PrivateKey.generate())
    request = read_request(request_body(0, [], checkpoint(a, 3, other, "elsewhere.test/log")))
    answer = decide(None, None, request, WITNESS, NOW).answer
    assert answer.status == 404 and "elsewhere.test/log" in answer.body


def test_a_checkpoint_without_a_signature_of_a_trusted_key_is_403():
    a = tree(3)
    impostor = Signer(ORIGIN, Ed25519PrivateKey.generate())  # the log's name, another key
    decision = ask(None, 0, a, 3, note=checkpoint(a, 3, impostor))
    assert decision.answer.status == 403 and decision.recorded is None
    assert LOG.verifier.text.split("+")[1] in decision.answer.body


def test_an_altered_checkpoint_is_403():
    a = tree(3)
    note = checkpoint(a, 3).replace(f"\n3\n", "\n4\n", 1)
    assert ask(None, 0, a, 4, proof=[], note=note).answer.status == 403


def test_a_trusted_signature_among_unknown_ones_is_enough():
    a = tree(3)
    stranger = Signer("stranger.test", Ed25519PrivateKey.generate())
    note = checkpoint(a, 3) + stranger.signature_line(TreeHead(ORIGIN, 3, merkle.tree_hash(3, a.read)).text)
    assert ask(None, 0, a, 3, note=note).answer.status == 200


def test_old_larger_than_the_checkpoint_is_400():
    a = tree(10)
    answer = ask(recorded(a, 10), 10, a, 5, proof=[]).answer
    assert answer.status == 400 and "larger" in answer.body


def test_an_old_size_other_than_the_recorded_one_is_409_with_the_recorded_size():
    a = tree(10)
    answer = ask(recorded(a, 6), 4, a, 10).answer
    assert (answer.status, answer.body, answer.content_type) == (409, "6\n", "text/x.tlog.size")
    assert ask(None, 3, a, 10).answer.body == "0\n", "a log never cosigned is at size 0"


def test_a_rollback_a_smaller_tree_after_a_bigger_one_is_refused():
    a = tree(10)
    state = recorded(a, 10)
    assert ask(state, 10, a, 6, proof=[]).answer.status == 400  # honest about old: old > size
    rollback = ask(state, 6, a, 6)  # pretending the witness is at 6
    assert rollback.answer.status == 409 and rollback.answer.body == "10\n" and rollback.recorded is None
    assert ask(state, 0, a, 6).answer.status == 409


def test_a_second_root_for_the_recorded_size_is_refused_as_a_split_view():
    a, b = tree(10), tree(10, first=b"a forged first leaf")
    decision = ask(recorded(a, 10), 10, b, 10)
    assert decision.answer.status == 409 and decision.recorded is None
    assert "split view" in decision.evidence


def test_a_bigger_forked_tree_fails_its_consistency_proof_422():
    a, b = tree(10), tree(14, first=b"a forged first leaf")
    decision = ask(recorded(a, 10), 10, b, 14)  # B's own proof from its 10 to its 14: not from A's root
    assert decision.answer.status == 422 and decision.recorded is None
    assert "does not hold" in decision.answer.body and decision.evidence


@pytest.mark.parametrize("proof", [
    [],                                      # a proof is needed from 7 to 20
    [b"\x00" * 32] * 3,                      # a wrong one
])
def test_a_consistency_proof_that_does_not_hold_is_422(proof):
    a = tree(20)
    assert ask(recorded(a, 7), 7, a, 20, proof=proof).answer.status == 422


def test_a_proof_from_size_zero_must_be_empty():
    a = tree(5)
    assert ask(None, 0, a, 5, proof=[b"\x01" * 32]).answer.status == 422


@pytest.mark.parametrize("body, problem", [
    (b"", "old <size>"),
    (b"old 01\n\n", "old <size>"),
    (b"old -1\n\n", "old <size>"),
    (b"new 1\n\n", "old <size>"),
    (b"old 1\nnot base64!\n\nx", "proof line 1"),
    (b"old 1\n" + base64.b64encode(b"short") + b"\n\nx", "proof line 1"),
    (b"old 1\n", "empty line"),
    (b"old 0\n\nno note here\n", "checkpoint"),
    (b"old 0\n\n" + LOG.sign(b"just one line\n").encode(), "three lines"),
    (b"old 1\n" + b"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n" * (MAX_PROOF_LINES + 1) + b"\n", "more than 63"),
])
def test_a_malformed_request_is_refused_naming_what_is_wrong(body, problem):
    with pytest.raises(Refusal, match=problem):
        read_request(body)
