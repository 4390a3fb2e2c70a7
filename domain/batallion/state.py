"""Batallion state and its fold: ``evolve(state, event)`` never validates, it only applies.

Hands are multisets (sorted tuples of card ints); the stock is a tuple, top first; the
discard pile a tuple, bottom first. A State is never mutated once returned.
"""

from __future__ import annotations

from ..kit.state import (evolver, folder, nested_lists, nested_tuples, replaced, restore, setup_dump, setup_load,
                         snapshot, unchanged)
from ..rules import Outcome
from .codec import suit_of
from .setup import Setup

ACQUISITION, BIDDING, BATTLES, END = "acquisition", "bidding", "battles", "end"


class State:
    """Everything the referee knows at one moment of a Batallion game (immutable: evolve returns a new one).

    Fields: setup, n; hands (tuple of sorted tuples), stock (top first), discard (bottom first);
    chips (per seat), chips_out; phase; dealer; to_act; drawn (acquisition: the seat to act has
    drawn); turns (acquisition turns done); bids ((seat, amount or None) in order); high_bid and
    high_bidder; battle ((attacker, target, cards) while the defender decides, else None);
    prev_suit; last_attacker; first_attack and minimum (the opening attack's bid, BA-4.1);
    blind_target (BA-4.3); ties (blind ties so far); reshuffles; outcome.

    Every field holds an immutable value and assigning one raises: a change is made on a
    Draft (``draft(state)``) and frozen into a new State (``Draft.freeze``).
    """

    def __setattr__(self, name, value) -> None:
        raise AttributeError(f"a Batallion State is immutable (set {name!r} on a Draft)")

    def __delattr__(self, name) -> None:
        raise AttributeError("a Batallion State is immutable")

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  (states compare by value; they are not dict keys)

    def __repr__(self) -> str:
        return f"<Batallion state phase={self.phase} to_act={self.to_act} chips={self.chips}>"


class Draft:
    """A state being changed: the same fields as a State, assignable, for one decision or one event."""

    def freeze(self) -> State:
        """The State with these fields (the draft must not be used afterwards)."""
        new = object.__new__(State)
        object.__setattr__(new, "__dict__", self.__dict__)
        return new


def draft(state: State) -> Draft:
    """A changeable copy of a state (a shallow copy: every field is immutable, so it is independent)."""
    d = object.__new__(Draft)
    d.__dict__ = state.__dict__.copy()
    return d


def initial_state(setup: Setup) -> State:
    """The table before the deal."""
    s = object.__new__(Draft)
    s.setup, s.n = setup, setup.n
    s.hands = ((),) * setup.n
    s.stock, s.discard = (), ()
    s.chips, s.chips_out = (setup.chips,) * setup.n, 0
    s.phase, s.dealer, s.to_act, s.drawn, s.turns = ACQUISITION, None, None, False, 0
    s.bids, s.high_bid, s.high_bidder = (), None, None
    s.battle, s.prev_suit, s.last_attacker = None, None, None
    s.first_attack, s.minimum, s.blind_target, s.ties, s.reshuffles = False, None, None, 0, 0
    s.outcome = None
    return s.freeze()


def without(hand: tuple, cards) -> tuple:
    """A hand with some cards taken out (one copy each)."""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _dealt(s: Draft, e: dict) -> None:
    """BA-1.2 R: one card at a time clockwise from the dealer's left; BA-2.1: the up-card starts the discard pile."""
    n, dealer, order, size = s.n, e["dealer"], e["order"], s.setup.hand_size
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(dealer + 1 + i) % n].append(order[i])
    s.hands = tuple(tuple(sorted(h)) for h in hands)
    rest = tuple(order[size * n:])
    s.discard, s.stock = rest[:1], rest[1:]
    s.dealer, s.phase, s.to_act, s.drawn, s.turns = dealer, ACQUISITION, (dealer + 1) % n, False, 0


def _drew(s: Draft, e: dict) -> None:
    seat, card = e["seat"], e["card"]
    if e["source"] == "stock":
        s.stock = s.stock[1:]
    else:
        s.discard = s.discard[:-1]
    s.hands = replaced(s.hands, seat, tuple(sorted(s.hands[seat] + (card,))))
    if s.phase == ACQUISITION:
        s.drawn = True


def _discarded(s: Draft, e: dict) -> None:
    seat = e["seat"]
    s.hands = replaced(s.hands, seat, without(s.hands[seat], e["cards"]))
    s.discard = s.discard + tuple(e["cards"])
    s.drawn, s.turns = False, s.turns + 1
    if s.turns == 3 * s.n:  # BA-2.2: three rounds, then bidding from the dealer's left (BA-3.1)
        s.phase, s.to_act = BIDDING, (s.dealer + 1) % s.n
    else:
        s.to_act = (seat + 1) % s.n


def _bid(s: Draft, e: dict) -> None:
    s.high_bid, s.high_bidder = e["amount"], e["seat"]
    _answered(s, e["seat"], e["amount"])


def _passed(s: Draft, e: dict) -> None:
    _answered(s, e["seat"], None)


def _answered(s: Draft, seat: int, amount) -> None:
    s.bids = s.bids + ((seat, amount),)
    s.to_act = None if len(s.bids) == s.n else (seat + 1) % s.n


def _attack_turn(s: Draft, e: dict) -> None:
    s.phase, s.to_act = BATTLES, e["seat"]
    s.first_attack, s.minimum = e["first"], e["minimum"]
    s.blind_target = e.get("target")
    if e.get("tie") is not None:
        s.ties = e["tie"]


def _attacked(s: Draft, e: dict) -> None:
    seat = e["seat"]
    s.hands = replaced(s.hands, seat, without(s.hands[seat], e["cards"]))
    s.battle = (seat, e["target"], tuple(e["cards"]))
    s.to_act = e["target"]


def _defended(s: Draft, e: dict) -> None:
    seat = e["seat"]
    attacker, _, attack = s.battle
    s.hands = replaced(s.hands, seat, without(s.hands[seat], e["cards"]))
    s.discard = s.discard + attack + tuple(e["cards"])  # BA-4.6: the attacker's, then the defender's, as played
    s.prev_suit = next(suit_of(c) for c in attack if suit_of(c) is not None)
    s.last_attacker, s.battle, s.first_attack, s.minimum, s.to_act = attacker, None, False, None, None


def _chips_lost(s: Draft, e: dict) -> None:
    s.chips = replaced(s.chips, e["seat"], s.chips[e["seat"]] - e["amount"])
    s.chips_out += e["amount"]


def _chips_paid(s: Draft, e: dict) -> None:
    payer, to, amount = e["seat"], e["to"], e["amount"]
    s.chips = replaced(s.chips, payer, s.chips[payer] - amount)
    s.chips = replaced(s.chips, to, s.chips[to] + amount)


def _reshuffled(s: Draft, e: dict) -> None:
    s.stock, s.discard, s.reshuffles = tuple(e["order"]), (), e["k"]


def _ended(s: Draft, e: dict) -> None:
    s.outcome = Outcome("win", tuple(e["seats"]), None, tuple(s.chips))
    s.phase, s.to_act = END, None


# One small function per event kind: what that event changes.
APPLY = {
    "dealt": _dealt, "drew": _drew, "discarded": _discarded, "bid": _bid, "passed": _passed,
    "attack_turn": _attack_turn, "attacked": _attacked, "defended": _defended, "chips_lost": _chips_lost,
    "chips_paid": _chips_paid, "reshuffled": _reshuffled, "ended": _ended, "said": unchanged,
}


apply = folder("Batallion", APPLY)  # decide folds its events on a Draft the same way
evolve = evolver(apply, thaw=draft, freeze=Draft.freeze)
_OUTCOME = ("result", "seats", "team", "scores")


def _battle_dump(battle):
    return None if battle is None else [battle[0], battle[1], list(battle[2])]


def _battle_load(battle):
    return None if battle is None else (battle[0], battle[1], tuple(battle[2]))


def dump_state(s: State) -> dict:
    """The state as JSON-safe data (snapshots)."""
    return snapshot(s, setup_dump, _OUTCOME, {"hands": nested_lists, "bids": nested_lists, "battle": _battle_dump})


def load_state(data: dict) -> State:
    """The inverse of dump_state (older snapshots' set-ups may hold keys no longer kept)."""
    return restore(Draft, data, lambda d: setup_load(Setup, d, ("names", "variants")), _OUTCOME,
                   {"hands": nested_tuples, "bids": nested_tuples, "battle": _battle_load},
                   tuples=("stock", "discard", "chips")).freeze()
