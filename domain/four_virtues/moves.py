"""The Four Virtues' legal moves, built from the hand's structure (sets by rank, runs by suit), not by trying subsets.

Every move is listed once in a canonical form: its cards in ascending order (any order of the same
cards is the same move to `decide`), a forced discard as one combination (the seat chooses the order
the cards go onto the pile). A meld is listed without a face card, then once per face card held:
diamonds and clubs plain, clubs also with every lowering that fits (FV-3.3, FV-5.1: one card, by at
least one rank, never below Ace, not to J, Q or K), hearts with `force` absent and 0..n, spades with
`draw` absent and 0..min(n, stock) (n: the meld's number cards).

The enumeration costs a few thousand candidates on the worst hands; bench/four_virtues_moves.py measures it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from .clauses import CLUBS, HEARTS, SPADES, is_face
from .state import DRAW, FINAL, State

TEN = 9  # rank index of the highest number card


def _by_rank(numbers) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c in numbers:
        out.setdefault(c % 13, []).append(c)
    return out


def _subsets(cards: list[int], least: int) -> Iterator[tuple[int, ...]]:
    for size in range(least, len(cards) + 1):
        yield from combinations(cards, size)


def plain_melds(numbers) -> Iterator[tuple[int, ...]]:
    """FV-2.3: every set (3 or 4 of one rank) and every run (3+ consecutive ranks of one suit) the cards hold."""
    for cards in _by_rank(numbers).values():
        yield from _subsets(cards, 3)
    held = set(numbers)
    for suit in range(4):
        base = 13 * suit
        for low in range(TEN + 1):
            high = low
            while high <= TEN and base + high in held:
                if high - low >= 2:
                    yield tuple(range(base + low, base + high + 1))
                high += 1


def lowered_melds(numbers) -> Iterator[tuple[tuple[int, ...], tuple[int, int]]]:
    """FV-3.3: every (cards, (card, new rank)) that is a meld only with one card lowered by at least one rank."""
    ranks = _by_rank(numbers)
    held = set(numbers)
    for rank in range(TEN):  # a set of `rank`: two or more of it and one higher card brought down to it
        for base in _subsets(ranks.get(rank, []), 2):
            for card in numbers:
                if card % 13 > rank:
                    yield tuple(sorted(base + (card,))), (card, rank)
    for suit in range(4):  # a run whose rank `gap` is filled by a higher card of the suit brought down
        first = 13 * suit
        for low in range(TEN + 1):
            for high in range(low + 2, TEN + 1):
                for gap in range(low, high + 1):
                    others = [first + r for r in range(low, high + 1) if r != gap]
                    if not all(c in held for c in others):
                        continue
                    for rank in range(gap + 1, TEN + 1):
                        card = first + rank
                        if card in held and not low <= rank <= high:
                            yield tuple(sorted(others + [card])), (card, gap)


def meld_moves(state: State, seat: int) -> Iterator[dict]:
    """Every meld the seat may lay down now, with each face card it holds and each virtue's choices."""
    hand = state.hands[seat]
    numbers = [c for c in hand if not is_face(c)]
    faces = [c for c in hand if is_face(c)]
    stock = len(state.stock)
    for cards in plain_melds(numbers):
        listed = list(cards)
        n = len(listed)
        yield {"seat": seat, "type": "meld", "cards": listed}
        for face in faces:
            move = {"seat": seat, "type": "meld", "cards": listed, "face": face}
            yield move
            suit = face // 13
            if suit == HEARTS:
                for force in range(n + 1):
                    yield {**move, "force": force}
            elif suit == SPADES:
                for draw in range(min(n, stock) + 1):
                    yield {**move, "draw": draw}
    clubs = [f for f in faces if f // 13 == CLUBS]
    if clubs:
        for cards, (card, rank) in lowered_melds(numbers):
            for face in clubs:
                yield {"seat": seat, "type": "meld", "cards": list(cards), "face": face,
                       "lowered": {"card": card, "rank": rank}}


def add_moves(state: State, seat: int) -> Iterator[dict]:
    """FV-2.4, FV-5.2: every group of number cards the seat may add to each meld on the table."""
    numbers = [c for c in state.hands[seat] if not is_face(c)]
    held = set(numbers)
    for k, meld in enumerate(state.melds):
        cards, lowered = meld.cards, meld.lowered
        ranks = sorted(lowered[1] if lowered and c == lowered[0] else c % 13 for c in cards)
        if ranks[0] == ranks[-1]:  # a set: more of its (effective) rank
            for extra in _subsets([c for c in numbers if c % 13 == ranks[0]], 1):
                yield {"seat": seat, "type": "add", "meld": k, "cards": list(extra)}
            continue
        first = 13 * (cards[0] // 13)  # a run: extend it down and up with the suit's next cards
        below = []
        while ranks[0] - len(below) - 1 >= 0 and first + ranks[0] - len(below) - 1 in held:
            below.append(first + ranks[0] - len(below) - 1)
        above = []
        while ranks[-1] + len(above) + 1 <= TEN and first + ranks[-1] + len(above) + 1 in held:
            above.append(first + ranks[-1] + len(above) + 1)
        for down in range(len(below) + 1):
            for up in range(len(above) + 1):
                if down or up:
                    yield {"seat": seat, "type": "add", "meld": k, "cards": sorted(below[:down] + above[:up])}


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move of the seat to act (`say` aside), each once in canonical form (see the module's doc)."""
    if s.outcome is not None:
        return
    if s.owed is not None:
        seat, count = s.owed
        for cards in combinations(s.hands[seat], count):
            yield {"seat": seat, "type": "forced_discard", "cards": list(cards)}
        return
    seat = s.turn
    if s.phase == DRAW:
        if s.stock:
            yield {"seat": seat, "type": "draw", "source": "stock", "count": 1}
        if len(s.stock) >= 2:
            yield {"seat": seat, "type": "draw", "source": "stock", "count": 2}
        if s.discard:
            yield {"seat": seat, "type": "draw", "source": "discard"}
        return
    yield from meld_moves(s, seat)
    yield from add_moves(s, seat)
    for card in s.hands[seat]:
        yield {"seat": seat, "type": "discard", "cards": [card]}
    if s.phase == FINAL:
        yield {"seat": seat, "type": "done"}



