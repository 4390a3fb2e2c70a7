"""The transparency log: the checkpoint log's lines as the leaves of an RFC 6962 Merkle tree, its published
checkpoints (C2SP tlog-checkpoint notes signed with the server's key) and the proofs a client asks for.

Leaf i is the bytes of line seq = i + 1 of the checkpoint log (without its newline): the log IS the tree, and every
check of the lines (seq, prev, fields, signature: service.evidence.checkpoints) still holds. The tree is derived from
the lines and kept per process in memory (service.evidence.merkle.MemoryHashes), extended as new lines are read from
the storage's tail (only the lines after the last one read: a request never reads the whole log), with an index
(game, version) -> leaf. A restart reads the whole log once (docs/evidence.md gives what that costs).

`publish()` signs the tree head of every line read so far as a note under the log's origin (ARBITER_LOG_ORIGIN,
default `arbiter.invalid/<key id>`), asks the witnesses (a `collect` callable; none by default) for their
cosignatures, appends their lines to the note and stores it (service.evidence.published_heads), unless a head of that
size is published already. Ed25519 being deterministic, every host signs the same note for the same size.
"""

from __future__ import annotations

import bisect
import threading
from array import array
from typing import Callable, Sequence

from domain import json_limits

from . import merkle
from .log_storage import LogShrank
from .published_heads import Published
from .signed_notes import Signer
from .tiles import Tile, hash_tile
from .tree_heads import TreeHead

Collect = Callable[[Sequence, str, int, Callable[[int, int], list[bytes]]], list]


def no_witnesses(witnesses, note: str, size: int, prove) -> list:
    """The default `collect`: no witness, no cosignature."""
    return []


def leaf_key(raw: bytes) -> tuple[str, int] | None:
    """(game, version) a leaf's line names, or None for a line that is no checkpoint."""
    fields = leaf_fields(raw)
    return None if fields is None else fields[:2]


def leaf_fields(raw: bytes) -> tuple[str, int, int] | None:
    """(game, version, refused attempts) a leaf's line signs, or None for a line that is no checkpoint."""
    try:
        doc = json_limits.read_document(raw)
        game, version, attempts = doc["game"], doc["version"], doc.get("attempts", 0)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not isinstance(game, str) or not all(isinstance(n, int) and not isinstance(n, bool) for n in (version, attempts)):
        return None
    return game, version, attempts


class TransparencyLog:
    """One process's view of the Merkle tree over a checkpoint log's storage, and its published heads."""

    def __init__(self, storage, heads, signer: Callable[[], Signer]):
        self.storage = storage
        self.heads = heads
        self._signer = signer
        self._lock = threading.RLock()
        self._reset()

    def _reset(self) -> None:
        self._hashes = merkle.MemoryHashes()
        self._positions = array("q")  # where each leaf's line is in the storage (byte offset or seq)
        self._leaf_of: dict[str, dict[int, int]] = {}  # game -> {version: its first leaf}
        self._versions: dict[str, list[int]] = {}  # game -> its leaves' versions, sorted
        self._covered: dict[str, tuple[int, int]] = {}  # game -> (highest version, most refused attempts) signed
        self._after = 0

    @property
    def signer(self) -> Signer:
        return self._signer()

    def sync(self) -> int:
        """Read the lines appended since the last call into the tree; returns the number of leaves."""
        with self._lock:
            while True:
                try:
                    lines, after = self.storage.tail(self._after)
                except LogShrank:  # the log was cut or replaced under this process: read it again from the start
                    self._reset()
                    lines, after = self.storage.tail(0)
                if not lines:
                    return self._hashes.leaves
                self._add(lines)
                self._after = after

    def _add(self, lines: list[tuple[int, bytes]]) -> None:
        """Lines read from the storage become leaves (with the lock held)."""
        for position, raw in lines:
            index = self._hashes.leaves
            self._hashes.append_leaf(raw)
            self._positions.append(position)
            key = leaf_fields(raw)
            if key is not None:
                game, version, attempts = key
                had = self._covered.get(game, (0, 0))
                self._covered[game] = (max(had[0], version), max(had[1], attempts))
                versions = self._leaf_of.setdefault(game, {})
                if version not in versions:
                    versions[version] = index
                    bisect.insort(self._versions.setdefault(game, []), version)

    @property
    def leaves(self) -> int:
        with self._lock:
            return self._hashes.leaves

    def root(self, size: int) -> bytes:
        with self._lock:
            return merkle.tree_hash(size, self._hashes.read)

    def leaf(self, index: int) -> bytes:
        """The bytes of leaf `index` as stored now."""
        with self._lock:
            position = self._positions[index]
        return self.storage.line_at(position)

    def leaves(self, start: int, end: int) -> list[bytes]:
        """The bytes of leaves start to end - 1 as stored now (an entry bundle's), read together."""
        with self._lock:
            positions = list(self._positions[start:end])
        return self.storage.lines_at(positions)

    def hash_tile(self, tile: Tile) -> bytes:
        """A tlog-tiles hash tile's bytes from the tree (service.evidence.tiles); the caller checks the tree holds it."""
        with self._lock:
            return hash_tile(tile, self._hashes.read)

    def find(self, game: str, version: int) -> int | None:
        """The first leaf of (game, version), or None."""
        with self._lock:
            return self._leaf_of.get(game, {}).get(version)

    def covered(self, game: str) -> tuple[int, int] | None:
        """(highest version, most refused attempts) the lines read so far sign of `game`, or None for none."""
        with self._lock:
            return self._covered.get(game)

    def nearest(self, game: str, version: int, size: int) -> tuple[int | None, int | None]:
        """The versions of `game` with a leaf among the first `size`, nearest below and above `version`."""
        with self._lock:
            found = [v for v in self._versions.get(game, []) if self._leaf_of[game][v] < size]
        at = bisect.bisect_left(found, version)
        return (found[at - 1] if at else None), (found[at] if at < len(found) else None)

    def inclusion(self, index: int, size: int) -> list[bytes]:
        with self._lock:
            return merkle.inclusion_proof(index, size, self._hashes.read)

    def consistency(self, old: int, new: int) -> list[bytes]:
        with self._lock:
            if new > self._hashes.leaves:
                self.sync()
            return merkle.consistency_proof(old, new, self._hashes.read)

    def latest(self) -> Published | None:
        return self.heads.latest()

    def publish(self, witnesses: Sequence = (), collect: Collect = no_witnesses) -> Published | None:
        """Publish the tree of every line read so far (nothing while the log is empty); returns the latest head.
        What this process wrote of the log is synced to disk first: a published tree never outlives a power cut's
        loss of its lines."""
        durable = getattr(self.storage, "make_durable", None)
        if durable is not None:
            durable()
        size = self.sync()
        if size == 0:
            return self.heads.latest()
        signer = self.signer

        def make() -> str:
            head = TreeHead(signer.name, size, self.root(size))
            note = signer.sign(head.text)
            for signature in collect(witnesses, note, size, self.consistency) if witnesses else []:
                note += signature.line
            return note

        return self.heads.publish(size, make)
