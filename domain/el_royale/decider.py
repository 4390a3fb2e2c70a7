"""El Royale's decider: validate a move against ER-1..ER-7 and say what happened, as events.

Legality has one judge, `refusal(state, move)`: ER-3.12's checks in its order -- game over (ER-4.5); say; show;
the seat to act (ER-3.0); the move type for the phase; the cards (non-empty, distinct, held); then the rank and beat
rules, or a take's (ER-5.2) -- giving the first violation, or None. `step` raises what it finds and then only
applies the move; `moves.legal_moves` lists moves built from the parts of a move that `refusal`'s checks let pass
(`takeable_refusal` and `take_count_refusal` are two of them, named so that it can ask them), so it never lists a
move `step` refuses. Automatic steps (end of a battle, elimination, draws, reshuffles, the next battle)
follow the move inside the same decision; the one refusal they can give is ER-2.3's, a fixed reshuffle outcome that
does not fit the discard pile (an outcome of the record, not a rule of the move).
"""

from __future__ import annotations

from ..cards import PACK, cards_of, format_card, rank_name, rank_of, suit_name, suit_of
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
    """decide and evolve in one pass: the events and the state after them; raises RuleViolation."""
    refused = refusal(state, move)
    if refused is not None:
        raise refused
    s = state.clone()
    return _apply(s, move, chance), s


def fold_step(state: State, move: dict, chance: Chance) -> tuple[list[dict], State]:
    """step for a caller that keeps no earlier state (replay): the state given becomes the state after the move.

    An illegal move leaves it as it was: `refusal` reads the state before anything is applied. The one rule checked
    after the move is applied is ER-2.3 (a fixed reshuffle outcome that does not fit the discard pile); when the record
    fixes an outcome beyond the opening's, this is step, on a copy."""
    if chance.outcomes and not _OPENING_LABELS.issuperset(chance.outcomes):
        return step(state, move, chance)
    refused = refusal(state, move)
    if refused is not None:
        raise refused
    return _apply(state, move, chance), state


# fold_legal(state, move, chance): fold_step for a move the caller took, in this very state, from `moves`' lists
# (`whole_plays`, `answer`): legal by construction, so `refusal` is not asked again (analysis' rollouts, some 500
# moves a playout, docs/analysis.md). The state given becomes the state after the move; the events are returned. For a
# chance fixing no outcome beyond the opening's (ER-2.3's check could otherwise stop a move half applied). It is
# `_apply` itself: a wrapper's call a move is a few per cent of a rollout.


_OPENING_LABELS = frozenset({"deal", "dealer", "starter"})  # what start() draws; fold_step trusts no later fixed outcome


# -- the rules: refusal, ER-3.12's checks in order ------------------------------------------------------


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


# -- what a legal move does --------------------------------------------------------------------------------


def _apply(s: State, move: dict, chance: Chance) -> list[dict]:
    """The events of a move `refusal` let pass, applied to `s`, then the automatic steps that follow it."""
    kind, seat = move["type"], move["seat"]
    if kind == "say":
        return _emitted(s, {"type": "said", "seat": seat, "text": move["text"]})
    if kind == "show":
        return _emitted(s, {"type": "showed", "seat": seat, "cards": list(move["cards"])})
    if kind in _PLAYED:
        cards = list(move["cards"])
        events = _emitted(s, {"type": _PLAYED[kind], "seat": seat, "cards": cards})
        if not s.hands[seat] and rank_count_in_pile(s, rank_of(cards[0])) == 4:  # ER-4.1
            seats, team = clauses.winners(s, seat)
            _emit(s, events, {"type": "won", "by": "win", "seats": list(seats), "team": team})
            return events
    elif kind == "take":
        events = _emitted(s, {"type": "took", "seat": seat, "cards": list(move.get("cards") or [])})
    else:
        events = _emitted(s, {"type": _ANSWERED[kind], "seat": seat})
    if s.phase in _AUTOMATIC:
        _advance(s, events, chance)
    return events


fold_legal = _apply


_ANSWERED = {"pass": "passed", "concede": "conceded", "claim": "claimed"}
_PLAYED = {"attack": "attacked", "throw_in": "threw_in", "beat": "beat"}


def _emit(s: State, events: list[dict], event: dict) -> None:
    events.append(event)
    APPLY[event["type"]](s, event)  # state.apply without its check: the decider makes only known events


def _emitted(s: State, event: dict) -> list[dict]:
    """The events of a move so far: its own, applied."""
    APPLY[event["type"]](s, event)
    return [event]


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
