"""The transparency log's Merkle tree (service.evidence.merkle) against RFC 6962's definitions, written out naively
here, and against the published test vectors of Certificate Transparency's reference implementation."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

from service.evidence import merkle
from service.evidence.merkle import MemoryHashes, ProofError

# the leaves and roots of the tree of the certificate-transparency reference tests (RFC 6962 test vectors)
VECTOR_LEAVES = [bytes.fromhex(h) for h in (
    "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f")]
VECTOR_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def mth(leaves: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, word for word."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < n:
        k *= 2
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def path(m: int, leaves: list[bytes]) -> list[bytes]:
    n = len(leaves)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return path(m, leaves[:k]) + [mth(leaves[k:])]
    return path(m - k, leaves[k:]) + [mth(leaves[:k])]


def subproof(m: int, leaves: list[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [mth(leaves)]
    k = 1
    while k * 2 < n:
        k *= 2
    if m <= k:
        return subproof(m, leaves[:k], whole) + [mth(leaves[k:])]
    return subproof(m - k, leaves[k:], False) + [mth(leaves[:k])]


def tree(leaves: list[bytes]) -> MemoryHashes:
    hashes = MemoryHashes()
    for leaf in leaves:
        hashes.append_leaf(leaf)
    return hashes


def leaves_of(n: int) -> list[bytes]:
    return [f"leaf {i}".encode() for i in range(n)]


def test_the_roots_are_certificate_transparencys_test_vectors():
    hashes = tree(VECTOR_LEAVES)
    for size, root in enumerate(VECTOR_ROOTS, start=1):
        assert merkle.tree_hash(size, hashes.read).hex() == root


def test_the_empty_tree_hashes_to_sha256_of_nothing():
    assert merkle.tree_hash(0, MemoryHashes().read).hex() == hashlib.sha256(b"").hexdigest()


@pytest.mark.parametrize("n", range(1, 40))
def test_every_root_audit_path_and_consistency_proof_is_rfc_6962s(n):
    leaves = leaves_of(n)
    hashes = tree(leaves)
    assert hashes.leaves == n and len(hashes) == merkle.stored_count(n)
    root = merkle.tree_hash(n, hashes.read)
    assert root == mth(leaves)
    for m in range(n):
        proof = merkle.inclusion_proof(m, n, hashes.read)
        assert proof == path(m, leaves)
        merkle.check_inclusion(m, n, merkle.leaf_hash(leaves[m]), proof, root)
    for old in range(1, n + 1):
        proof = merkle.consistency_proof(old, n, hashes.read)
        assert proof == subproof(old, leaves, True)
        merkle.check_consistency(old, n, mth(leaves[:old]), root, proof)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 300), st.data())
def test_an_altered_audit_path_leaf_or_index_is_refused(n, data):
    leaves = leaves_of(n)
    hashes = tree(leaves)
    root = merkle.tree_hash(n, hashes.read)
    m = data.draw(st.integers(0, n - 1))
    proof = merkle.inclusion_proof(m, n, hashes.read)
    leaf = merkle.leaf_hash(leaves[m])
    i = data.draw(st.integers(0, len(proof) - 1))
    bad = list(proof)
    bad[i] = hashlib.sha256(bad[i]).digest()
    for args in ((m, n, leaf, bad), (m, n, merkle.leaf_hash(b"other"), proof), (m, n, leaf, proof[:-1]),
                 (m, n, leaf, proof + [leaf]), ((m + 1) % n, n, leaf, proof)):
        with pytest.raises(ProofError):
            merkle.check_inclusion(*args, root)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 300), st.data())
def test_a_rewritten_leaf_breaks_consistency_with_every_later_tree(n, data):
    leaves = leaves_of(n)
    old = data.draw(st.integers(1, n - 1))
    rewritten = data.draw(st.integers(0, old - 1))
    forked = list(leaves)
    forked[rewritten] = b"rewritten"
    honest, fork = tree(leaves), tree(forked)
    proof = merkle.consistency_proof(old, n, fork.read)
    with pytest.raises(ProofError, match="rewritten or forked"):
        merkle.check_consistency(old, n, merkle.tree_hash(old, honest.read), merkle.tree_hash(n, fork.read), proof)
    with pytest.raises(ProofError):
        merkle.check_consistency(old, n, merkle.tree_hash(old, honest.read), merkle.tree_hash(n, honest.read), proof[:-1])


def test_two_roots_for_one_size_are_named_a_fork():
    a, b = tree(leaves_of(5)), tree(leaves_of(4) + [b"x"])
    with pytest.raises(ProofError, match="forked"):
        merkle.check_consistency(5, 5, merkle.tree_hash(5, a.read), merkle.tree_hash(5, b.read), [])


def test_a_smaller_tree_cannot_follow_a_bigger_one():
    with pytest.raises(ProofError, match="must not be larger"):
        merkle.consistency_proof(6, 5, tree(leaves_of(6)).read)
    with pytest.raises(ProofError, match="cannot be a prefix"):
        merkle.check_consistency(6, 5, b"x" * 32, b"y" * 32, [])


def test_a_store_cut_in_the_middle_of_an_append_is_not_a_tree():
    hashes = tree(leaves_of(8))  # the eighth leaf adds four hashes: itself and the subtrees of 2, 4 and 8 it completes
    for cut in (1, 2, 3):
        with pytest.raises(ProofError, match="not a whole tree"):
            merkle.leaves_of(len(hashes) - cut)
    assert merkle.leaves_of(len(hashes) - 4) == 7
    assert merkle.leaves_of(len(hashes)) == 8


def test_stored_places_are_a_single_append_only_sequence():
    positions = []
    for n in range(64):
        positions.append(merkle.stored_index(0, n))
        level, i = 1, n + 1
        while i % 2 == 0:
            positions.append(merkle.stored_index(level, i // 2 - 1))
            level, i = level + 1, i // 2
    assert positions == list(range(len(positions)))
