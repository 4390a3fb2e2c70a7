"""A quorum of named witnesses on a checkpoint (service.evidence.witness_quorum) and the ARBITER_WITNESSES setting
(service.evidence.witness_client.parse_witnesses): what passes, and that every shortfall names who is missing."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence.cosignatures import Cosigner
from service.evidence.signed_notes import NoteError, Signer
from service.evidence.tree_heads import TreeHead
from service.evidence.witness_client import Witness, WitnessConfigError, parse_witnesses
from service.evidence.witness_quorum import check_quorum

LOG = Signer("arbiter.test/log", Ed25519PrivateKey.generate())
HEAD = TreeHead("arbiter.test/log", 12, bytes(range(32)))
W1, W2, W3 = (Cosigner(f"w{i}.test", Ed25519PrivateKey.generate()) for i in (1, 2, 3))
ALL = [W1.verifier, W2.verifier, W3.verifier]


def cosigned(*witnesses: Cosigner) -> str:
    return LOG.sign(HEAD.text) + "".join(w.cosign(HEAD.text).line for w in witnesses)


def test_a_quorum_met_returns_the_witnesses_that_cosigned():
    assert check_quorum(cosigned(W1, W3), LOG.verifier, ALL, 2) == ["w1.test", "w3.test"]
    assert check_quorum(cosigned(W1, W2, W3), LOG.verifier, ALL, 3) == ["w1.test", "w2.test", "w3.test"]
    assert check_quorum(cosigned(), LOG.verifier, ALL, 0) == []


def test_a_quorum_short_names_the_missing_witnesses():
    with pytest.raises(NoteError, match=r"1 of the named witnesses cosigned \(w1.test\), 2 are needed: missing w2.test, w3.test"):
        check_quorum(cosigned(W1), LOG.verifier, ALL, 2)


def test_a_cosignature_by_another_key_under_a_witness_s_name_does_not_count():
    impostor = Cosigner("w2.test", Ed25519PrivateKey.generate())
    with pytest.raises(NoteError, match="missing w2.test"):
        check_quorum(cosigned(W1, impostor), LOG.verifier, ALL, 2)


def test_a_cosignature_of_another_checkpoint_is_refused_naming_the_witness():
    other = TreeHead("arbiter.test/log", 13, bytes(32))
    note = LOG.sign(HEAD.text) + W1.cosign(other.text).line
    with pytest.raises(NoteError, match="w1.test"):
        check_quorum(note, LOG.verifier, ALL, 1)


def test_witnesses_alone_without_the_log_s_signature_are_refused():
    note = W1.cosign(HEAD.text).line
    note = HEAD.text.decode() + "\n" + note
    with pytest.raises(NoteError, match="not signed by the log"):
        check_quorum(note, LOG.verifier, ALL, 1)


def test_a_quorum_larger_than_the_witnesses_named_is_refused():
    with pytest.raises(NoteError, match="cannot be met"):
        check_quorum(cosigned(W1), LOG.verifier, [W1.verifier], 2)


def test_arbiter_witnesses_reads_url_equals_key_pairs():
    text = f" http://127.0.0.1:8090/={W1.verifier.text}, https://w2.example/witness={W2.verifier.text} "
    assert parse_witnesses(text) == [Witness("http://127.0.0.1:8090", W1.verifier),
                                     Witness("https://w2.example/witness", W2.verifier)]
    assert parse_witnesses("") == [] and parse_witnesses("  ") == []


@pytest.mark.parametrize("text, problem", [
    ("http://w1.test", "expected URL=VKEY"),
    (f"w1.test={W1.verifier.text}", "not an http"),
    ("http://w1.test=w1.test+00000000+AAAA", "verifier key"),
    (f"http://w1.test={LOG.verifier.text}", "not a cosignature key"),
    (f"http://w1.test={W1.verifier.text},,http://w2.test={W2.verifier.text}", "stray ','"),
])
def test_a_malformed_arbiter_witnesses_is_refused_naming_the_item(text, problem):
    with pytest.raises(WitnessConfigError, match=problem):
        parse_witnesses(text)
