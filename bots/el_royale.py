"""El Royale's heuristic bot: collect ranks, win when a play can, claim useful piles, concede cheap battles.

A win needs the whole hand played as the fourth card of a rank (ER-4.1), so the bot keeps its
hand in few ranks: it attacks with its smallest group (the highest rank among equals, the
hardest to beat), throws in cards that are not its main group, beats with the cheapest card
that does not break a group, concedes a battle of one or two cards rather than spend a high
card or a pair, and claims a small pile when most of it matches ranks it holds.

It also watches the game move (issue 28). Cards leave the hands only through the discard pile (a beaten battle
no one claims), and a game can win only once hands get small, so when `STALL_BATTLES` battles have ended
without a card reaching the discard pile (its public count and reshuffles, ER-7.3), the same cards are going
round (say a single jack no one can beat, attacked, conceded, attacked again by the seat that took it) and the
bot plays to shed instead: it attacks with its lowest rank (the easiest to beat) among the cards it did not
take by conceding meanwhile (those went round already), and with any attack at random (its own seeded stream)
after twice as many battles; it beats whenever it can, throws in whatever it may and claims nothing, until a
card reaches the discard pile again. It decides from its own views only (what it remembers of them included).
Measured in docs/bots.md.
"""

from __future__ import annotations

import random

from .base import SeatView
from .cards import rank, rank_counts, without

CHEAP_PILE = 2  # a pile of at most this many cards is cheap to concede
HIGH = 10  # J and above: worth keeping rather than spending on a cheap battle
MAX_HOLDING = 16  # ER-5.1 (revised): conceding above this eliminates
STALL_BATTLES = 6  # battles ended with no card reaching the discard pile: the bot plays to shed


class ElRoyaleBot:
    """The heuristic El Royale player of one seat."""

    kind = "heuristic"

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng
        self.progress = Progress()
        self.taken: set[str] = set()  # cards this seat took by conceding while the cards went round

    def choose(self, view: SeatView) -> dict:
        """The move for this seat now (see the module doc)."""
        table, moves, hand = view.table, view.legal_moves, view.hand
        pile = table["battle_pile"]
        stalled = self.progress.stalled(table)
        if not stalled:
            self.taken.clear()
        for m in moves:
            if "cards" in m and wins(m["cards"], hand, pile):
                return view.move(m)
        kinds: dict[str, list[dict]] = {}
        for m in moves:
            kinds.setdefault(m["type"], []).append(m)
        if "take" in kinds:
            return self._take(view, kinds["take"][0], hand)
        if "attack" in kinds:
            return view.move(self._attack(kinds["attack"], hand, stalled))
        if "concede" in kinds:
            if stalled and kinds.get("beat"):
                return view.move(min(kinds["beat"], key=lambda m: beat_cost(m["cards"], hand)))
            move = self._defend(view, kinds.get("beat", []), hand, pile)
            if stalled and move["type"] == "concede":
                self.taken.update(pile)
            return move
        if "throw_in" in kinds and (stalled or self._should_throw(view, hand)):
            best = max(kinds["throw_in"], key=lambda m: len(m["cards"]))
            return view.move(best)
        if "claim" in kinds and not stalled and useful_pile(pile, hand):
            return view.move(kinds["claim"][0])
        if "pass" in kinds:
            return view.move(kinds["pass"][0])
        return view.move(moves[0])

    def _attack(self, attacks: list[dict], hand: list[str], stalled: bool) -> dict:
        """The attack: the hardest to beat; while the cards go round, the easiest to beat of the cards it did not
        just take by conceding (those went round already), or any at random once it has gone round twice as long."""
        if not stalled:
            return min(attacks, key=lambda m: attack_cost(m["cards"], hand))
        if self.progress.stalled(None, 2 * STALL_BATTLES):
            return self.rng.choice(attacks)
        return min(attacks, key=lambda m: (bool(self.taken & set(m["cards"])),) + shed_cost(m["cards"], hand))

    def _take(self, view: SeatView, entry: dict, hand: list[str]) -> dict:
        """ER-5.2: take the laid-out cards of ranks already held, as many as room allows."""
        held = rank_counts(hand)
        wanted = sorted((c for c in entry["from"] if rank(c) in held), key=lambda c: -held[rank(c)])
        return view.move(entry, cards=wanted[:entry["max"]])

    def _defend(self, view: SeatView, beats: list[dict], hand: list[str], pile: list[str]) -> dict:
        concede = {"seat": self.seat, "type": "concede"}
        if not beats:
            return concede
        best = min(beats, key=lambda m: beat_cost(m["cards"], hand))
        too_many = len(hand) + len(pile) > MAX_HOLDING and view.table.get("edition") == "revised"
        cheap = len(pile) <= CHEAP_PILE and beat_cost(best["cards"], hand)[0] > 0
        if cheap and not too_many:
            return concede
        return view.move(best)

    def _should_throw(self, view: SeatView, hand: list[str]) -> bool:
        """Throw in unless the asked rank is the hand's main group, or the join window attacks a partner."""
        table = view.table
        if table["phase"] == "join" and partners(view, self.seat, table.get("defender")):
            return False
        counts = rank_counts(hand)
        asked = rank(table["battle_pile"][-1])
        main = max(counts.values())
        return not (counts[asked] == main and main >= 2 and len(counts) > 1)


class Progress:
    """What a seat remembers of the game's progress: the discard pile it last saw, and when it last grew."""

    def __init__(self):
        self.seen: tuple | None = None
        self.since = 0  # the battle count when a card last reached the discard pile

        self.battles = 0  # the battle count last seen

    def stalled(self, table: dict | None, battles: int = STALL_BATTLES) -> bool:
        """Whether `battles` battles have ended since a card last reached the discard pile (ER-7.3: public), after
        taking in `table` (None: as last seen)."""
        if table is not None:
            flow = (table.get("discard_count", 0), table.get("reshuffles", 0))
            self.battles = table.get("battles", 0)
            if flow != self.seen or self.battles < self.since:
                self.seen, self.since = flow, self.battles
        return self.battles - self.since >= battles


def shed_cost(cards: list[str], hand: list[str]) -> tuple:
    """Lower is better when the cards go round: the lowest rank (the easiest to beat), all of it."""
    return (rank(cards[0]), -len(cards))


def wins(cards: list[str], hand: list[str], pile: list[str]) -> bool:
    """ER-4.1: the play empties the hand and makes four of its rank on the battle pile."""
    if len(cards) != len(hand):
        return False
    r = rank(cards[-1])
    return sum(1 for c in pile if rank(c) == r) + sum(1 for c in cards if rank(c) == r) >= 4


def attack_cost(cards: list[str], hand: list[str]) -> tuple:
    """Lower is better: play a whole group (fewer ranks left), the smallest one, the highest rank of those."""
    left = rank_counts(without(hand, cards))
    whole = rank(cards[0]) not in left
    return (not whole, len(left), len(cards), -rank(cards[0]))


def beat_cost(cards: list[str], hand: list[str]) -> tuple:
    """Lower is better: (spends a high card or breaks a group, ranks left, rank spent)."""
    r = rank(cards[0])
    left = rank_counts(without(hand, cards))
    breaks = r in left
    return (int(breaks or r >= HIGH), len(left), r)


def useful_pile(pile: list[str], hand: list[str]) -> bool:
    """Claim a small pile most of whose cards match ranks held (collecting ranks)."""
    held = rank_counts(hand)
    useful = sum(1 for c in pile if rank(c) in held)
    return len(pile) <= 3 and 2 * useful >= len(pile) and len(hand) + len(pile) <= 8


def partners(view: SeatView, a: int, b: int | None) -> bool:
    """Whether two seats are on one team (never in an individual game)."""
    if b is None or not view.players:
        return False
    teams = {p["seat"]: p.get("team") for p in view.players}
    return teams.get(a) is not None and teams.get(a) == teams.get(b)
