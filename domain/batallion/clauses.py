"""Batallion's rules as named predicates (BA-1 .. BA-6), each citing its clause."""

from __future__ import annotations

from typing import Iterable

from .codec import JOKER, suit_of


def _groups(cards: Iterable[int]) -> dict[int, int]:
    """How many of each card (jokers aside): a plain dict is quicker than Counter for a handful of cards."""
    groups: dict[int, int] = {}
    for c in cards:
        if c != JOKER:
            groups[c] = groups.get(c, 0) + 1
    return groups


def battle_value(cards: Iterable[int]) -> int:
    """BA-1.3: over groups of identical cards, the sum of the group size squared (1, 4, 9); jokers not counted."""
    return sum(k * k for k in _groups(cards).values())


def joker_group(cards: list[int], max_group: int) -> int | None:
    """BA-1.4 R: the size of the group a joker joins for the highest value (the largest below the maximum), or None."""
    sizes = [k for k in _groups(cards).values() if k < max_group]
    return max(sizes) if sizes else None


def attack_value(cards: list[int], max_group: int) -> int:
    """BA-1.3 and BA-1.4 R: the battle value of an attack, its joker counted as the copy that adds most."""
    value = battle_value(cards)
    if JOKER in cards:
        g = joker_group(cards, max_group)
        if g is not None:
            value += 2 * g + 1  # (g + 1)^2 - g^2
    return value


def holds(hand: tuple, cards: list[int]) -> bool:
    """Whether a hand holds every named card (a card named twice must be held twice, BA-6.3)."""
    if len(cards) == 1:
        return cards[0] in hand
    rest = list(hand)
    for c in cards:  # each named card takes one copy out of the hand (jokers too)
        try:
            rest.remove(c)
        except ValueError:
            return False
    return True


def suits_of(cards: Iterable[int]) -> set[int]:
    """The suits among some cards (jokers have none, BA-1.4)."""
    return {suit_of(c) for c in cards if c != JOKER}


def best_attack_value(hand: tuple, max_group: int) -> int:
    """BA-3.2 R: the highest value of any attack the bidder could make now, a joker included where BA-1.4 allows."""
    best = 0
    has_joker = JOKER in hand
    for suit in range(4):
        cards = [c for c in hand if c != JOKER and c // 13 == suit]
        if not cards:
            continue
        value = battle_value(cards)
        if has_joker:
            g = joker_group(cards, max_group)
            if g is not None:
                value += 2 * g + 1
        best = max(best, value)
    return best


def has_allowed_suit(hand: tuple, prev_suit: int | None) -> bool:
    """BA-4.2 R, BA-6.1: whether a seat holds a card of a suit other than the previous attack's (jokers alone are not a suit)."""
    return any(c != JOKER and c // 13 != prev_suit for c in hand)


def next_attacker(s) -> tuple[int | None, list[int]]:
    """BA-6.1: the next attacker clockwise from the last one (who comes last), skipping seats without an allowed suit.

    Returns (seat or None when every seat is skipped, the seats skipped in order).
    """
    skipped = []
    for k in range(1, s.n + 1):
        seat = (s.last_attacker + k) % s.n
        if has_allowed_suit(s.hands[seat], s.prev_suit):
            return seat, skipped
        skipped.append(seat)
    return None, skipped


def richest_others(s, attacker: int) -> list[int]:
    """BA-4.3: the opponents holding the most chips, seats ascending."""
    others = [seat for seat in range(s.n) if seat != attacker]
    most = max(s.chips[seat] for seat in others)
    return [seat for seat in others if s.chips[seat] == most]


def winners(chips: tuple) -> tuple[int, ...]:
    """BA-5.1: the seats with the most chips (a tie is a shared win, R)."""
    most = max(chips)
    return tuple(seat for seat, c in enumerate(chips) if c == most)
