"""Batallion's computer analysis (domain/spec.py `Analysis`, docs/analysis.md): a full state sampled from one seat's
knowledge, and a cheap rollout player.

What the seat knows (BA-1.2, BA-2.1, BA-2.2, BA-4.6): its own deal and stock draws; the up-card and every card
taken from the discard pile (face up); every discard, attack and defence. The discard pile is public in order; a
reshuffle makes its cards unseen again, in one pool (domain.hidden). Unseen: the other hands' cards no one saw them
get, and the stock. Public fields (chips, bids, turns, the battle, ...) are folded from the same events with the
hidden cards left blank; hands and stock are then set from one deal of the unseen cards, uniform among the deals in
which every bidder still holding the hand it bid with (no attack or defence with cards since) is backed by its best suit
(BA-3.2 tells everyone that much): each such bidder's hand is drawn in turn, up to `REDEALS` times, until it backs
its bid (`Hidden.deal_where`: uniform for one bid, each hand uniform given those drawn before it for several). Two copies of one card
(two packs) are told apart by the pool they came from where the seat could tell; where it could not, the first pool.

`playout`: draw from the stock and throw the card of the suit held fewest of; pass every bid; attack with every card
of the suit held most of (not the previous suit), a random target (the blind one under `blind`); defend with every
card of the suit. Value: the seat's chips at the end (`unit` "score").
"""

from __future__ import annotations

import random

from ..hidden import Hidden
from ..randomness import Chance
from ..rules import RuleViolation
from .clauses import best_attack_value
from .codec import JOKER, pack, parse_card, suit_of
from .decider import step
from .moves import legal_moves
from .setup import Setup
from .state import ACQUISITION, BIDDING, State, apply, draft, initial_state

STOCK = "stock"
MAX_PLAYOUT = 2000
REDEALS = 5000  # draws tried for a bidder's hand that backs its bid (BA-3.2); each draws that hand only


def _cards(values) -> list[int]:
    return [parse_card(v) for v in values]


def sample(setup: Setup, seat: int, seen: list[dict], rng: random.Random, hands: dict | None = None) -> State:
    """One full state consistent with everything `seat` saw, and nothing else; with `hands` ({seat: cards}, REFEREE
    ONLY: a colluding partner's hand, domain.collusion), also with those seats holding exactly those cards."""
    hidden, shadow = Hidden(), draft(initial_state(setup))
    discard: list[int] = []
    changed: set[int] = set()  # seats whose hand changed since the bidding: an attack, a defence with cards (only
    # those who played draw back, BA-4.6; a surrender changes nothing)
    for item in seen:
        kind, data = item["kind"], item["data"]
        event = {"type": kind, **data}
        who = data.get("seat")
        if shadow.bids and (kind == "attacked" or kind == "defended" and data["cards"]):
            changed.add(who)
        if kind == "dealt":
            hand, up = _cards(data["hand"]), parse_card(data["up_card"])
            hidden.add_known(seat, hand)
            rest = pack(setup)
            for c in hand + [up]:
                rest.remove(c)
            hidden.new_pool(0, rest)
            for other in range(setup.n):
                if other != seat:
                    hidden.give_unseen(other, 0, data["hand_size"])
            hidden.give_unseen(STOCK, 0, data["stock_count"])
            dealt = data["hand_size"] * setup.n
            event = {"type": kind, "dealer": data["dealer"], "order": [0] * dealt + [up] + [0] * data["stock_count"]}
            discard = [up]
        elif kind == "drew":
            if data["source"] == "discard":
                card = parse_card(data["card"])
                discard.pop()
                hidden.add_known(who, [card])
            elif "card" in data:
                card = parse_card(data["card"])
                hidden.move_unseen(STOCK, seat)
                hidden.locate(card, seat, new=True)
            else:
                hidden.move_unseen(STOCK, who)
                card = 0
            event["card"] = card
        elif kind in ("discarded", "attacked", "defended"):
            cards = _cards(data["cards"])
            hidden.take_known(who, cards)
            event["cards"] = cards
            shadow.hands = tuple(tuple(sorted(h + tuple(cards))) if s == who else h for s, h in enumerate(shadow.hands))
            if kind == "discarded":
                discard.extend(cards)
            elif kind == "defended":
                discard.extend(list(shadow.battle[2]) + cards)
        elif kind == "reshuffled":
            hidden.new_pool(("reshuffle", data["k"]), discard)
            hidden.give_unseen(STOCK, ("reshuffle", data["k"]), len(discard))
            event = {"type": kind, "k": data["k"], "order": [0] * len(discard)}
            discard = []
        apply(shadow, event)
    for other, cards in (hands or {}).items():
        hidden.reveal(other, list(cards))
    pending = [(b, amount) for b, amount in shadow.bids if amount is not None and b != seat and b not in changed]
    dealt = None
    if pending:  # BA-3.2: a bid still to be backed shows its bidder holds a suit worth it
        bids = dict(pending)

        def backed(bidder: int, hand: list[int]) -> bool:
            return best_attack_value(tuple(hand), setup.max_group) >= bids[bidder]
        dealt = hidden.deal_where(rng, list(bids), backed, REDEALS)
    if dealt is None:
        dealt = hidden.deal(rng)
    shadow.hands = tuple(tuple(sorted(dealt.get(s, ()))) for s in range(setup.n))
    shadow.stock = tuple(dealt.get(STOCK, ()))
    shadow.discard = tuple(discard)
    return shadow.freeze()


def hand(state: State, seat: int) -> list[int]:
    """The cards of `seat`'s hand in a full state (what `sample`'s `hands` takes)."""
    return list(state.hands[seat])


# -- the rollout player ---------------------------------------------------------------------------------------------


def _by_suit(hand: tuple) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c in hand:
        if c != JOKER:
            out.setdefault(suit_of(c), []).append(c)
    return out


def choose(s: State, rng: random.Random) -> dict:
    """The cheap player's move for the seat to act (see the module doc)."""
    seat, hand = s.to_act, s.hands[s.to_act]
    if s.phase == ACQUISITION:
        if not s.drawn:
            return {"seat": seat, "type": "draw", "source": "stock" if s.stock else "discard"}
        suits = _by_suit(hand)
        if not suits:
            return {"seat": seat, "type": "discard", "cards": [hand[0]]}
        fewest = min(len(v) for v in suits.values())
        return {"seat": seat, "type": "discard", "cards": [rng.choice([v for v in suits.values() if len(v) == fewest])[0]]}
    if s.phase == BIDDING:
        return {"seat": seat, "type": "pass"}
    if s.battle is None:
        suits = {k: v for k, v in _by_suit(hand).items() if s.first_attack or k != s.prev_suit}
        most = max(len(v) for v in suits.values())
        cards = rng.choice([v for v in suits.values() if len(v) == most])
        target = s.blind_target if s.blind_target is not None else rng.choice([t for t in range(s.n) if t != seat])
        return {"seat": seat, "type": "attack", "cards": cards, "target": target}
    suit = next(suit_of(c) for c in s.battle[2] if c != JOKER)
    return {"seat": seat, "type": "defend", "cards": _by_suit(hand).get(suit, [])}


def playout(state: State, seat: int, rng: random.Random, chance: Chance) -> float:
    """Play on to the end (a copy: states are immutable); the seat's chips."""
    s = state
    for _ in range(MAX_PLAYOUT):
        if s.outcome is not None:
            break
        try:
            s = step(s, choose(s, rng), chance)[1]
        except RuleViolation:  # the simple choice missed a rule (a bid's minimum, a joker): any legal move
            legal = list(legal_moves(s))
            if not legal:  # a bid the sampled hand cannot back (REDEALS ran out): the game stops here
                break
            s = step(s, rng.choice(legal), chance)[1]
    return float(s.chips[seat])


def candidates(state: State, seat: int) -> list[dict] | None:
    """Every legal move, but attacks and defences: per suit and target, every card of the suit or its lowest one;
    a defence of none, the lowest card or every card of the suit (the move played is always added)."""
    if state.phase in (ACQUISITION, BIDDING) or state.outcome is not None:
        return None
    legal = list(legal_moves(state))
    keep = []
    for m in legal:
        cards = [c for c in m.get("cards", ()) if c != JOKER]
        if not cards:
            keep.append(m)
            continue
        suit_cards = _by_suit(state.hands[seat]).get(suit_of(cards[0]), [])
        if len(m["cards"]) == len(cards) and (sorted(cards) == sorted(suit_cards) or cards == [min(suit_cards)]):
            keep.append(m)
    return keep
