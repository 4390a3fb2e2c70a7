"""The Four Virtues' rules as named predicates (FV-1 .. FV-5): melds, virtues, scoring."""

from __future__ import annotations

JACK = 10  # rank index of J; A..10 are 0..9 (FV-1.1)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def is_face(card: int) -> bool:
    """FV-1.1: J, Q and K are face cards."""
    return card % 13 >= JACK


def effective_ranks(cards, lowered) -> list[int]:
    """Each card's rank index in a meld, the clubs-lowered card at its new rank (FV-3.3)."""
    return [lowered[1] if lowered and c == lowered[0] else c % 13 for c in cards]


def meld_kind(cards, lowered=None) -> str | None:
    """FV-2.3: 'set' (three or more of one rank) or 'run' (three or more in sequence in one suit, Ace low), else None."""
    if len(cards) < 3 or any(is_face(c) for c in cards):
        return None
    ranks = effective_ranks(cards, lowered)
    if len(set(ranks)) == 1:
        return "set"
    if len({c // 13 for c in cards}) == 1:
        ordered = sorted(ranks)
        if all(b == a + 1 for a, b in zip(ordered, ordered[1:])):
            return "run"
    return None


def card_points(card: int, lowered) -> int:
    """FV-4.2: a number card scores its (possibly lowered) pip value; face cards score nothing."""
    if is_face(card):
        return 0
    return (lowered[1] if lowered and card == lowered[0] else card % 13) + 1


def meld_points(meld, seat: int) -> int:
    """FV-3.2, FV-4.2: what one meld scores for a seat (its own cards in it; diamonds double the creator's)."""
    cards, face, owner, contributors, lowered = meld
    double = face is not None and face // 13 == DIAMONDS
    total = 0
    for card, who in zip(cards, contributors):
        if who == seat:
            points = card_points(card, lowered)
            total += 2 * points if double and who == owner else points
    return total


def round_points(melds, seat: int) -> int:
    """FV-4.2: a seat's points for a round."""
    return sum(meld_points(m, seat) for m in melds)


def holds(hand, cards) -> bool:
    """Whether a hand holds every named card, each once."""
    return len(set(cards)) == len(cards) and all(c in hand for c in cards)
