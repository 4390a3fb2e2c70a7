"""Batallion's one judge of legality, `refusal(state, move)`: every check in BA-6.3's order — the end (BA-5.1);
say; the seat to act and the move type for the step (BA-2.2, BA-3.1, BA-4.1/BA-4.2, BA-4.4); then the step's own
checks — giving the first violation, or None. `decider.step` raises what it finds; `moves.legal_moves` asks its parts.
"""

from __future__ import annotations

from ..rules import RuleViolation
from . import clauses
from .codec import JOKER, format_card, suit_of
from .state import ACQUISITION, BIDDING, Draft, State

SUIT_NAMES = "clubs diamonds hearts spades".split()


def refusal(s: State, move: dict) -> RuleViolation | None:
    """Why the rules refuse `move` now (the first of BA-6.3's checks it fails), or None for a legal move."""
    if s.outcome is not None:
        return RuleViolation("BA-5.1", "the game is over: no further moves")
    seat, kind = move["seat"], move["type"]
    if kind == "say":
        return None
    if s.phase == ACQUISITION:
        return (turn_refusal(s, "BA-2.2", seat, kind, ("discard",) if s.drawn else ("draw",))
                or (draw_refusal(s, move["source"]) if kind == "draw" else discard_refusal(s, seat, move["cards"])))
    if s.phase == BIDDING:
        return turn_refusal(s, "BA-3.1", seat, kind, ("bid", "pass")) or (bid_refusal(s, seat, move["amount"]) if kind == "bid" else None)
    if s.battle is None:
        return (turn_refusal(s, "BA-4.1" if s.first_attack else "BA-4.2", seat, kind, ("attack",))
                or attack_refusal(s, seat, move["cards"], move["target"]))
    return turn_refusal(s, "BA-4.4", seat, kind, ("defend",)) or defence_refusal(s, seat, move["cards"])


def turn_refusal(s: State, clause: str, seat: int, kind: str, allowed: tuple[str, ...]) -> RuleViolation | None:
    if seat != s.to_act:
        return RuleViolation(clause, f"not your turn: seat {s.to_act} is to act")
    if kind not in allowed:
        return RuleViolation(clause, f"{kind} is not allowed now: {' or '.join(allowed)} expected")
    return None


def draw_refusal(s: State, source: str) -> RuleViolation | None:
    """BA-2.2: a draw from the stock or the discard pile, if it holds a card."""
    if not (s.stock if source == "stock" else s.discard):
        return RuleViolation("BA-2.2", f"the {'stock' if source == 'stock' else 'discard pile'} is empty")
    return None


def discard_refusal(s: State, seat: int, cards: list[int]) -> RuleViolation | None:
    """BA-2.2: one card of the hand."""
    if len(cards) != 1:
        return RuleViolation("BA-2.2", "discard exactly one card")
    if not clauses.holds(s.hands[seat], cards):
        return RuleViolation("BA-2.2", f"you do not hold {format_card(cards[0])}")
    return None


def bid_refusal(s: State, seat: int, amount: int, best: int | None = None) -> RuleViolation | None:
    """BA-3.2: at least the minimum, above the high bid, and no more than the bidder's best attack is worth (`best`:
    that worth, when the caller has it already)."""
    if amount < s.setup.min_bid:
        return RuleViolation("BA-3.2", f"a bid is at least {s.setup.min_bid}")
    if s.high_bid is not None and amount <= s.high_bid:
        return RuleViolation("BA-3.2", f"a bid must be higher than the high bid of {s.high_bid}")
    if amount > (clauses.best_attack_value(s.hands[seat], s.setup.max_group) if best is None else best):
        return RuleViolation("BA-3.2", "the bid is higher than the value of your best attack")
    return None


def attack_refusal(s: State | Draft, seat: int, cards: list[int], target: int) -> RuleViolation | None:
    """BA-6.3's attack checks, in its order: the cards first, then the target."""
    return attack_cards_refusal(s, seat, cards) or attack_target_refusal(s, seat, target)


def attack_cards_refusal(s: State | Draft, seat: int, cards: list[int]) -> RuleViolation | None:
    clause = "BA-4.1" if s.first_attack else "BA-4.2"
    if not cards:
        return RuleViolation(clause, "an attack needs at least one card")
    if not clauses.holds(s.hands[seat], cards):
        return RuleViolation(clause, "you do not hold " + " ".join(format_card(c) for c in cards))
    jokers = cards.count(JOKER)
    if jokers > 1:
        return RuleViolation("BA-1.4", "at most one joker in one attack")
    if jokers == len(cards):
        return RuleViolation("BA-1.4", "a joker may only be played as a further copy of a card also played")
    suits = clauses.suits_of(cards)
    if len(suits) != 1:
        return RuleViolation(clause, "an attack is made with cards of one suit")
    suit = suits.pop()
    if not s.first_attack and suit == s.prev_suit:
        return RuleViolation("BA-4.2", f"the previous attack was in {SUIT_NAMES[suit]}: choose another suit")
    if jokers and clauses.joker_group(cards, s.setup.max_group) is None:
        return RuleViolation("BA-1.4", "the joker can join no group: every group is already at its largest")
    if s.first_attack and s.minimum is not None and clauses.attack_value(cards, s.setup.max_group) < s.minimum:
        return RuleViolation("BA-4.1", f"the first attack must be worth at least the bid of {s.minimum}")
    return None


def attack_target_refusal(s: State | Draft, seat: int, target: int) -> RuleViolation | None:
    clause = "BA-4.1" if s.first_attack else "BA-4.2"
    if target == seat:
        return RuleViolation(clause, "you may not attack yourself")
    if s.blind_target is not None and target != s.blind_target:
        return RuleViolation("BA-4.3", f"under blind the attack goes to seat {s.blind_target}, the opponent with the most chips")
    return None


def defence_refusal(s: State, seat: int, cards: list[int]) -> RuleViolation | None:
    """BA-4.4: cards of the hand, no joker, all of the attack's suit (none at all is a defence too)."""
    if not clauses.holds(s.hands[seat], cards):
        return RuleViolation("BA-4.4", "you do not hold " + " ".join(format_card(c) for c in cards))
    if JOKER in cards:
        return RuleViolation("BA-4.4", "a joker may not be part of a defence (BA-1.4)")
    suit = next(suit_of(c) for c in s.battle[2] if c != JOKER)
    if any(suit_of(c) != suit for c in cards):
        return RuleViolation("BA-4.4", f"a defence is made with cards of the attack's suit, {SUIT_NAMES[suit]}")
    return None
