"""Contract §4 randomness: published test vectors so anyone can check a reimplementation."""

from __future__ import annotations

import hashlib

import pytest

from domain.cards import PACK, format_cards, parse_cards
from domain.randomness import Chance, OutcomeMismatch, Stream, commitment, randbelow, shuffle

# (seed, label) -> the unshuffled pack after Fisher–Yates on that label's stream, index 0 first.
SHUFFLE_VECTORS = {
    ("00", "deal"): "4S 2C 6S 5C 3S 8H 2D TC 4H 6D KC 3C QS 5S KH KD 4C AD 9S 6H 9H 7D AS 8D TD 2S JC TH QH 2H TS 9C "
                    "7H JS 5D 5H 4D 6C 9D 7S AH 3H AC QC JD 7C 8C KS 3D JH 8S QD",
    ("00ff", "deal"): "7S 9D 2H 6S 4C 8S 8H 6H 4D KC TD 9S AC KH 6D 3S AD 2C 2S JH 9H JC 3D 7C JS 5C QD KD AS 9C 4H QH "
                      "KS JD 5D 3C 3H TH TS 5H 4S QS 8D QC 7D 6C 5S 8C 7H TC AH 2D",
    ("5f2c9a", "deal"): "2S 2D JC KC QC 6S 7C AC 6C 5S TC KD JD 6D 9D JH 5D JS 3C 7S TH 8D 3H QS 2C 5C AH 9H 4C QD TS "
                        "8C 6H 5H AD 9S 8H KH 3D 7H 8S 4H 9C TD 4D 7D QH AS KS 2H 4S 3S",
    ("0123456789abcdef", "reshuffle:1"): "4C 7H 5D JH JC TC 7S 5C QH 2S 8H 2H 6H 2D 4D 9D QS 3H AH 5H JD 8C 8D 7C AD KD "
                                         "JS TS 4H 4S 7D 9S TD TH 6C AC 3S QC AS 6S 3C 9C 6D QD KC 8S 5S 3D 2C KS KH 9H",
    ("deadbeef", "pile"): "3C 6C 9D 9H 5S 4H AS 9C 3D 6S 6H 7S 2S 5D KC 2C 4C 4S JC JD KD 2H 5C 3H 7C 5H 8C TH 7H QC JS "
                          "AH KH 8S 6D AD 7D 4D AC QS QH 9S QD JH TD 2D KS TC 8H TS 8D 3S",
}
# (seed, label, n) -> the first randbelow(n) of that label's stream.
RANDBELOW_VECTORS = [("00ff", "dealer", 4, 1), ("00ff", "starter", 4, 1), ("deadbeef", "blind:1", 3, 1), ("00", "dealer", 8, 3)]


def reference_shuffle(seed: str, label: str, items: list) -> list:
    """The contract §4 algorithm written out again, independently of domain.randomness."""
    stream, counter = b"", 0

    def read8() -> int:
        nonlocal stream, counter
        while len(stream) < 8:
            stream += hashlib.sha256(bytes.fromhex(seed) + b"|" + label.encode() + b"|" + counter.to_bytes(8, "big")).digest()
            counter += 1
        x, stream = int.from_bytes(stream[:8], "big"), stream[8:]
        return x

    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            x = read8()
            if x < 2**64 - (2**64 % n):
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("seed,label", sorted(SHUFFLE_VECTORS))
def test_shuffle_of_the_unshuffled_pack_matches_the_published_vector(seed, label):
    """Contract §4: Fisher–Yates on the label's SHA-256 stream gives the published order."""
    assert format_cards(shuffle(seed, label, PACK)) == SHUFFLE_VECTORS[(seed, label)].split()


@pytest.mark.parametrize("seed,label", sorted(SHUFFLE_VECTORS))
def test_shuffle_agrees_with_an_independent_reading_of_the_contract(seed, label):
    """The vectors are not self-referential: a second implementation from the contract's text agrees."""
    assert format_cards(reference_shuffle(seed, label, list(PACK))) == SHUFFLE_VECTORS[(seed, label)].split()


@pytest.mark.parametrize("seed,label,n,expected", RANDBELOW_VECTORS)
def test_randbelow_matches_the_published_vector(seed, label, n, expected):
    """Contract §4: randbelow reads 8 big-endian bytes of the label's stream."""
    assert randbelow(seed, label, n) == expected


def test_randbelow_rejects_words_above_the_largest_multiple_of_n():
    """Contract §4: x >= 2**64 - (2**64 % n) is read again, so every result is uniform and below n."""
    stream = Stream("00", "x")
    values = [stream.randbelow(3) for _ in range(3000)]
    assert set(values) == {0, 1, 2}
    assert all(650 < values.count(v) < 1350 for v in (0, 1, 2))


def test_streams_of_different_labels_are_independent():
    """Each label has its own stream: the deal and a reshuffle of the same seed differ."""
    assert shuffle("00ff", "deal", PACK) != shuffle("00ff", "reshuffle:1", PACK)


def test_a_shuffle_reads_a_rejected_word_again_as_randbelow_does(monkeypatch):
    """shuffle reads its words in one go; a word randbelow would reject (x >= 2**64 - 2**64 % n) moves every later
    swap one word on, exactly as swap-by-swap randbelow reads. Such words are too rare to meet, so the stream's
    blocks are made here: the maximal word at the start, in the middle, and at the end of the words read ahead."""
    blocks = {0: b"\xff" * 8 + bytes(range(24)), 1: bytes(range(40, 56)) + b"\xff" * 8 + bytes(range(80, 88)),
              2: b"\xff" * 16 + bytes(range(16))}

    sha256 = hashlib.sha256

    class Block:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def digest(self) -> bytes:
            counter = int.from_bytes(self.data[-8:], "big")
            return blocks.get(counter, sha256(self.data).digest())

    monkeypatch.setattr("domain.randomness.hashlib.sha256", Block)
    for size in (2, 5, 9, 11, 12, 13, 30):
        items = list(range(size))
        stream, expected = Stream("00", "x"), list(items)
        for i in range(size - 1, 0, -1):  # Fisher-Yates swap by swap, as contract §4 states it
            j = stream.randbelow(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert shuffle("00", "x", items) == expected


def test_commitment_is_sha256_of_the_seed_bytes():
    """Contract §4: commitment = sha256(bytes.fromhex(seed)) in hex."""
    assert commitment("00ff") == "06eb7d6a69ee19e5fbdf749018d3d2abfa04bcbd1365db312eb86dc7169389b8"
    assert commitment("00ff") == hashlib.sha256(b"\x00\xff").hexdigest()


def test_a_fixed_outcome_replaces_the_seeded_shuffle():
    """Contract §2 `outcomes`: a recorded shuffle is used instead of the seed's."""
    order = parse_cards(["3C", "AC", "2C"])
    chance = Chance("00", {"reshuffle:1": order})
    assert chance.shuffle("reshuffle:1", parse_cards(["AC", "2C", "3C"])) == order
    assert chance.shuffle("reshuffle:2", [0, 1, 2]) == shuffle("00", "reshuffle:2", [0, 1, 2])


def test_a_fixed_outcome_that_is_not_the_shuffled_cards_is_refused():
    """Contract §2: a shuffle outcome must be exactly the cards being shuffled."""
    chance = Chance("00", {"reshuffle:1": parse_cards(["AC", "2C", "4C"])})
    with pytest.raises(OutcomeMismatch, match="reshuffle:1"):
        chance.shuffle("reshuffle:1", parse_cards(["AC", "2C", "3C"]))


@pytest.mark.parametrize("value", [4, -1, "1", True])
def test_a_randbelow_outcome_out_of_range_is_refused(value):
    """Contract §2: a randbelow outcome must be an integer in range."""
    with pytest.raises(OutcomeMismatch, match="dealer"):
        Chance("00", {"dealer": value}).randbelow("dealer", 4)
