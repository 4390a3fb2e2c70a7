"""Batallion's decider: validate a move against BA-1..BA-6 and say what happened, as events.

Legality has one judge, `legality.refusal(state, move)`, in BA-6.3's order. `step` raises what it finds and then
only applies the move; `moves.legal_moves` lists only moves it lets pass. Automatic steps (the start of bidding and of each attack turn with its
skips and blind roll, chips moving, drawing back with reshuffles, the end) follow the move
inside the same decision.
"""

from __future__ import annotations

from ..kit.decider import decide_by, emitter, judged, opening_outcomes, reshuffled
from ..randomness import Chance, OutcomeMismatch
from ..rules import RuleViolation
from . import clauses
from .codec import format_card, pack
from .legality import refusal
from .setup import Setup
from .state import ACQUISITION, BIDDING, Draft, State, apply, draft

_emit = emitter(apply)


def start(setup: Setup, chance: Chance) -> list[dict]:
    """The opening: the dealer (from the seed unless given), the shuffle, the deal and the up-card (BA-1.2, BA-2.1)."""
    with opening_outcomes():
        dealer = setup.dealer if setup.dealer is not None else chance.randbelow("dealer", setup.n)
        order = chance.shuffle("deal", pack(setup))
    return [{"type": "dealt", "dealer": dealer, "hand_size": setup.hand_size, "order": order}]


def _play(s: Draft, events: list[dict], move: dict, chance: Chance) -> None:
    """What a legal move makes happen in its step, and the automatic steps that follow it."""
    if s.phase == ACQUISITION:
        _acquisition(s, events, move)
    elif s.phase == BIDDING:
        _bidding(s, events, move, chance)
    elif s.battle is None:
        _emit(s, events, {"type": "attacked", "seat": move["seat"], "target": move["target"],
                          "cards": list(move["cards"]), "first": s.first_attack})
    else:
        _defence(s, events, move, chance)


step = judged(refusal, _play, apply, thaw=draft, freeze=Draft.freeze)
decide = decide_by(step)


# -- BA-2 acquisition and BA-3 bidding: what a legal move does ------------------------------------------


def _acquisition(s: Draft, events: list[dict], move: dict) -> None:
    seat = move["seat"]
    if move["type"] == "draw":
        card = s.stock[0] if move["source"] == "stock" else s.discard[-1]
        _emit(s, events, {"type": "drew", "seat": seat, "source": move["source"], "card": card})
    else:
        _emit(s, events, {"type": "discarded", "seat": seat, "cards": list(move["cards"])})


def _bidding(s: Draft, events: list[dict], move: dict, chance: Chance) -> None:
    seat = move["seat"]
    if move["type"] == "pass":
        _emit(s, events, {"type": "passed", "seat": seat})
    else:
        _emit(s, events, {"type": "bid", "seat": seat, "amount": move["amount"]})
    if s.to_act is None:  # everybody answered: the high bidder (or the dealer, BA-3.3) attacks first
        attacker = s.high_bidder if s.high_bidder is not None else s.dealer
        _begin_turn(s, events, chance, attacker, [], first=True)


# -- BA-4 battles ------------------------------------------------------------------------------------


def _begin_turn(s: Draft, events: list[dict], chance: Chance, seat: int, skipped: list[int], first: bool) -> None:
    """An attack turn begins: under `blind` the target is fixed now, after skips (BA-4.3, BA-6.2)."""
    event = {"type": "attack_turn", "seat": seat, "skipped": skipped, "first": first,
             "minimum": s.high_bid if first else None}
    if s.setup.has("blind"):
        tied = clauses.richest_others(s, seat)
        if len(tied) == 1:
            event["target"] = tied[0]
        else:
            k = s.ties + 1
            try:
                roll = chance.randbelow(f"blind:{k}", len(tied))
            except OutcomeMismatch as e:
                raise RuleViolation("BA-4.3", str(e)) from None
            event.update(target=tied[roll], tie=k, roll=roll, tied=tied)
    _emit(s, events, event)


def _defence(s: Draft, events: list[dict], move: dict, chance: Chance) -> None:
    seat, cards = move["seat"], move["cards"]
    attacker, target, attack = s.battle
    a, d = clauses.attack_value(list(attack), s.setup.max_group), clauses.battle_value(cards)
    _emit(s, events, {"type": "defended", "seat": seat, "cards": list(cards), "attack_value": a, "defence_value": d})
    if a > d:  # BA-4.5: the defender loses A - D chips, out of the game (R: never more than held)
        lost = min(a - d, s.chips[target])
        if lost:
            _emit(s, events, {"type": "chips_lost", "seat": target, "amount": lost})
    elif d > a:  # the attacker pays 2 x (D - A) to the defender (R: only what it holds)
        paid = min(2 * (d - a), s.chips[attacker])
        if paid:
            _emit(s, events, {"type": "chips_paid", "seat": attacker, "to": target, "amount": paid})
    if min(s.chips) == 0:  # BA-5.1 R: at once, before anyone draws back
        _emit(s, events, {"type": "ended", "by": "chips", "seats": list(clauses.winners(s.chips))})
        return
    for drawer in (target, attacker):  # BA-4.6: the defender, then the attacker
        _draw_back(s, events, chance, drawer)
    if s.setup.has("scarcity") and any(not hand for hand in s.hands):  # BA-5.1 R: after the draw-back, every seat
        _emit(s, events, {"type": "ended", "by": "scarcity", "seats": list(clauses.winners(s.chips))})
        return
    nxt, skipped = clauses.next_attacker(s)
    if nxt is None:  # BA-4.2 R: every player skipped in turn
        _emit(s, events, {"type": "ended", "by": "skips", "seats": list(clauses.winners(s.chips)), "skipped": skipped})
        return
    _begin_turn(s, events, chance, nxt, skipped, first=False)


def _draw_back(s: Draft, events: list[dict], chance: Chance, seat: int) -> None:
    """BA-4.6: draw up to the hand size; an empty stock is rebuilt from the discard pile (not under scarcity)."""
    while len(s.hands[seat]) < s.setup.hand_size:
        if not s.stock:
            if s.setup.has("scarcity") or not s.discard:
                return
            _emit(s, events, reshuffled(chance, s.reshuffles + 1, sorted(s.discard), "BA-4.6"))
        _emit(s, events, {"type": "drew", "seat": seat, "source": "stock", "card": s.stock[0], "refill": True})


def final(s: State) -> dict:
    """The verdict's `final` object (contract §2): the referee's full view."""
    battle = None
    if s.battle is not None:
        battle = {"attacker": s.battle[0], "target": s.battle[1], "cards": [format_card(c) for c in s.battle[2]]}
    return {
        "hands": {str(seat): [format_card(c) for c in hand] for seat, hand in enumerate(s.hands)},
        "chips": {str(seat): c for seat, c in enumerate(s.chips)},
        "chips_out": s.chips_out,
        "stock_count": len(s.stock),
        "discard": [format_card(c) for c in s.discard],
        "battle": battle,
        "phase": s.phase,
        "high_bid": s.high_bid,
    }
