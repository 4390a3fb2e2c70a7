"""The Merkle tree of the transparency log: RFC 6962 (and RFC 9162, section 2.1) hashing, proofs and their checks.

A leaf's hash is SHA-256(0x00 || leaf bytes), an inner node's SHA-256(0x01 || left || right); the tree of n leaves
splits at the largest power of two below n, so its left part is always a complete subtree. Only complete subtrees are
stored: the node of `level` l and `index` i covers the leaves [i·2^l, (i+1)·2^l), and is kept at one place of a single
append-only sequence of hashes, in the order they become complete (the order the Go checksum database uses,
`golang.org/x/mod/sumdb/tlog`'s StoredHashIndex, so both lay a log out alike). A tree of n leaves keeps about 2n hashes;
any tree head, audit path or consistency proof reads O(log n) of them.

Pure: the stored hashes come from a reader `read(indexes) -> [hash]` that the caller backs with memory, a file or a
table (service.evidence.tree_store).
"""

from __future__ import annotations

import hashlib
from typing import Callable, Sequence

HASH_SIZE = 32
Reader = Callable[[Sequence[int]], Sequence[bytes]]


class ProofError(ValueError):
    """A proof or a request for one that cannot hold (names which and why)."""


def leaf_hash(data: bytes) -> bytes:
    """RFC 6962 leaf hash: SHA-256 of 0x00 and the leaf's bytes."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 6962 inner node hash: SHA-256 of 0x01, the left child's hash and the right child's."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def stored_index(level: int, index: int) -> int:
    """Where the complete subtree (level, index) sits in the sequence of stored hashes."""
    n = index
    for _ in range(level):
        n = 2 * n + 1
    position = 0
    while n > 0:  # level 0's n-th hash follows the n + n/2 + n/4 + ... hashes stored before it
        position += n
        n >>= 1
    return position + level


def stored_count(leaves: int) -> int:
    """How many hashes a tree of `leaves` leaves keeps."""
    if leaves == 0:
        return 0
    count = stored_index(0, leaves - 1) + 1
    n = leaves - 1
    while n & 1:
        count += 1
        n >>= 1
    return count


def leaves_of(count: int) -> int:
    """The number of leaves of a tree that keeps exactly `count` hashes (raises ProofError for a count no tree has)."""
    low, high = 0, count
    while low < high:  # stored_count is increasing: the largest n with stored_count(n) <= count
        mid = (low + high + 1) // 2
        if stored_count(mid) <= count:
            low = mid
        else:
            high = mid - 1
    if stored_count(low) != count:
        raise ProofError(f"{count} stored hashes is not a whole tree (the store was cut mid-append)")
    return low


def hashes_to_store(leaves: int, data: bytes, read: Reader) -> list[bytes]:
    """The hashes to append when leaf number `leaves` (from 0) with bytes `data` joins a tree of `leaves` leaves:
    its leaf hash, then every subtree it completes, in stored order."""
    return hashes_to_store_of(leaves, leaf_hash(data), read)


def hashes_to_store_of(leaves: int, h: bytes, read: Reader) -> list[bytes]:
    """hashes_to_store for a leaf known only by its leaf hash `h` (a line that is gone, whose hash another names)."""
    out = [h]
    levels = ((leaves + 1) & -(leaves + 1)).bit_length() - 1  # the number of subtrees this leaf completes
    if levels:
        lefts = read([stored_index(level, (leaves >> level) - 1) for level in range(levels)])
        for left in lefts:
            h = node_hash(left, h)
            out.append(h)
    return out


def _pow2_below(n: int) -> int:
    """The largest power of two strictly less than n (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def _complete(lo: int, hi: int) -> list[tuple[int, int]]:
    """The complete subtrees (level, index), left to right, whose right fold is RFC 6962's hash of leaves [lo, hi)."""
    out = []
    while lo < hi:
        size = hi - lo
        k = size if size & (size - 1) == 0 else _pow2_below(size)
        level = k.bit_length() - 1
        out.append((level, lo >> level))
        lo += k
    return out


complete_subtrees = _complete  # the tiles' check folds a tree's root from them (service.evidence.tiles)


def _ranges_hashes(ranges: list[tuple[int, int]], read: Reader) -> list[bytes]:
    """The RFC 6962 hash of each leaf range, with one read of every stored hash they need."""
    parts = [_complete(lo, hi) for lo, hi in ranges]
    wanted = sorted({stored_index(level, index) for part in parts for level, index in part})
    got = dict(zip(wanted, read(wanted)))
    out = []
    for part in parts:
        hashes = [got[stored_index(level, index)] for level, index in part]
        h = hashes[-1]
        for left in reversed(hashes[:-1]):
            h = node_hash(left, h)
        out.append(h)
    return out


def tree_hash(size: int, read: Reader) -> bytes:
    """The root hash of the tree of the first `size` leaves (the empty tree: SHA-256 of nothing)."""
    if size == 0:
        return hashlib.sha256(b"").digest()
    return _ranges_hashes([(0, size)], read)[0]


def _path(m: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """RFC 6962 PATH(m, D[lo:hi]) as leaf ranges, the nearest sibling first."""
    out: list[tuple[int, int]] = []
    while hi - lo > 1:
        k = _pow2_below(hi - lo)
        if m < lo + k:
            out.append((lo + k, hi))
            hi = lo + k
        else:
            out.append((lo, lo + k))
            lo = lo + k
    return list(reversed(out))


def inclusion_proof(index: int, size: int, read: Reader) -> list[bytes]:
    """The audit path of leaf `index` in the tree of `size` leaves (RFC 6962 section 2.1.1)."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    return _ranges_hashes(_path(index, 0, size), read)


def _subproof(m: int, lo: int, hi: int, whole: bool) -> list[tuple[int, int]]:
    """RFC 6962 SUBPROOF(m, D[lo:hi], b) as leaf ranges (m counted from lo)."""
    if m == hi - lo:
        return [] if whole else [(lo, hi)]
    k = _pow2_below(hi - lo)
    if m <= k:
        return _subproof(m, lo, lo + k, whole) + [(lo + k, hi)]
    return _subproof(m - k, lo + k, hi, False) + [(lo, lo + k)]


def consistency_proof(old: int, new: int, read: Reader) -> list[bytes]:
    """The proof that the tree of `old` leaves is a prefix of the tree of `new` leaves (RFC 6962 section 2.1.2);
    empty when old is 0 or equals new."""
    if not 0 <= old <= new:
        raise ProofError(f"no consistency proof from a tree of {old} leaves to one of {new}: the old must not be larger")
    if old == 0 or old == new:
        return []
    return _ranges_hashes(_subproof(old, 0, new, True), read)


def root_from_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes]) -> bytes:
    """The root an audit path leads to from a leaf hash (RFC 9162 section 2.1.3.2); raises ProofError for a path of
    the wrong length."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ProofError("the audit path is longer than the tree is deep")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the audit path is shorter than the tree is deep")
    return r


def check_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], root: bytes) -> None:
    """Raise ProofError unless `proof` shows the leaf hash `leaf` at `index` in the tree of `size` leaves with `root`."""
    if root_from_inclusion(index, size, leaf, proof) != root:
        raise ProofError(f"the audit path of leaf {index} does not lead to the root of the tree of {size} leaves")


def check_consistency(old: int, new: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> None:
    """Raise ProofError unless `proof` shows the tree (`old`, `old_root`) is a prefix of (`new`, `new_root`)
    (RFC 9162 section 2.1.4.2)."""
    if not 0 <= old <= new:
        raise ProofError(f"a tree of {old} leaves cannot be a prefix of one of {new}")
    if old == new:
        if proof:
            raise ProofError("a tree is its own prefix with an empty proof, and this one is not empty")
        if old_root != new_root:
            raise ProofError(f"two different roots for the same tree size {old}: the log forked")
        return
    if old == 0:
        if proof:
            raise ProofError("the empty tree is a prefix of every tree with an empty proof, and this one is not empty")
        return
    if not proof:
        raise ProofError(f"an empty proof cannot show a tree of {old} leaves is a prefix of one of {new}")
    path = list(proof)
    if old & (old - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is longer than it can be")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the consistency proof is shorter than it must be")
    if fr != old_root:
        raise ProofError(f"the consistency proof does not lead to the old root (tree of {old} leaves): the log was "
                         "rewritten or forked")
    if sr != new_root:
        raise ProofError(f"the consistency proof does not lead to the new root (tree of {new} leaves): the log was "
                         "rewritten or forked")


class MemoryHashes:
    """Stored hashes in memory (32 bytes a slot in one bytearray): a tree's hashes for tests, benches and caches."""

    def __init__(self):
        self._data = bytearray()
        self._leaves: int | None = 0

    def __len__(self) -> int:
        return len(self._data) // HASH_SIZE

    def read(self, indexes: Sequence[int]) -> list[bytes]:
        data = self._data
        return [bytes(data[i * HASH_SIZE:(i + 1) * HASH_SIZE]) for i in indexes]

    def extend(self, hashes: Sequence[bytes]) -> None:
        """Append stored hashes as they are (the leaf count is worked out again when asked)."""
        for h in hashes:
            self._data += h
        self._leaves = None

    def append_leaf(self, data: bytes) -> None:
        """Add one leaf (its bytes) to the tree these hashes make."""
        self.append_leaf_hash(leaf_hash(data))

    def append_leaf_hash(self, h: bytes) -> None:
        """Add one leaf known by its leaf hash."""
        leaves = self.leaves
        for stored in hashes_to_store_of(leaves, h, self.read):
            self._data += stored
        self._leaves = leaves + 1

    @property
    def leaves(self) -> int:
        if self._leaves is None:
            self._leaves = leaves_of(len(self))
        return self._leaves
