"""Hidden cards as one seat knows them, and one random deal of them consistent with that knowledge (analysis).

A game's sampler (its spec's `Analysis.sample`) reads a seat's knowledge event by event and keeps it here: which
cards each holder (a seat, the deck, ...) is known to hold, and how many cards it holds unseen, each unseen card
counted against the *pool* it came from (the deal's unseen cards, or the cards of one reshuffle: a card drawn from
a reshuffled deck is one of that reshuffle's cards, which were public when they reached the discard pile). The
unseen cards of a pool are exchangeable: nothing the seat saw tells one apart from another, so a uniform deal of
them to the pool's unseen places is a draw from what the seat may believe (what the other seats' choices may
suggest is not used: determinization, docs/analysis.md).

Cards are ints (multisets: a list may hold a card twice, for games of several packs). Pure, no I/O.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from typing import Any, Hashable


class Inconsistent(ValueError):
    """What the seat saw does not fit the hidden-card bookkeeping (a bug in a game's sampler, never a game's state)."""


class Hidden:
    """Known and unseen cards per holder, unseen ones by pool (see the module doc)."""

    def __init__(self) -> None:
        self.pools: dict[Hashable, list[int]] = {}  # pool -> its cards not yet located (sorted)
        self.known: dict[Hashable, list[int]] = {}  # holder -> cards known to be there
        self.unseen: dict[Hashable, Counter] = {}  # holder -> pool -> how many unseen cards of that pool it holds
        self.located: dict[Hashable, list] = {}  # holder -> (card, pool it was counted from) of each card located

    def new_pool(self, pool: Hashable, cards: list[int]) -> None:
        """A pool of unseen cards (the cards of a shuffle the seat did not see come out)."""
        self.pools[pool] = sorted(cards)

    def give_unseen(self, holder: Hashable, pool: Hashable, count: int = 1) -> None:
        """`holder` gets `count` unseen cards of `pool`."""
        self.unseen.setdefault(holder, Counter())[pool] += count

    def move_unseen(self, source: Hashable, holder: Hashable, count: int = 1) -> None:
        """`count` unseen cards pass from `source` to `holder` (a draw the seat did not see), pool by pool in the
        order the pools were made (a deck holds one pool at a time in the games that use this)."""
        for _ in range(count):
            pools = self.unseen.get(source) or Counter()
            pool = next((p for p in pools if pools[p] > 0), None)
            if pool is None:
                raise Inconsistent(f"{source!r} has no unseen card to pass on")
            pools[pool] -= 1
            self.give_unseen(holder, pool)

    def locate(self, card: int, holder: Hashable, new: bool = False) -> None:
        """The seat learns that `holder` held `card` (a card it plays, shows, or that was dealt to the seat itself):
        from then on it is known there, whichever of its unseen cards it was. `new`: the card is one of its unseen
        cards even if a copy of it is known there already (a seat's own draw of a second copy).

        With several copies of a card (several packs) a card may be in more than one pool; it is counted from the
        first that may hold it. When that choice leaves a later card with no pool (the holder's unseen cards of its
        pool were all spent on copies that could have come from another, or another holder took the copy of its
        pool), an earlier card is counted from another pool instead and the later card takes its place (`_exchange`)."""
        held = self.known.get(holder)
        if not new and held is not None and card in held:
            return
        pools = self.unseen.get(holder) or Counter()
        located = self.located.setdefault(holder, [])
        for pool, count in pools.items():
            if count > 0 and card in self.pools.get(pool, ()):
                self.pools[pool].remove(card)
                pools[pool] -= 1
                located.append((card, pool))
                self.known.setdefault(holder, []).append(card)
                return
        if self._exchange(card, holder):
            return
        raise Inconsistent(f"card {card} cannot be one of {holder!r}'s unseen cards")

    def _exchange(self, card: int, holder: Hashable) -> bool:
        """Make room for `card` among `holder`'s unseen cards by counting one earlier located card from another pool
        (see `locate`): an earlier card of the holder's own that may come from a pool it still has room in, the
        `card`'s pool then giving `card`; or another holder's copy of `card`, counted from a pool it has room in, so
        that its first pool, where `holder` has room, gives `card`. True when done."""
        mine = self.unseen.get(holder) or Counter()
        for other, located in self.located.items():
            theirs = self.unseen.get(other) or Counter()
            for i, (earlier, q) in enumerate(located):
                if other == holder:
                    if card not in self.pools.get(q, ()):
                        continue
                elif earlier != card or mine.get(q, 0) <= 0:
                    continue
                p = next((p for p, n in theirs.items() if n > 0 and p != q and earlier in self.pools.get(p, ())), None)
                if p is None:
                    continue
                self.pools[p].remove(earlier)  # `earlier` was one of p's cards ...
                theirs[p] -= 1
                theirs[q] += 1
                located[i] = (earlier, p)
                bisect.insort(self.pools[q], earlier)  # ... so q has its copy back, and gives `card`
                self.pools[q].remove(card)
                mine[q] -= 1
                self.located.setdefault(holder, []).append((card, q))
                self.known.setdefault(holder, []).append(card)
                return True
        return False

    def add_known(self, holder: Hashable, cards: list[int]) -> None:
        """`holder` gets cards everybody (or the seat) saw it get."""
        self.known.setdefault(holder, []).extend(cards)

    def reveal(self, holder: Hashable, cards: list[int]) -> None:
        """The seat is told every card `holder` holds now, `cards` (REFEREE ONLY: what a colluding partner would tell
        it, domain.collusion): each card not yet known there is located there, so a deal gives the rest of the pools to
        the other places, uniformly as ever. Raises Inconsistent when the cards cannot be that holder's."""
        missing = Counter(cards) - Counter(self.known.get(holder, ()))
        for card in sorted(missing.elements()):
            self.locate(card, holder, new=True)
        if self.count(holder) != len(cards):
            raise Inconsistent(f"{holder!r} holds {self.count(holder)} cards, not the {len(cards)} it is said to hold")

    def take_known(self, holder: Hashable, cards: list[int]) -> None:
        """Cards leave `holder` in view: each is located there first, then removed."""
        for c in cards:
            self.locate(c, holder)
            self.known[holder].remove(c)

    def count(self, holder: Hashable) -> int:
        """How many cards `holder` holds, known and unseen."""
        return len(self.known.get(holder, ())) + sum((self.unseen.get(holder) or Counter()).values())

    def clear(self, holder: Hashable) -> None:
        """`holder` is emptied (its unseen cards must be none: they would have been located)."""
        self.known.pop(holder, None)
        if sum((self.unseen.get(holder) or Counter()).values()):
            raise Inconsistent(f"{holder!r} is emptied with unseen cards")
        self.unseen.pop(holder, None)

    def deal(self, rng: random.Random) -> dict[Hashable, list[int]]:
        """One uniform deal of every pool's unseen cards to the places that hold them unseen: holder -> its known
        cards followed by its dealt ones (a deck's dealt cards in draw order). Deterministic for a given rng state:
        holders and pools are taken in a fixed order."""
        return self._dealt(self.pools, {h: list(cards) for h, cards in self.known.items()}, rng)

    def _dealt(self, pools: dict, out: dict, rng: random.Random, skip: Any = ()) -> dict:
        """`out` with each pool's cards shuffled and dealt, in a fixed order, to the places that hold that pool's
        cards unseen (those in `skip` aside: already dealt)."""
        for pool, cards in pools.items():
            places = [(h, c[pool]) for h, c in sorted(self.unseen.items(), key=lambda kv: repr(kv[0]))
                      if c.get(pool) and h not in skip]
            if sum(k for _, k in places) != len(cards):
                raise Inconsistent(f"pool {pool!r}: {len(cards)} cards for {sum(k for _, k in places)} places")
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for holder, k in places:
                out.setdefault(holder, []).extend(shuffled[at:at + k])
                at += k
        return out

    def deal_where(self, rng: random.Random, holders: list[Hashable], accept, tries: int) -> dict | None:
        """A deal in which `accept(holder, cards)` holds for each of `holders` (its cards: known, then dealt): what a
        public move said of a hand (a bid it backs). Each holder in turn gets its unseen cards drawn from what the
        pools still hold, drawn again until `accept` passes (up to `tries` times; None when one never does); then the
        rest of each pool is dealt uniformly to the other places, as `deal` does. With one holder the deal is uniform
        among those that pass; with several each draw is uniform given the hands drawn before it (an approximation of
        the joint: a joint rejection almost never passes several high bids)."""
        rest = {pool: list(cards) for pool, cards in self.pools.items()}
        mine: dict[Hashable, list[int]] = {}
        for holder in sorted(set(holders), key=repr):
            wants = [(pool, (self.unseen.get(holder) or Counter()).get(pool, 0)) for pool in rest]
            for _ in range(tries):
                cards, picks = list(self.known.get(holder, ())), {}
                for pool, k in wants:
                    picks[pool] = rng.sample(range(len(rest[pool])), k)
                    cards.extend(rest[pool][i] for i in picks[pool])
                if accept(holder, cards):
                    break
            else:
                return None
            mine[holder] = cards
            for pool, picked in picks.items():
                taken = set(picked)
                rest[pool] = [c for i, c in enumerate(rest[pool]) if i not in taken]
        return self._dealt(rest, {h: list(cards) for h, cards in self.known.items() if h not in mine} | mine, rng, mine)
