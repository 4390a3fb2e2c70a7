"""Card strings as the views show them (contract §1): rank `A 2..9 T J Q K` + suit `C D H S`, `JK` a joker."""

from __future__ import annotations

from collections import Counter

RANKS = "A23456789TJQK"
JOKER = "JK"


def rank(card: str) -> int:
    """The rank's index, Ace low: A=0, 2=1, ..., K=12."""
    return RANKS.index(card[0])


def suit(card: str) -> str:
    """The suit letter (a joker has none: '')."""
    return "" if card == JOKER else card[1]


def pips(card: str) -> int:
    """A number card's value A=1 .. T=10; face cards and jokers 0."""
    r = rank(card) if card != JOKER else 12
    return r + 1 if r <= 9 else 0


def rank_counts(cards) -> Counter:
    """How many cards of each rank index."""
    return Counter(rank(c) for c in cards if c != JOKER)


def without(cards, removed) -> list[str]:
    """`cards` with one copy of each card of `removed` taken out (multisets)."""
    out = list(cards)
    for c in removed:
        out.remove(c)
    return out
