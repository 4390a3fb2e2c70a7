"""Batallion's legal moves: every move of the seat to act that the one judge (`legality.refusal`) lets pass.

The shapes (cards of the hand in one suit: python-chess's pseudo-legal moves) only propose; the judge's checks decide,
so `legal_moves` never lists a move `decider.step` refuses.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Iterator

from . import clauses
from .codec import JOKER, suit_of
from .legality import (attack_cards_refusal, attack_target_refusal, bid_refusal, defence_refusal, discard_refusal,
                       draw_refusal, turn_refusal)
from .state import ACQUISITION, BIDDING, State


def _sub_multisets(cards: list[int], allow_empty: bool) -> Iterator[list[int]]:
    """Every distinct sub-multiset of some cards."""
    groups = sorted(Counter(cards).items())
    for counts in product(*(range(k + 1) for _, k in groups)):
        chosen = [c for (c, _), k in zip(groups, counts) for _ in range(k)]
        if chosen or allow_empty:
            yield chosen


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move of the seat to act (`say` aside), in a fixed order; card order within a move never matters.

    Each listed move is one `refusal` lets pass: the shapes below only propose (the cards a hand could play in
    the step) and may skip what is sure to be refused, for speed (another suit than the one a defence must
    follow or an attack must avoid); they never decide. tests/unit/test_batallion_random_games.py holds the list
    complete against brute force through `decide` over random games of every variant.
    """
    if s.outcome is not None or s.to_act is None:
        return
    seat, hand = s.to_act, s.hands[s.to_act]
    if s.phase == ACQUISITION:  # refusal: the turn's check for the move type, then the draw's or the discard's
        if turn_refusal(s, "BA-2.2", seat, "draw", ("discard",) if s.drawn else ("draw",)) is None:
            for source in ("stock", "discard"):
                if draw_refusal(s, source) is None:
                    yield {"seat": seat, "type": "draw", "source": source}
        if turn_refusal(s, "BA-2.2", seat, "discard", ("discard",) if s.drawn else ("draw",)) is None:
            for card in sorted(set(hand)):
                if discard_refusal(s, seat, [card]) is None:
                    yield {"seat": seat, "type": "discard", "cards": [card]}
    elif s.phase == BIDDING:  # refusal: the turn's check, then the bid's
        if turn_refusal(s, "BA-3.1", seat, "pass", ("bid", "pass")) is None:
            yield {"seat": seat, "type": "pass"}
        if turn_refusal(s, "BA-3.1", seat, "bid", ("bid", "pass")) is None:
            best = clauses.best_attack_value(hand, s.setup.max_group)
            for amount in range(best + 1):
                if bid_refusal(s, seat, amount, best) is None:
                    yield {"seat": seat, "type": "bid", "amount": amount}
    elif s.battle is None:  # refusal: the turn's check, then the cards', then the target's
        if turn_refusal(s, "BA-4.2", seat, "attack", ("attack",)) is not None:
            return
        targets = [t for t in range(s.n) if attack_target_refusal(s, seat, t) is None]
        suits = [suit for suit in range(4) if s.first_attack or suit != s.prev_suit]
        for cards in _shapes(hand, suits, with_joker=True):
            if targets and attack_cards_refusal(s, seat, cards) is None:
                for target in targets:
                    yield {"seat": seat, "type": "attack", "cards": cards, "target": target}
    elif turn_refusal(s, "BA-4.4", seat, "defend", ("defend",)) is None:  # refusal: the turn's check, then the defence's
        suit = next(suit_of(c) for c in s.battle[2] if c != JOKER)
        for cards in [[], *_shapes(hand, [suit], with_joker=False)]:
            if defence_refusal(s, seat, cards) is None:
                yield {"seat": seat, "type": "defend", "cards": cards}


def _shapes(hand: tuple, suits: list[int], with_joker: bool) -> Iterator[list[int]]:
    """Every non-empty set of a hand's cards of one of `suits`, each also with a joker where one is held and wanted."""
    jokers = [JOKER] if with_joker and JOKER in hand else []
    for suit in suits:
        for cards in _sub_multisets([c for c in hand if c != JOKER and c // 13 == suit], allow_empty=False):
            for extra in ([], *([j] for j in jokers)):
                yield cards + extra
