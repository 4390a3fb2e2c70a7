"""Batallion's heuristic bot: build the best suit, bid on it, attack the richest player with it, defend in full.

Battle value (BA-1.3): per suit, the sum over groups of identical cards of the group size
squared (twins, triplets with five_six); a joker joins the group where it adds most (BA-1.4).
The bot draws the discard pile's card when it helps its best suit (or makes a twin), discards
the card that adds least to its suits, bids the lowest allowed amount when its best attack
clears it with a margin, attacks with its strongest allowed attack at the opponent holding most
chips (the fewest cards breaks ties, then chance: a fixed order would always pick on one seat), and defends with its strongest defence (a defence only
ever lowers the loss or raises the gain, BA-4.5).
"""

from __future__ import annotations

import random

from .base import SeatView
from .cards import JOKER, suit, without

BID_MARGIN = 1  # bid only when the best attack beats the lowest allowed bid by this much


class BatallionBot:
    """The heuristic Batallion player of one seat."""

    kind = "heuristic"

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng

    def choose(self, view: SeatView) -> dict:
        """The move for this seat now (see the module doc)."""
        table, moves, hand = view.table, view.legal_moves, view.hand
        group = 3 if "five_six" in table["variants"] else 2
        kinds: dict[str, list[dict]] = {}
        for m in moves:
            kinds.setdefault(m["type"], []).append(m)
        if "draw" in kinds:
            return view.move(self._draw(kinds["draw"], table["discard"], hand, group))
        if "discard" in kinds:
            best = best_suit(hand, group)
            return view.move(min(kinds["discard"], key=lambda m: keep_value(m["cards"][0], hand, group, best)))
        if "bid" in kinds:
            bid = kinds["bid"][0]
            if bid["max"] >= bid["min"] + BID_MARGIN:
                return view.move(bid, amount=bid["min"])
        if "pass" in kinds:
            return view.move(kinds["pass"][0])
        if "attack" in kinds:
            chips = {s["seat"]: (s["chips"], -s["hand_size"]) for s in table["seats"]}
            worth = values_of(kinds["attack"], group)
            rank = {id(m): (worth[tuple(m["cards"])], chips[m["target"]], -len(m["cards"])) for m in kinds["attack"]}
            best = max(rank.values())
            # equally rich targets are drawn at random: always the lowest seat would single one seat out
            return view.move(self.rng.choice([m for m in kinds["attack"] if rank[id(m)] == best]))
        if "defend" in kinds:
            worth = values_of(kinds["defend"], group)
            return view.move(max(kinds["defend"], key=lambda m: (worth[tuple(m["cards"])], -len(m["cards"]))))
        return view.move(moves[0])

    def _draw(self, draws: list[dict], discard: list[str], hand: list[str], group: int) -> dict:
        by_source = {m["source"]: m for m in draws}
        if "discard" in by_source and discard:
            top = discard[-1]
            best = best_suit(hand, group)
            if top == JOKER or suit(top) == best or 0 < hand.count(top) < group:
                return by_source["discard"]
        return by_source.get("stock") or draws[0]


def values_of(moves: list[dict], group: int) -> dict[tuple, int]:
    """The battle value of each distinct card list among moves (attacks repeat theirs once per target)."""
    out: dict[tuple, int] = {}
    for m in moves:
        key = tuple(m["cards"])
        if key not in out:
            out[key] = value(m["cards"], group)
    return out


def value(cards: list[str], group: int) -> int:
    """BA-1.3 / BA-1.4: the battle value of cards of one suit, a joker joining the group where it adds most."""
    counts: dict[str, int] = {}
    jokers = 0
    for c in cards:
        if c == JOKER:
            jokers += 1
        else:
            counts[c] = counts.get(c, 0) + 1
    total = sum(min(k, group) ** 2 for k in counts.values())
    for _ in range(jokers):
        open_groups = [k for k in counts.values() if k < group]
        if not open_groups:
            break
        k = max(open_groups)
        total += (k + 1) ** 2 - k ** 2
        counts[next(c for c, n in counts.items() if n == k)] += 1
    return total


def suit_values(hand: list[str], group: int) -> dict[str, int]:
    """Each suit's battle value in the hand (jokers left out)."""
    by_suit: dict[str, list[str]] = {s: [] for s in "CDHS"}
    for c in hand:
        if c != JOKER:
            by_suit[c[1]].append(c)
    return {s: value(cards, group) for s, cards in by_suit.items()}


def best_suit(hand: list[str], group: int) -> str:
    """The suit of the hand's strongest attack."""
    values = suit_values(hand, group)
    return max(values, key=lambda s: values[s])


def keep_value(card: str, hand: list[str], group: int, best: str) -> tuple:
    """How much the hand would lose by discarding `card` (lower: discard it first); `best` is the best suit."""
    if card == JOKER:
        return (1, 99)
    s = suit(card)
    in_suit = [c for c in hand if suit(c) == s]
    loss = value(in_suit, group) - value(without(in_suit, [card]), group)
    return (int(s == best), loss)
