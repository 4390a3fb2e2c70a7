"""A log operator for witness tests: a Merkle tree in memory (merkle.MemoryHashes) and a note signer, whose
checkpoints and consistency proofs are what a witness is shown."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence import merkle
from service.evidence.merkle import MemoryHashes
from service.evidence.signed_notes import Signer
from service.evidence.tree_heads import TreeHead
from service.witness.protocol import request_body


class Operator:
    """A log: leaves appended to a tree; `checkpoint(size)` its signed note; `prove(old, new)` its proofs."""

    def __init__(self, origin: str = "arbiter.test/log", signer: Signer | None = None, first: bytes = b"leaf 0"):
        self.signer = signer or Signer(origin, Ed25519PrivateKey.generate())
        self.origin = origin
        self.hashes = MemoryHashes()
        self.first = first

    def grow(self, size: int) -> "Operator":
        while self.hashes.leaves < size:
            i = self.hashes.leaves
            self.hashes.append_leaf(self.first if i == 0 else f"leaf {i}".encode())
        return self

    def fork(self, first: bytes) -> "Operator":
        """Another tree under the same key and origin, whose first leaf differs (a split view's second tree)."""
        return Operator(self.origin, self.signer, first)

    def root(self, size: int) -> bytes:
        return merkle.tree_hash(size, self.grow(size).hashes.read)

    def head(self, size: int) -> TreeHead:
        return TreeHead(self.origin, size, self.root(size))

    def checkpoint(self, size: int) -> str:
        return self.signer.sign(self.head(size).text)

    def prove(self, old: int, new: int) -> list[bytes]:
        return merkle.consistency_proof(old, new, self.grow(new).hashes.read)

    def request(self, old: int, size: int) -> bytes:
        """The add-checkpoint body showing this log's tree of `size` leaves, proved from `old`."""
        return request_body(old, self.prove(old, size), self.checkpoint(size))
