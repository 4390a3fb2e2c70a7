"""The Four Virtues' legal moves: candidates proposed from the hand's structure, kept where the judge lets them pass.

`legality` is the one statement of the rules. Here the move types `turn_refusal` allows now are proposed
(melds from the hand's structure — sets by rank, runs by suit, with a clubs face every (card, lower rank) that
makes a meld — rather than from subsets; additions at each meld's rank or ends; every discard, draw and forced
discard combination) and each is kept only if `legality`'s predicates find nothing against it: `move_refusal`
on each candidate, except for melds and forced discards, where each predicate is put once to the part of the move
it reads (the hand's number cards, each face card, each shape of cards and lowering — memoised, as a shape's
verdict depends on nothing else —, each `force` and `draw` value; one combination for all of a forced discard's).
So a listed move is one `refusal` accepts, and no rule is stated here. tests/unit/test_four_virtues_legal_moves.py
holds this (listed exactly when `refusal` finds nothing) and completeness against brute force through `decide`.

Every move is listed once in a canonical form: its cards in ascending order (any order of the same
cards is the same move to `decide`), a forced discard as one combination (the seat chooses the order
the cards go onto the pile). A meld is listed without a face card, then once per face card held:
diamonds and clubs plain, clubs also with every lowering, hearts with `force` absent and each value
allowed, spades likewise with `draw`.

bench/four_virtues_moves.py measures the enumeration on the worst hands and in games.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Iterator

from .clauses import is_face
from .legality import (VIRTUE_KEYS, face_refusal, force_refusal, lowering_refusal, meld_cards_refusal, meld_kind_refusal,
                       move_refusal, over_refusal, spades_draw_refusal, turn_refusal, virtue_refusal)
from .state import State

TEN = 9  # rank index of the highest number card
KINDS = ("forced_discard", "draw", "meld", "add", "discard", "done")  # the listing's order


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


def plain_meld_moves(state: State, seat: int) -> Iterator[dict]:
    """The melds without a face card the seat may lay down now, in `meld_moves`' order (the same moves it lists
    without `face`): the rollout player's choice, without proposing every face card's and lowering's variants."""
    hand = state.hands[seat]
    numbers = [c for c in hand if not is_face(c)]
    if meld_cards_refusal(hand, numbers, None) is not None:
        return
    for cards in plain_melds(numbers):
        if shape_passes(cards, None):
            yield {"seat": seat, "type": "meld", "cards": list(cards)}


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
                missing = [r for r in range(low, high + 1) if first + r not in held]
                if len(missing) > 1:
                    break  # a longer run from `low` misses them too
                higher = [first + r for r in range(high + 1, TEN + 1) if first + r in held]
                for gap in missing or range(low, high + 1):
                    others = tuple(first + r for r in range(low, high + 1) if r != gap)
                    for card in higher:
                        yield others + (card,), (card, gap)


@lru_cache(maxsize=None)  # bounded all the same: every shape proposed is one of the 3,686 the 40 number cards hold
def shape_passes(cards: tuple[int, ...], lowered: tuple[int, int] | None) -> bool:
    """Whether the judge's predicates on a meld's cards alone (the lowering, FV-3.3; a set or a run, FV-2.3) let
    them pass: they read nothing else, so each shape is judged once per process."""
    return (lowered is None or lowering_refusal(cards, *lowered) is None) and meld_kind_refusal(cards, lowered) is None


def meld_moves(state: State, seat: int) -> Iterator[dict]:
    """Every meld the seat may lay down now, with each face card it holds and each virtue's choices: the proposed
    shapes that `legality`'s meld predicates let pass, each predicate put once to the part of the move it reads."""
    hand = state.hands[seat]
    numbers = [c for c in hand if not is_face(c)]
    if meld_cards_refusal(hand, numbers, None) is not None:  # it passes every part of `numbers` once it passes them all
        return
    faces = [(f, [key for key in VIRTUE_KEYS if virtue_refusal(f, (key,)) is None])
             for f in hand if is_face(f) and face_refusal(hand, f) is None]
    choices: dict[int, tuple[list[int], list[int]]] = {}  # n -> the `force` and the `draw` values the judge allows
    for cards in plain_melds(numbers):
        if not shape_passes(cards, None):
            continue
        listed, n = list(cards), len(cards)
        yield {"seat": seat, "type": "meld", "cards": listed}
        if not faces:
            continue
        if n not in choices:
            choices[n] = ([k for k in range(n + 1) if force_refusal(k, n) is None],
                          [k for k in range(n + 1) if spades_draw_refusal(state, k, n) is None])
        forces, draws = choices[n]
        for face, keys in faces:
            move = {"seat": seat, "type": "meld", "cards": listed, "face": face}
            yield move
            if "force" in keys:
                for force in forces:
                    yield {**move, "force": force}
            if "draw" in keys:
                for draw in draws:
                    yield {**move, "draw": draw}
    lowering = [face for face, keys in faces if "lowered" in keys]
    if lowering:
        for cards, lowered in lowered_melds(numbers):
            if not shape_passes(cards, lowered):
                continue
            listed = list(cards)
            for face in lowering:
                yield {"seat": seat, "type": "meld", "cards": listed, "face": face,
                       "lowered": {"card": lowered[0], "rank": lowered[1]}}


def add_proposals(state: State, seat: int) -> Iterator[dict]:
    """FV-2.4, FV-5.2: groups of number cards that could extend each meld on the table (a set by its rank, a run at
    its ends); `add_refusal` decides."""
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


def forced_discards(s: State, seat: int) -> Iterator[dict]:
    """FV-3.4: every combination of the owed number of the seat's cards. They share one verdict (the judge reads only
    whether the cards are held and how many they are), so the first is put to it for all."""
    combos = combinations(s.hands[seat], s.owed[1])
    first = next(combos, None)
    if first is None or move_refusal(s, seat, {"seat": seat, "type": "forced_discard", "cards": list(first)}):
        return
    yield {"seat": seat, "type": "forced_discard", "cards": list(first)}
    for cards in combos:
        yield {"seat": seat, "type": "forced_discard", "cards": list(cards)}


def _proposals(s: State, seat: int, kind: str) -> Iterator[dict]:
    """The candidate moves of one type but melds and forced discards: a superset of the legal ones."""
    if kind == "draw":
        yield {"seat": seat, "type": "draw", "source": "stock", "count": 1}
        yield {"seat": seat, "type": "draw", "source": "stock", "count": 2}
        yield {"seat": seat, "type": "draw", "source": "discard"}
    elif kind == "add":
        yield from add_proposals(s, seat)
    elif kind == "discard":
        for card in s.hands[seat]:
            yield {"seat": seat, "type": "discard", "cards": [card]}
    elif kind == "done":
        yield {"seat": seat, "type": "done"}


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move of the seat to act (`say` aside), each once in canonical form (see the module's doc): the
    move types `turn_refusal` allows now, their candidates kept where `move_refusal` (or, for melds and forced
    discards, its predicates put to the parts of the move) finds nothing against them."""
    if over_refusal(s) is not None:
        return
    seat = s.owed[0] if s.owed is not None else s.turn
    for kind in KINDS:
        if turn_refusal(s, seat, kind) is not None:
            continue
        if kind == "meld":
            yield from meld_moves(s, seat)
        elif kind == "forced_discard":
            yield from forced_discards(s, seat)
        else:
            yield from (move for move in _proposals(s, seat, kind) if move_refusal(s, seat, move) is None)
