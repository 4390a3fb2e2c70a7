"""Provably fair randomness (contract §4): seeded label streams, randbelow, shuffle, commitment."""

from __future__ import annotations

import hashlib
import itertools
import secrets
import struct
from typing import Any, Iterator, Mapping, Sequence


def commitment(seed: str) -> str:
    """``sha256(bytes.fromhex(seed))`` as hex: published at creation, checked once the seed is revealed."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def new_seed() -> str:
    """A fresh secret seed of 256 bits, as hex."""
    return secrets.token_hex(32)


class Stream:
    """The byte stream of one label: SHA256(seed | label | counter) blocks, read in order."""

    __slots__ = ("_prefix", "_counter", "_buffer")

    def __init__(self, seed: str, label: str):
        self._prefix = bytes.fromhex(seed) + b"|" + label.encode("ascii") + b"|"
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        """The next n bytes of the stream."""
        while len(self._buffer) < n:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling on 64-bit words (contract §4)."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        return _uniform(n, self.words())

    def words(self, count: int | None = None) -> Iterator[int]:
        """The stream read on as 64-bit words, 8 bytes each, big-endian: `count` of them read at once (the stream
        moves past them all), or each as it is asked for (None)."""
        if count is not None:
            return iter(struct.unpack(f">{count}Q", self.read(8 * count)))
        return self._each_word()

    def _each_word(self) -> Iterator[int]:
        while True:
            yield int.from_bytes(self.read(8), "big")


_SPAN = 2**64


def _uniform(n: int, words: Iterator[int]) -> int:
    """Contract §4's rejection sampling: the first word below the largest multiple of n under 2**64, mod n."""
    limit = _SPAN - _SPAN % n
    for x in words:
        if x < limit:
            return x % n
    raise AssertionError("a stream has no end")


def randbelow(seed: str, label: str, n: int) -> int:
    """The first ``randbelow(n)`` of a label's stream."""
    return Stream(seed, label).randbelow(n)


def shuffle(seed: str, label: str, items: Sequence[Any]) -> list[Any]:
    """Fisher–Yates on the label's stream: for i from len-1 down to 1, swap i with randbelow(i+1).

    Each swap reads one word unless one is rejected (a chance below 2**-58 a swap for 64 items or fewer), so the
    words of every swap are read in one go, and the stream is read on from there should one be rejected: the same
    words in the same order as randbelow would read them (a reshuffle in analysis' rollouts, some 35 cards)."""
    out = list(items)
    stream = Stream(seed, label)
    words = itertools.chain(stream.words(max(0, len(out) - 1)), stream.words())
    for i in range(len(out) - 1, 0, -1):
        j = _uniform(i + 1, words)
        out[i], out[j] = out[j], out[i]
    return out


class OutcomeMismatch(ValueError):
    """A fixed outcome (record `outcomes`) that is not a permutation of what is shuffled, or out of range."""


class Chance:
    """Every random step of one game: the seed's streams, unless a record fixed a label's outcome.

    Stateless per label: each label names one random step, so the same label always gives
    the same result.
    """

    __slots__ = ("seed", "outcomes")

    def __init__(self, seed: str, outcomes: Mapping[str, Any] | None = None):
        self.seed = seed
        self.outcomes = dict(outcomes or {})

    def shuffle(self, label: str, items: Sequence[int]) -> list[int]:
        """The shuffled order of items for a label; raises OutcomeMismatch if a fixed outcome is not a permutation."""
        fixed = self.outcomes.get(label)
        if fixed is None:
            return shuffle(self.seed, label, items)
        if not isinstance(fixed, list) or sorted(fixed) != sorted(items):
            raise OutcomeMismatch(f"the outcome given for {label!r} is not exactly the {len(items)} cards being shuffled")
        return list(fixed)

    def salt(self, label: str) -> str:
        """32 bytes of a label's stream, as hex: a secret that the revealed seed lets anyone recompute (commitments)."""
        return Stream(self.seed, label).read(32).hex()

    def randbelow(self, label: str, n: int) -> int:
        """A uniform integer in [0, n) for a label, or its fixed outcome (raises OutcomeMismatch if out of range)."""
        fixed = self.outcomes.get(label)
        if fixed is None:
            return randbelow(self.seed, label, n)
        if not isinstance(fixed, int) or isinstance(fixed, bool) or not 0 <= fixed < n:
            raise OutcomeMismatch(f"the outcome given for {label!r} must be an integer in 0..{n - 1}")
        return fixed
