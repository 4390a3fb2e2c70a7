"""El Royale's decider: validate a move against ER-1..ER-7 and say what happened, as events.

Check order is ER-3.12's: game over (ER-4.5); say; show; seat to act (ER-3.0);
move type for the phase; the cards (non-empty, distinct, held); then the rank
and beat rules. Automatic steps (end of a battle, elimination, draws,
reshuffles, the next battle) follow the move inside the same decision.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from ..cards import PACK, RANK_MASKS, cards_of, format_card, rank_name, rank_of, suit_name, suit_of
from ..randomness import Chance, OutcomeMismatch
from ..rules import InvalidSetup, RuleViolation
from . import clauses
from .setup import HAND_SIZE, MAX_HOLDING, Setup
from .state import (APPLY, ATTACK, CLAIM, DEFENCE, JOIN, REINFORCE, SETTLE, TAKE, State, initial_state,
                    rank_count_in_pile)

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


def start(setup: Setup, chance: Chance) -> list[dict]:
    """The opening (ER-2.1, ER-2.4): dealer and starter, the deal, the first battle; raises InvalidSetup on a bad outcome."""
    try:
        dealer = setup.dealer if setup.dealer is not None else chance.randbelow("dealer", setup.n)
        starter = setup.starter if setup.starter is not None else chance.randbelow("starter", setup.n)
        order = chance.shuffle("deal", PACK)
    except OutcomeMismatch as e:
        raise InvalidSetup("outcomes", str(e)) from None
    s = initial_state(setup)
    events: list[dict] = []
    _emit(s, events, {"type": "dealt", "dealer": dealer, "starter": starter, "order": order})
    attacker = clauses.first_holding_cards(s, starter)
    defender, substitute_for = clauses.defender_for(s, attacker)
    _emit(s, events, {"type": "battle_started", "attacker": attacker, "defender": defender, "substitute_for": substitute_for})
    return events


def decide(state: State, move: dict, chance: Chance) -> list[dict]:
    """The events a legal move causes; raises RuleViolation (clause, reason) for an illegal one."""
    return step(state, move, chance)[0]


def step(state: State, move: dict, chance: Chance) -> tuple[list[dict], State]:
    """decide and evolve in one pass: the events and the state after them."""
    s = state.clone()
    return _decide(state, s, move, chance), s


def fold_step(state: State, move: dict, chance: Chance) -> tuple[list[dict], State]:
    """step for a caller that keeps no earlier state (replay): the state given becomes the state after the move.

    An illegal move leaves it as it was: every check reads the state before anything is applied. The one rule checked
    after the move is applied is ER-2.3 (a fixed reshuffle outcome that does not fit the discard pile); when the record
    fixes an outcome beyond the opening's, this is step, on a copy."""
    if chance.outcomes and not _OPENING_LABELS.issuperset(chance.outcomes):
        return step(state, move, chance)
    return _decide(state, state, move, chance), state


_OPENING_LABELS = frozenset({"deal", "dealer", "starter"})  # what start() draws; fold_step trusts no later fixed outcome


def _decide(state: State, s: State, move: dict, chance: Chance) -> list[dict]:
    """The events of a move, applied to `s`: a copy of `state`, or `state` itself (fold_step). Every check reads
    `state` before the first event is applied."""
    kind, seat = move["type"], move["seat"]
    if state.outcome is not None:
        raise RuleViolation("ER-4.5", "the game is over: no further moves")
    if kind == "say":
        return _emitted(s, {"type": "said", "seat": seat, "text": move["text"]})
    if kind == "show":
        return _emitted(s, {"type": "showed", "seat": seat, "cards": _checked_cards(state.hands[seat], move, "show")})
    if seat != state.to_act:
        raise RuleViolation("ER-3.0", f"not your turn: seat {state.to_act} is to act")
    clause, allowed = PHASES[state.phase]
    if kind not in allowed:
        raise RuleViolation(clause, f"{kind} is not allowed now: {' or '.join(allowed)} expected")
    if kind in _PLAYED:
        cards = _checked_cards(state.hands[seat], move, kind)
        _check_play(state, kind, cards)
        events = _emitted(s, {"type": _PLAYED[kind], "seat": seat, "cards": cards})
        if not s.hands[seat] and rank_count_in_pile(s, rank_of(cards[0])) == 4:  # ER-4.1
            seats, team = clauses.winners(s, seat)
            _emit(s, events, {"type": "won", "by": "win", "seats": list(seats), "team": team})
            return events
    elif kind == "take":
        events = _emitted(s, {"type": "took", "seat": seat, "cards": _checked_take(state, seat, move)})
    else:
        events = _emitted(s, {"type": _ANSWERED[kind], "seat": seat})
    if s.phase in _AUTOMATIC:
        _advance(s, events, chance)
    return events


_ANSWERED = {"pass": "passed", "concede": "conceded", "claim": "claimed"}
_PLAYED = {"attack": "attacked", "throw_in": "threw_in", "beat": "beat"}


def _emit(s: State, events: list[dict], event: dict) -> None:
    events.append(event)
    APPLY[event["type"]](s, event)  # state.apply without its check: the decider makes only known events


def _emitted(s: State, event: dict) -> list[dict]:
    """The events of a move so far: its own, applied."""
    APPLY[event["type"]](s, event)
    return [event]


def _checked_cards(hand: int, move: dict, kind: str) -> list[int]:
    """ER-3.12: a play names at least one card, none twice, each held."""
    clause = PLAY_CLAUSE[kind]
    cards = move["cards"]
    if not cards:
        raise RuleViolation(clause, f"{PLAY_NAME[kind]} names at least one card")
    seen = 0
    for c in cards:
        bit = 1 << c
        if seen & bit:
            raise RuleViolation(clause, f"{format_card(c)} is named twice")
        if not hand & bit:
            raise RuleViolation(clause, f"{format_card(c)} is not in your hand")
        seen |= bit
    return list(cards)


def _check_play(s: State, kind: str, cards: list[int]) -> None:
    """The rank rules of an attack (ER-3.1), a throw-in (ER-3.7) and a beat (ER-3.4)."""
    rank = rank_of(cards[0])
    single_rank = all(rank_of(c) == rank for c in cards)
    if kind == "attack":
        if not single_rank:
            raise RuleViolation("ER-3.1", "an attack is one card or cards of one rank")
        return
    top = s.pile[-1]
    top_rank, top_suit = rank_of(top), suit_of(top)
    if kind == "throw_in":
        if not single_rank or rank != top_rank:
            raise RuleViolation("ER-3.7", f"a throw-in now must be of rank {rank_name(top_rank)}")
        return
    if not s.revised:
        if len(cards) != 1:
            raise RuleViolation("ER-3.4", "classic: a beat is exactly one card")
        if not can_beat_classic(cards[0], top):
            raise RuleViolation("ER-3.4", f"{format_card(cards[0])} is neither of rank {rank_name(top_rank)} nor a higher {suit_name(top_suit)}")
        return
    if not single_rank:
        raise RuleViolation("ER-3.4", "revised: a beat's cards must all have one rank")
    if not can_beat_revised(cards, top):
        raise RuleViolation("ER-3.4", f"rank {rank_name(rank)} neither equals {rank_name(top_rank)} nor is higher with a card of suit {suit_name(top_suit)}")


def can_beat_classic(card: int, top: int) -> bool:
    """ER-3.4 classic: same rank as the top card, or same suit and higher."""
    return rank_of(card) == rank_of(top) or (suit_of(card) == suit_of(top) and rank_of(card) > rank_of(top))


def can_beat_revised(cards: list[int], top: int) -> bool:
    """ER-3.4 revised: cards of one rank R, R equal to the top's rank, or higher with one card of the top's suit."""
    rank = rank_of(cards[0])
    if rank == rank_of(top):
        return True
    return rank > rank_of(top) and any(suit_of(c) == suit_of(top) for c in cards)


def _checked_take(s: State, seat: int, move: dict) -> list[int]:
    """ER-5.2: any of the laid-out cards, none twice, without going above 16 cards in hand."""
    cards = list(move.get("cards") or [])
    seen = 0
    for c in cards:
        bit = 1 << c
        if seen & bit:
            raise RuleViolation("ER-5.2", f"{format_card(c)} is named twice")
        if not s.laid_out & bit:
            raise RuleViolation("ER-5.2", f"{format_card(c)} is not among the eliminated player's laid-out cards")
        seen |= bit
    after = s.hands[seat].bit_count() + len(cards)
    if cards and after > MAX_HOLDING:
        raise RuleViolation("ER-5.2", f"taking {len(cards)} card(s) would make {after} in hand: at most {MAX_HOLDING}")
    return cards


_AUTOMATIC = frozenset({CLAIM, SETTLE, TAKE})  # the phases after which _advance may have something to do


def _advance(s: State, events: list[dict], chance: Chance) -> None:
    """The automatic steps after a move: discard an unclaimed pile, settle the battle, the picks, the next battle."""
    if s.phase == CLAIM and s.to_act is None:
        _emit(s, events, {"type": "pile_discarded"})  # ER-3.8: nobody claimed
    if s.phase == SETTLE:
        _settle(s, events, chance)
    elif s.phase == TAKE and not s.queue:
        _emit(s, events, {"type": "laid_out_discarded"})  # ER-5.2
        _next_battle(s, events, chance)


def _settle(s: State, events: list[dict], chance: Chance) -> None:
    """After a battle ended: ER-5.1 elimination, ER-4.3 last side standing, ER-4.4 battle limit, then on."""
    if s.ended_by == "concede" and s.revised and s.hands[s.defender].bit_count() > MAX_HOLDING:
        _emit(s, events, {"type": "eliminated", "seat": s.defender})
        sides = clauses.sides_left(s)
        if len(sides) == 1:
            survivor = next(seat for seat in range(s.n) if s.surviving(seat))
            seats, team = clauses.winners(s, survivor)
            _emit(s, events, {"type": "won", "by": "elimination", "seats": list(seats), "team": team})
            return
    limit = s.setup.battle_limit
    if limit is not None and s.battles >= limit:
        _emit(s, events, {"type": "drawn", "battles": s.battles})
        return
    if s.phase != TAKE:
        _next_battle(s, events, chance)


def _next_battle(s: State, events: list[dict], chance: Chance) -> None:
    """ER-3.9 replenish in order (ER-2.3 reshuffles as needed), then ER-3.10 the next battle."""
    for seat in clauses.replenish_order(s):
        while s.hands[seat].bit_count() < HAND_SIZE:
            if s.deck_pos == len(s.deck):
                if not s.discard:
                    break  # ER-2.3 R: both piles empty, drawing stops
                k = s.reshuffles + 1
                try:
                    order = chance.shuffle(f"reshuffle:{k}", cards_of(s.discard))
                except OutcomeMismatch as e:
                    raise RuleViolation("ER-2.3", str(e)) from None
                _emit(s, events, {"type": "reshuffled", "k": k, "order": order})
            _emit(s, events, {"type": "drew", "seat": seat, "card": s.deck[s.deck_pos]})
    attacker = clauses.next_attacker(s)
    defender, substitute_for = clauses.defender_for(s, attacker)
    _emit(s, events, {"type": "battle_started", "attacker": attacker, "defender": defender, "substitute_for": substitute_for})


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move of the seat to act (say and show, open to every seat at any time, are not listed).

    Card order within a move is free: legality never depends on it (the last card becomes the top).
    """
    if s.outcome is not None or s.to_act is None:
        return
    seat, phase = s.to_act, s.phase
    hand = s.hands[seat]
    if phase == ATTACK:
        for rank in range(13):
            for cards in _subsets(hand & RANK_MASKS[rank]):
                yield {"seat": seat, "type": "attack", "cards": cards}
    elif phase in (JOIN, REINFORCE):
        yield {"seat": seat, "type": "pass"}
        for cards in _subsets(hand & RANK_MASKS[rank_of(s.pile[-1])]):
            yield {"seat": seat, "type": "throw_in", "cards": cards}
    elif phase == DEFENCE:
        yield {"seat": seat, "type": "concede"}
        top = s.pile[-1]
        if not s.revised:
            for c in cards_of(hand):
                if can_beat_classic(c, top):
                    yield {"seat": seat, "type": "beat", "cards": [c]}
        else:
            for rank in range(rank_of(top), 13):
                for cards in _subsets(hand & RANK_MASKS[rank]):
                    if can_beat_revised(cards, top):
                        yield {"seat": seat, "type": "beat", "cards": cards}
    elif phase == CLAIM:
        yield {"seat": seat, "type": "claim"}
        yield {"seat": seat, "type": "pass"}
    elif phase == TAKE:
        room = MAX_HOLDING - hand.bit_count()
        laid = cards_of(s.laid_out)
        for size in range(0, max(0, min(room, len(laid))) + 1):
            for cards in combinations(laid, size):
                yield {"seat": seat, "type": "take", "cards": list(cards)}


def _subsets(mask: int) -> list[list[int]]:
    """Every non-empty subset of a set of cards, as lists in pack order."""
    cards = cards_of(mask)
    return [list(c) for size in range(1, len(cards) + 1) for c in combinations(cards, size)]


def final(s: State) -> dict:
    """The referee's full view for a verdict (contract §2): laid-out cards stay under the eliminated seat."""
    from ..cards import format_cards

    hands = {}
    for seat in range(s.n):
        mask = s.hands[seat] | (s.laid_out if seat == s.laid_seat else 0)
        hands[str(seat)] = format_cards(cards_of(mask))
    return {
        "hands": hands,
        "deck_count": s.deck_count,
        "discard_count": s.discard.bit_count(),
        "battle_pile": format_cards(s.pile),
        "battles": s.battles,
        "eliminated": [seat for seat in range(s.n) if not s.surviving(seat)],
    }
