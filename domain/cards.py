"""Card notation (contract §1, ER-1.4): parse and format cards as small integers.

A card is an int 0..51 equal to its index in the unshuffled pack
``AC 2C .. KC AD .. KD AH .. KH AS .. KS``: ``suit * 13 + rank`` with ranks
A=0 .. K=12 (Ace low, ER-1.3). Sets of cards are bit masks (``1 << card``).
"""

from __future__ import annotations

from typing import Callable, Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
PACK = tuple(range(52))
FULL_MASK = (1 << 52) - 1


class CardError(ValueError):
    """A string that is not a card in the notation of contract §1."""


def rank_of(card: int) -> int:
    """The rank index of a card: A=0 .. K=12."""
    return card % 13


def suit_of(card: int) -> int:
    """The suit index of a card: C=0, D=1, H=2, S=3."""
    return card // 13


def parse_card(text: str) -> int:
    """Parse ``TD``, ``10d``, ``as`` ... into a card; raises CardError naming the bad string."""
    try:
        return _SPELLINGS[text]  # every spelling the notation accepts, read once (records hold thousands of cards)
    except (KeyError, TypeError):
        return _parse_card(text)  # raises CardError, saying why


def _parse_card(text: str) -> int:
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card string")
    if not text.isascii():
        raise CardError(f"{text!r} is not a card: expected a rank of {' '.join(RANKS)} (or 10) and a suit of C D H S, e.g. 'TD'")
    t = text.upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"{text!r} is not a card: expected a rank of {' '.join(RANKS)} (or 10) and a suit of C D H S, e.g. 'TD'")
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])


# Each rank in either case (and 10 for T) with each suit in either case: the strings _parse_card accepts.
_SPELLINGS = {rank + suit: _parse_card(rank + suit)
              for rank in {*RANKS, *RANKS.lower(), "10"} for suit in {*SUITS, *SUITS.lower()}}


def format_card(card: int) -> str:
    """The canonical two-character name of a card, e.g. ``TD``."""
    return RANKS[card % 13] + SUITS[card // 13]


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Parse a list of card strings; raises CardError on the first bad one."""
    try:
        return [_SPELLINGS[t] for t in texts]
    except (KeyError, TypeError):
        return [parse_card(t) for t in texts]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Format cards in the order given."""
    return [RANKS[c % 13] + SUITS[c // 13] for c in cards]


def rank_name(rank: int) -> str:
    """The notation letter of a rank index."""
    return RANKS[rank]


def suit_name(suit: int) -> str:
    """The notation letter of a suit index."""
    return SUITS[suit]


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, in unshuffled-pack order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


RANK_MASKS = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


def rank_bits(mask: int) -> int:
    """The ranks a mask holds a card of, as 13 bits (bit r: rank r): its four suits' rows of 13 folded together."""
    return (mask | mask >> 13 | mask >> 26 | mask >> 39) & 0x1FFF


SAME_RANK = tuple(RANK_MASKS[rank_of(c)] for c in PACK)  # by card: the mask of its rank (RANK_MASKS[rank_of(c)])


def convert_cards(event: dict, convert: Callable, lists: Iterable[str], singles: Iterable[str] = ("card",)) -> dict:
    """A copy of a stored or domain event with the cards of its list fields and single-card fields passed through
    `convert` (a game's format_card to store it, parse_card to read it back); absent and null fields stay as they are."""
    out = dict(event)
    for key in lists:
        if out.get(key) is not None:
            out[key] = [convert(c) for c in out[key]]
    for key in singles:
        if out.get(key) is not None:
            out[key] = convert(out[key])
    return out
