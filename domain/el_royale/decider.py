"""El Royale's decider: validate a move against ER-1..ER-7 and say what happened, as events.

Legality has one judge, `legality.refusal(state, move)`, in ER-3.12's order. `step` raises what it finds and then
only applies the move; `moves.legal_moves` lists only moves it lets pass. Automatic steps (end of a battle, elimination, draws, reshuffles, the next battle)
follow the move inside the same decision; the one refusal they can give is ER-2.3's, a fixed reshuffle outcome that
does not fit the discard pile (an outcome of the record, not a rule of the move).
"""

from __future__ import annotations

from ..cards import PACK, cards_of, rank_of
from ..kit.decider import decide_by, opening_outcomes, reshuffled
from ..randomness import Chance
from . import clauses
from .legality import refusal
from .setup import HAND_SIZE, MAX_HOLDING, Setup
from .state import APPLY, CLAIM, SETTLE, TAKE, State, initial_state, rank_count_in_pile


def start(setup: Setup, chance: Chance) -> list[dict]:
    """The opening (ER-2.1, ER-2.4): dealer and starter, the deal, the first battle; raises InvalidSetup on a bad outcome."""
    with opening_outcomes():
        dealer = setup.dealer if setup.dealer is not None else chance.randbelow("dealer", setup.n)
        starter = setup.starter if setup.starter is not None else chance.randbelow("starter", setup.n)
        order = chance.shuffle("deal", PACK)
    s = initial_state(setup)
    events: list[dict] = []
    _emit(s, events, {"type": "dealt", "dealer": dealer, "starter": starter, "order": order})
    attacker = clauses.first_holding_cards(s, starter)
    defender, substitute_for = clauses.defender_for(s, attacker)
    _emit(s, events, {"type": "battle_started", "attacker": attacker, "defender": defender, "substitute_for": substitute_for})
    return events


def step(state: State, move: dict, chance: Chance) -> tuple[list[dict], State]:
    """decide and evolve in one pass: the events and the state after them; raises RuleViolation."""
    refused = refusal(state, move)
    if refused is not None:
        raise refused
    s = state.clone()
    return _apply(s, move, chance), s


decide = decide_by(step)

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


# -- what a legal move does --------------------------------------------------------------------------------


def _apply(s: State, move: dict, chance: Chance) -> list[dict]:
    """The events of a move `refusal` let pass, applied to `s`, then the automatic steps that follow it.

    The answers (pass, concede, claim) are looked up first: passes are some 70% of a rollout's moves. Each event is
    applied by its entry of APPLY, as `_emit` does, written out here to spare a call a move."""
    kind, seat = move["type"], move["seat"]
    answered = _ANSWERED.get(kind)
    if answered is not None:
        event = {"type": answered, "seat": seat}
        APPLY[answered](s, event)
        events = [event]
    elif kind in _PLAYED:
        cards = list(move["cards"])
        played = _PLAYED[kind]
        event = {"type": played, "seat": seat, "cards": cards}
        APPLY[played](s, event)
        events = [event]
        if not s.hands[seat] and rank_count_in_pile(s, rank_of(cards[0])) == 4:  # ER-4.1
            seats, team = clauses.winners(s, seat)
            _emit(s, events, {"type": "won", "by": "win", "seats": list(seats), "team": team})
            return events
    elif kind == "take":
        events = _emitted(s, {"type": "took", "seat": seat, "cards": list(move.get("cards") or [])})
    elif kind == "say":
        return _emitted(s, {"type": "said", "seat": seat, "text": move["text"]})
    elif kind == "show":
        return _emitted(s, {"type": "showed", "seat": seat, "cards": list(move["cards"])})
    else:
        raise KeyError(kind)  # unreachable through step and fold_step: `refusal` refuses any other move type
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
    drew = APPLY["drew"]  # _emit written out for the draws: a battle's commonest events after its moves
    for seat in clauses.replenish_order(s):
        for _ in range(HAND_SIZE - s.hands[seat].bit_count()):  # each draw adds one card the hand did not hold
            if s.deck_pos == len(s.deck):
                if not s.discard:
                    break  # ER-2.3 R: both piles empty, drawing stops
                _emit(s, events, reshuffled(chance, s.reshuffles + 1, cards_of(s.discard), "ER-2.3"))
            event = {"type": "drew", "seat": seat, "card": s.deck[s.deck_pos]}
            events.append(event)
            drew(s, event)
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
