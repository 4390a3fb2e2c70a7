"""The Four Virtues' rules as named predicates (FV-1 .. FV-5): melds, virtues, scoring."""

from __future__ import annotations

from typing import NamedTuple

JACK = 10  # rank index of J; A..10 are 0..9 (FV-1.1)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
VIRTUES = ("clubs", "diamonds", "hearts", "spades")  # a face card's virtue by its suit (FV-3)


class Meld(NamedTuple):
    """A meld on the table: its cards in the order laid, the face card, who laid it, who gave each card, the
    clubs lowering (card, new rank index) and how many cards were laid at its creation (the rest were added)."""

    cards: tuple[int, ...]
    face: int | None
    owner: int
    contributors: tuple[int, ...]
    lowered: tuple[int, int] | None
    laid: int

    @property
    def virtue(self) -> str | None:
        return None if self.face is None else VIRTUES[self.face // 13]


class Line(NamedTuple):
    """One card's part in a meld's score (FV-4.2): who gave it, whether it was added later, under which virtue."""

    card: int
    seat: int
    added: bool
    virtue: str | None
    points: int


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


def meld_lines(meld: Meld) -> list[Line]:
    """FV-3.2, FV-3.3, FV-4.2: each card of a meld with what it scores and for whom: its (possibly lowered) pip
    value for the seat that gave it, doubled under diamonds when that seat laid the meld."""
    double = meld.virtue == "diamonds"
    out = []
    for i, (card, who) in enumerate(zip(meld.cards, meld.contributors)):
        points = card_points(card, meld.lowered)
        out.append(Line(card, who, i >= meld.laid, meld.virtue, 2 * points if double and who == meld.owner else points))
    return out


def meld_points(meld: Meld, seat: int) -> int:
    """FV-4.2: what one meld scores for a seat: the sum of its lines for that seat."""
    return sum(line.points for line in meld_lines(meld) if line.seat == seat)


def round_points(melds, seat: int) -> int:
    """FV-4.2: a seat's points for a round."""
    return sum(meld_points(m, seat) for m in melds)


def holds(hand, cards) -> bool:
    """Whether a hand holds every named card, each once."""
    return len(set(cards)) == len(cards) and all(c in hand for c in cards)
