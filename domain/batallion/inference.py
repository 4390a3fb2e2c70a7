"""Batallion's inference from the other seats' public choices (docs/analysis.md "Inference"): how likely a sampled deal
makes the draws, discards, bids, passes, attacks and defences the seat watched the others make.

The opponent model is the heuristic bot's rules (bots/batallion.py), each read as what it says of the hand the seat
held when it chose, and softened: a choice the reading says the bot would not make keeps chance `EPS_*`.

- drawing from the stock or the discard pile (both open, a top card that is not a joker): the bot takes the top card
  when it is of its best suit (the suit worth most, jokers aside, first in C D H S among equals) or makes a group with
  a copy it holds (a group below the largest allowed); else it draws from the stock (`EPS_DRAW`);
- discarding: the bot throws the card it values least (a card of its best suit last, then the least value lost); a
  card the hand held that it values strictly less goes against the reading (`EPS_DISCARD`);
- bidding: the bot bids the lowest bid allowed when its best attack beats it by `BID_MARGIN`, else passes: a pass
  says its best attack was worth less than the lowest bid plus the margin, a bid that it was worth at least the bid
  plus the margin (`EPS_BID`);
- attacking: the bot attacks with the strongest attack it may make (a whole suit, with a joker where one adds):
  a stronger one in the hand goes against (`EPS_ATTACK`);
- defending: the bot defends with every card of the attack's suit it holds; holding more of it goes against
  (`EPS_DEFEND`; a surrender says it held none).

The hand at the time of a choice is rebuilt exactly, with no reading dropped: in Batallion every card leaving a hand
is seen (discards, attacks, defences) and every card arriving is either seen (from the discard pile) or an unseen
card dealt or drawn from the stock (a *slot*: a time and a pool). A seat's unseen cards are its unseen cards now
(the sampled hand without the cards it is known to hold) and the cards it played that came from unseen ones (the
bookkeeping's `located`, each with its pool and the time it left: it was held in a slot before then). Which slot
each card filled is drawn at random, uniformly among the fillings that fit those times (each played card in turn,
soonest gone first, takes a free slot of its pool before it left: as many choices whatever came before, so the
drawing is uniform); the cards held now fill the slots left (among several pools, as if from any: an
approximation once the stock has been reshuffled). Walking the seat's events forward then gives its hand before each
choice. The stream of that drawing is seeded by the sampled hands, so a deal's weight is a function of the deal;
one drawing gives an unbiased estimate of the deal's likelihood, averaged over the fillings.

A deal's weight is the product of the `EPS_*` of the readings it goes against: the likelihood of the choices under
the model, up to a constant factor. Only the seat's knowledge is read: the public events and the folded state.
"""

from __future__ import annotations

import random

from .clauses import attack_value, battle_value, joker_group
from .codec import JOKER, parse_card, suit_of
from .state import ACQUISITION, BIDDING

EPS_DRAW = 0.3
EPS_DISCARD = 0.3
EPS_BID = 0.2
EPS_ATTACK = 0.2
EPS_DEFEND = 0.1
BID_MARGIN = 1  # bots/batallion.py's: it bids only when its best attack beats the lowest bid by this much

SLOT, ADD, REMOVE, READ = range(4)  # the steps of a seat's timeline


def _suit_cards(hand: list[int], suit: int) -> list[int]:
    return [c for c in hand if c != JOKER and c // 13 == suit]


def best_suit(hand: list[int]) -> int:
    """The bot's best suit: the one worth most in the hand, jokers aside, the first (C D H S) among equals."""
    values = [battle_value(_suit_cards(hand, s)) for s in range(4)]
    return values.index(max(values))


def best_attack(hand: list[int], suits, max_group: int) -> int:
    """The value of the strongest attack the hand may make in one of `suits` (a whole suit, a joker where it adds)."""
    joker = JOKER in hand
    best = 0
    for s in suits:
        cards = _suit_cards(hand, s)
        if cards:
            value = battle_value(cards)
            g = joker_group(cards, max_group) if joker else None
            best = max(best, value if g is None else value + 2 * g + 1)
    return best


def keep_value(card: int, hand: list[int], best: int) -> tuple:
    """The bot's worth of a card to its hand (the lowest is discarded): of the best suit or not, then the value lost
    without it (a card of a group of k: k * k - (k - 1) * (k - 1))."""
    if card == JOKER:
        return (1, 99)
    return (int(card // 13 == best), 2 * hand.count(card) - 1)


def against(reading: tuple, hand: list[int], max_group: int) -> bool:
    """Whether holding `hand` at the time goes against the reading of one choice (see the module doc)."""
    kind = reading[0]
    if kind == "draw":
        _, top, took = reading
        wants = suit_of(top) == best_suit(hand) or 0 < hand.count(top) < max_group
        return wants != took
    if kind == "discard":
        best = best_suit(hand)
        mine = keep_value(reading[1], hand, best)
        return any(keep_value(c, hand, best) < mine for c in hand)
    if kind == "pass":
        return best_attack(hand, range(4), max_group) >= reading[1] + BID_MARGIN
    if kind == "bid":
        return best_attack(hand, range(4), max_group) < reading[1] + BID_MARGIN
    if kind == "attack":
        return best_attack(hand, reading[2], max_group) > reading[1]
    if kind == "defend":
        return len(_suit_cards(hand, reading[1])) > reading[2]
    raise ValueError(f"no reading {kind!r}")


class Watcher:
    """Each other seat's timeline while folding one seat's knowledge: its unseen slots, the cards it took in view or
    gave up, and its choices to read (`see` each event before the state takes it in, then the hooks of its changes)."""

    def __init__(self, seat: int, setup):
        self.seat, self.max_group, self.min_bid = seat, setup.max_group, setup.min_bid
        self.slots: dict[int, list] = {}  # seat -> [(time, pool)] of its unseen cards, in order
        self.gone: dict[int, list] = {}  # seat -> [(index in the bookkeeping's located, time it left)]
        self.timeline: dict[int, list] = {}  # seat -> steps: (SLOT, slots), (ADD, card), (REMOVE, cards), (READ, ...)
        self.read: set[int] = set()  # seats with a choice read

    def _step(self, who: int, step: tuple) -> None:
        self.timeline.setdefault(who, []).append(step)

    def _read(self, who: int, reading: tuple, eps: float) -> None:
        self._step(who, (READ, reading, eps))
        self.read.add(who)

    def see(self, i: int, kind: str, who, data: dict, shadow, discard: list[int]) -> None:
        """The `i`-th event seen (its kind, seat and data as the seat saw them), with the public state before it and
        the discard pile (the real cards) before it."""
        if who is None or who == self.seat:
            return
        if kind == "drew" and shadow.phase == ACQUISITION and not shadow.drawn and discard and shadow.stock:
            if discard[-1] != JOKER:  # a joker is always taken: its draw says nothing of the hand
                self._read(who, ("draw", discard[-1], data["source"] == "discard"), EPS_DRAW)
        elif kind == "discarded":
            self._read(who, ("discard", _card(data["cards"][0])), EPS_DISCARD)
        elif kind == "passed" and shadow.phase == BIDDING:
            lowest = self.min_bid if shadow.high_bid is None else max(self.min_bid, shadow.high_bid + 1)
            self._read(who, ("pass", lowest), EPS_BID)
        elif kind == "bid":
            self._read(who, ("bid", data["amount"]), EPS_BID)
        elif kind == "attacked":
            cards = [_card(c) for c in data["cards"]]
            suits = tuple(s for s in range(4) if shadow.first_attack or s != shadow.prev_suit)
            self._read(who, ("attack", attack_value(cards, self.max_group), suits), EPS_ATTACK)
        elif kind == "defended" and shadow.battle is not None:
            suit = next(suit_of(c) for c in shadow.battle[2] if c != JOKER)
            self._read(who, ("defend", suit, len(data["cards"])), EPS_DEFEND)

    def dealt(self, i: int, who: int, pool, count: int) -> None:
        """`who` gets `count` unseen cards of `pool` at the `i`-th event (the deal, a draw from the stock)."""
        slots = self.slots.setdefault(who, [])
        self._step(who, (SLOT, tuple(range(len(slots), len(slots) + count))))
        slots.extend([(i, pool)] * count)

    def took(self, i: int, who: int, card: int) -> None:
        """`who` takes a card in view (the discard pile's top)."""
        self._step(who, (ADD, card))

    def removed(self, i: int, who: int, cards: list[int], located: range) -> None:
        """`who` gives up `cards` in view; `located`: the bookkeeping's entries of those that were unseen cards."""
        self._step(who, (REMOVE, tuple(cards)))
        self.gone.setdefault(who, []).extend((j, i) for j in located)

    def finish(self, hidden) -> tuple:
        """Per seat with a choice read: (seat, slots, its played unseen cards as (card, pool, time gone) soonest gone
        first, the cards it is known to hold now, its timeline). Read before a partner's told hand is revealed."""
        out = []
        for who in sorted(self.read):
            located = hidden.located.get(who, [])
            gone = sorted(((located[j][0], located[j][1], t) for j, t in self.gone.get(who, ())), key=lambda g: g[2])
            out.append((who, tuple(self.slots.get(who, ())), tuple(gone), tuple(hidden.known.get(who, ())),
                        tuple(self.timeline[who])))
        return tuple(out)


def _card(value) -> int:
    return value if isinstance(value, int) else parse_card(value)


def _filled(slots: tuple, gone: tuple, held: list[int], rng: random.Random) -> list | None:
    """One uniform filling of the slots (see the module doc); None when none fits (the bookkeeping's pools then
    disagree with the times: the seat's choices are not read)."""
    filled: list = [None] * len(slots)
    for card, pool, left in gone:
        free = [j for j, (t, p) in enumerate(slots) if filled[j] is None and p == pool and t < left]
        if not free:
            return None
        filled[rng.choice(free)] = card
    empty = [j for j in range(len(slots)) if filled[j] is None]
    if len(empty) != len(held):
        return None
    rng.shuffle(held)
    for j, c in zip(empty, held):
        filled[j] = c
    return filled


def seat_weight(observation: tuple, hand_now, rng: random.Random, max_group: int) -> float:
    """The likelihood factor of one seat's read choices if it holds `hand_now` now (one drawing of its slots)."""
    _, slots, gone, known, timeline = observation
    held = list(hand_now)
    for c in known:
        if c not in held:
            return 1.0
        held.remove(c)
    filled = _filled(slots, gone, held, rng)
    if filled is None:
        return 1.0
    hand: list[int] = []
    w = 1.0
    for step in timeline:
        if step[0] == SLOT:
            hand.extend(filled[j] for j in step[1])
        elif step[0] == ADD:
            hand.append(step[1])
        elif step[0] == REMOVE:
            for c in step[1]:
                if c not in hand:
                    return 1.0
                hand.remove(c)
        elif against(step[1], hand, max_group):
            w *= step[2]
    return w


def weight(observations: tuple, state) -> float:
    """The likelihood, up to a constant factor, of the others' read choices if they hold the sampled state's hands."""
    if not observations:
        return 1.0
    rng = random.Random(repr(state.hands))
    w = 1.0
    for ob in observations:
        w *= seat_weight(ob, state.hands[ob[0]], rng, state.setup.max_group)
    return w
