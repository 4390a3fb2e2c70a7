"""El Royale's one judge of legality, `refusal(state, move)`: ER-3.12's checks in its order -- game over (ER-4.5);
say; show; the seat to act (ER-3.0); the move type for the phase; the cards (non-empty, distinct, held); then the rank
and beat rules, or a take's (ER-5.2) -- giving the first violation, or None. `decider.step` and `decider.fold_step`
raise what it finds; `moves.legal_moves` asks its parts (`takeable_refusal` and `take_count_refusal` are two of them,
named so that it can ask them), so it never lists a move `step` refuses.
"""

from __future__ import annotations

from ..cards import format_card, rank_name, rank_of, suit_name, suit_of
from ..rules import RuleViolation
from . import clauses
from .setup import MAX_HOLDING
from .state import ATTACK, CLAIM, DEFENCE, JOIN, REINFORCE, TAKE, State

# The phase's clause and the move types it allows (ER-3.12).
PHASES = {
    ATTACK: ("ER-3.1", ("attack",)),
    JOIN: ("ER-3.2", ("pass", "throw_in")),
    DEFENCE: ("ER-3.4", ("beat", "concede")),
    REINFORCE: ("ER-3.6", ("pass", "throw_in")),
    CLAIM: ("ER-3.8", ("claim", "pass")),
    TAKE: ("ER-5.2", ("take",)),
}
# The clause a play's card errors cite (ER-3.12).
PLAY_CLAUSE = {"attack": "ER-3.1", "throw_in": "ER-3.7", "beat": "ER-3.4", "take": "ER-5.2", "show": "ER-7.2"}
PLAY_NAME = {"attack": "an attack", "throw_in": "a throw-in", "beat": "a beat", "show": "a show"}


def refusal(s: State, move: dict) -> RuleViolation | None:
    """Why the rules refuse `move` now (the first of ER-3.12's checks it fails), or None for a legal move: the one
    judge, read by `step` and `fold_step` (`moves.legal_moves` asks its parts)."""
    if s.outcome is not None:
        return RuleViolation("ER-4.5", "the game is over: no further moves")
    kind, seat = move["type"], move["seat"]
    if kind == "say":
        return None
    if kind == "show":
        return _cards_refusal(s.hands[seat], move["cards"], "show")
    refused = _turn_refusal(s, seat, kind)
    if refused is None and kind in _MOVE_RULES:
        return _MOVE_RULES[kind](s, seat, move)
    return refused


def _turn_refusal(s: State, seat: int, kind: str) -> RuleViolation | None:
    """ER-3.0: the seat to act; ER-3.12: a move type its phase allows."""
    if seat != s.to_act:
        return RuleViolation("ER-3.0", f"not your turn: seat {s.to_act} is to act")
    clause, allowed = PHASES[s.phase]
    if kind not in allowed:
        return RuleViolation(clause, f"{kind} is not allowed now: {' or '.join(allowed)} expected")
    return None


def _cards_refusal(hand: int, cards: list[int], kind: str) -> RuleViolation | None:
    """ER-3.12: a play names at least one card, none twice, each held."""
    if not cards:
        return RuleViolation(PLAY_CLAUSE[kind], f"{PLAY_NAME[kind]} names at least one card")
    seen = 0
    for c in cards:
        bit = 1 << c
        if seen & bit:
            return RuleViolation(PLAY_CLAUSE[kind], f"{format_card(c)} is named twice")
        if not hand & bit:
            return RuleViolation(PLAY_CLAUSE[kind], f"{format_card(c)} is not in your hand")
        seen |= bit
    return None


# What each move type must meet once it is the seat's turn and the phase allows it (pass, concede, claim: nothing).


def _attack_refusal(s: State, seat: int, move: dict) -> RuleViolation | None:
    """ER-3.1: cards of the hand (ER-3.12), of one rank."""
    cards = move["cards"]
    refused = _cards_refusal(s.hands[seat], cards, "attack")
    if refused is None and not clauses.one_rank(cards):
        return RuleViolation("ER-3.1", "an attack is one card or cards of one rank")
    return refused


def _throw_in_refusal(s: State, seat: int, move: dict) -> RuleViolation | None:
    """ER-3.7: cards of the hand (ER-3.12), of the top card's rank."""
    cards = move["cards"]
    refused = _cards_refusal(s.hands[seat], cards, "throw_in")
    if refused is None and not clauses.may_throw_in(cards, s.pile[-1]):
        return RuleViolation("ER-3.7", f"a throw-in now must be of rank {rank_name(rank_of(s.pile[-1]))}")
    return refused


def _beat_refusal(s: State, seat: int, move: dict) -> RuleViolation | None:
    """ER-3.4: cards of the hand (ER-3.12) that beat the top card: classic, one card; revised, cards of one rank."""
    cards = move["cards"]
    refused = _cards_refusal(s.hands[seat], cards, "beat")
    if refused is not None:
        return refused
    top = s.pile[-1]
    top_rank, top_suit = rank_of(top), suit_of(top)
    if not s.revised:
        if len(cards) != 1:
            return RuleViolation("ER-3.4", "classic: a beat is exactly one card")
        if not clauses.can_beat_classic(cards[0], top):
            return RuleViolation("ER-3.4", f"{format_card(cards[0])} is neither of rank {rank_name(top_rank)} nor a higher {suit_name(top_suit)}")
        return None
    if not clauses.one_rank(cards):
        return RuleViolation("ER-3.4", "revised: a beat's cards must all have one rank")
    if not clauses.can_beat_revised(cards, top):
        return RuleViolation("ER-3.4", f"rank {rank_name(rank_of(cards[0]))} neither equals {rank_name(top_rank)} nor is higher with a card of suit {suit_name(top_suit)}")
    return None


def _take_refusal(s: State, seat: int, move: dict) -> RuleViolation | None:
    """ER-5.2: laid-out cards (`takeable_refusal`), none twice, within the seat's room (`take_count_refusal`)."""
    cards = move.get("cards") or []
    seen = 0
    for c in cards:
        bit = 1 << c
        if seen & bit:
            return RuleViolation("ER-5.2", f"{format_card(c)} is named twice")
        refused = takeable_refusal(s, c)
        if refused is not None:
            return refused
        seen |= bit
    return take_count_refusal(s, seat, len(cards))


def takeable_refusal(s: State, card: int) -> RuleViolation | None:
    """ER-5.2: a take's card must be one of the eliminated player's laid-out cards."""
    if not s.laid_out >> card & 1:
        return RuleViolation("ER-5.2", f"{format_card(card)} is not among the eliminated player's laid-out cards")
    return None


def take_count_refusal(s: State, seat: int, count: int) -> RuleViolation | None:
    """ER-5.2: taking `count` cards must not bring the seat above 16 cards in hand (clauses.take_room)."""
    if count > clauses.take_room(s, seat):
        return RuleViolation("ER-5.2", f"taking {count} card(s) would make {s.hands[seat].bit_count() + count} in hand: at most {MAX_HOLDING}")
    return None


_MOVE_RULES = {"attack": _attack_refusal, "throw_in": _throw_in_refusal, "beat": _beat_refusal, "take": _take_refusal}
