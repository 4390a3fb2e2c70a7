"""The Four Virtues' inference from the opponent's public choices (docs/analysis.md "Inference", "Other games"): what
a sampled deal makes of the draws from the discard pile, the melds laid, the cards discarded and the melds held back.

The opponent model is the heuristic bot's rules (bots/four_virtues.py), restated on the hand's cards and softened so
that no choice is impossible:

- a draw from the discard pile of a number card that fits no meld on the table says the card completed a set or a
  run of three with the hand (the bot takes only such a card; else the stock): otherwise `EPS_DRAW`;
- a meld laid down or an addition made scores, as the bot counts it, at least as much as every meld and addition the
  hand held then (the bot lays the best first): otherwise `EPS_MELD`; the clubs-lowered melds are among those only
  when the hand holds a clubs face card, as for the bot;
- a discard, or `done`, says the hand held no meld and no addition at all (the bot lays down whatever scores, and
  every meld does): otherwise `EPS_HOLD`;
- the card discarded is the one the bot discards from that hand (the least connected, the lowest pips among those,
  the first in card order among equals; never the card it took from the pile this turn): otherwise `EPS_DISCARD`;
- a forced discard (FV-3.4) gives up the cards the bot gives up (the least connected, first in card order among
  equals): otherwise `EPS_FORCED`.

Each such choice is a reading: what it says, and the hand at the time. The hand at the time is the sampled hand now
with the cards played since put back (melds, additions, discards, forced discards: all public) and the cards taken
since from the discard pile (all public) taken out. A stock draw brings in cards the seat did not see (the turn's
draw, a spades draw): the opponent's readings from before it are then **dropped**, since its hand then is no longer
known from its hand now. What is kept is exact: in practice the opponent's last turn from its last stock draw on (its
melds, its discard, its forced discards since), and its whole turn when it drew from the discard pile. A new round
drops everything. A sampled deal's weight is the product of the `EPS_*` of the readings it goes against (1 when it
goes against none): the likelihood of the choices under the model, up to a constant factor. Only the seat's
knowledge is read (its redacted events and the public state folded from them) and the sampled hand.
"""

from __future__ import annotations

from .clauses import DIAMONDS, HEARTS, SPADES, is_face
from .moves import lowered_melds, shape_passes

EPS_DRAW = 0.2
EPS_MELD = 0.3
EPS_HOLD = 0.2
EPS_DISCARD = 0.3
EPS_FORCED = 0.3
TEN = 9  # rank index of the highest number card
FORCE_BONUS, DRAW_BONUS = 3, 2  # what the bot counts a hearts force / a spades draw worth, per card
FACE_KEEP = 6  # how connected the bot counts a face card


def _rank(rank) -> int:
    return "A23456789TJQK".index(rank) if isinstance(rank, str) else rank


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def connection(card: int, hand: list[int]) -> int:
    """How much a card works with the rest of the hand, as the bot counts it: same rank twice, near ranks (within
    two) of its suit once; a face card `FACE_KEEP`."""
    if is_face(card):
        return FACE_KEEP
    r, s = card % 13, card // 13
    score = 0
    for c in hand:
        if c == card or is_face(c):
            continue
        if c % 13 == r:
            score += 2
        elif c // 13 == s and abs(c % 13 - r) <= 2:
            score += 1
    return score


def completes(card: int, hand: list[int]) -> bool:
    """Whether a number card makes a set or run of three with the hand's number cards (the bot's draw test)."""
    r, s = card % 13, card // 13
    numbers = [c for c in hand if not is_face(c)]
    if sum(1 for c in numbers if c % 13 == r) >= 2:
        return True
    held = {c % 13 for c in numbers if c // 13 == s}
    return any({r + a, r + b} <= held for a, b in ((-2, -1), (-1, 1), (1, 2)) if 0 <= r + a and r + b <= TEN)


def fits_table(card: int, melds) -> bool:
    """Whether a number card could be added to a meld on the table, judged from its cards (the bot's draw test)."""
    r, s = card % 13, card // 13
    for meld in melds:
        ranks = sorted(meld.lowered[1] if meld.lowered and c == meld.lowered[0] else c % 13 for c in meld.cards)
        if ranks[0] == ranks[-1]:
            if r == ranks[0]:
                return True
        elif meld.cards[0] // 13 == s and r in (ranks[0] - 1, ranks[-1] + 1) and r <= TEN:
            return True
    return False


def table_of(melds, who: int) -> tuple:
    """The melds on the table as the additions read them: ("set", rank, double) or ("run", suit, low, high, double);
    `double`: `who`'s own diamonds meld (the bot counts its additions there twice)."""
    out = []
    for meld in melds:
        ranks = sorted(meld.lowered[1] if meld.lowered and c == meld.lowered[0] else c % 13 for c in meld.cards)
        double = meld.virtue == "diamonds" and meld.owner == who
        if ranks[0] == ranks[-1]:
            out.append(("set", ranks[0], double))
        else:
            out.append(("run", meld.cards[0] // 13, ranks[0], ranks[-1], double))
    return tuple(out)


def meld_worth(points: int, numbers: int, face: int | None, stock: int) -> int:
    """A new meld's worth to the bot: its points (doubled under diamonds), plus a hearts force of every number card,
    or a spades draw of as many as the stock allows, counted as bonuses."""
    if face is None:
        return points
    suit = face // 13
    if suit == DIAMONDS:
        return 2 * points
    if suit == HEARTS:
        return points + FORCE_BONUS * numbers
    if suit == SPADES:
        return points + DRAW_BONUS * min(numbers, stock)
    return points


def best_worth(hand: list[int], table: tuple, stock: int) -> int | None:
    """The most the bot's scoring gives any meld or addition the hand can make (None: it can make none)."""
    numbers = [c for c in hand if not is_face(c)]
    faces = {c // 13: c for c in hand if is_face(c)}
    best = None
    groups = []
    by_rank: dict[int, int] = {}
    by_suit: list[set[int]] = [set(), set(), set(), set()]
    for c in numbers:
        by_rank[c % 13] = by_rank.get(c % 13, 0) + 1
        by_suit[c // 13].add(c % 13)
    for r, k in by_rank.items():
        if k >= 3:
            groups.append(((r + 1) * k, k))
    for held in by_suit:
        r = 0
        while r <= TEN:
            if r in held:
                top = r
                while top + 1 in held:
                    top += 1
                if top - r >= 2:
                    groups.append((sum(x + 1 for x in range(r, top + 1)), top - r + 1))
                r = top + 1
            else:
                r += 1
    for points, n in groups:  # a longer group scores more: its whole is the best of its parts
        for face in [None, *faces.values()]:
            worth = meld_worth(points, n, face, stock)
            best = worth if best is None or worth > best else best
    if 0 in faces:  # a clubs face: the melds a lowering makes (they score at the lowered rank)
        for cards, (low_card, rank) in lowered_melds(numbers):
            if shape_passes(cards, (low_card, rank)):
                worth = sum(rank + 1 if c == low_card else c % 13 + 1 for c in cards)
                best = worth if best is None or worth > best else best
    for slot in table:
        if slot[0] == "set":
            points = sum(c % 13 + 1 for c in numbers if c % 13 == slot[1])
        else:
            held, low, high = by_suit[slot[1]], slot[2], slot[3]
            points = 0
            while low - 1 >= 0 and low - 1 in held:
                low -= 1
                points += low + 1
            while high + 1 <= TEN and high + 1 in held:
                high += 1
                points += high + 1
        if points:
            worth = 2 * points if slot[-1] else points
            best = worth if best is None or worth > best else best
    return best


def bot_discard(hand: list[int], taken: int | None) -> int:
    """The card the bot discards from `hand` (sorted): the least connected, then the lowest pips, the first among
    equals; never `taken` (the card it drew from the pile this turn) unless it holds nothing else."""
    choices = [c for c in hand if c != taken] or hand
    return min(choices, key=lambda c: (connection(c, hand), 0 if is_face(c) else c % 13 + 1))


def bot_forced(hand: list[int], count: int) -> int:
    """The cards (a mask) the bot gives up when it owes `count`: the least connected, first in card order."""
    mask = 0
    for c in sorted(hand, key=lambda c: connection(c, hand))[:count]:
        mask |= 1 << c
    return mask


class Watcher:
    """The readings made while folding one seat's knowledge (`see` each decoded event before the state takes it)."""

    def __init__(self, seat: int):
        self.seat, self.other = seat, 1 - seat
        self.open: list[list] = []  # [kind, a, b, eps, played since, taken since]
        self.taken: int | None = None  # the card the opponent drew from the pile this turn

    def _read(self, kind: str, a, b, eps: float) -> None:
        self.open.append([kind, a, b, eps, 0, 0])

    def _played(self, cards) -> None:
        mask = 0
        for c in cards:
            mask |= 1 << c
        for ob in self.open:
            ob[4] |= mask

    def see(self, event: dict, shadow) -> None:
        """One decoded event (cards as ints) with `shadow`, the public state before it."""
        kind = event["type"]
        if kind in ("dealt", "round_ended", "won"):
            self.open, self.taken = [], None
            return
        if event.get("seat") != self.other:
            return
        stock = len(shadow.stock)
        if kind == "drew":
            if event["source"] != "discard":  # unseen cards come in: the older readings are dropped
                self.open, self.taken = [], None
                return
            top = event["cards"][0]
            if not is_face(top) and not fits_table(top, shadow.melds):
                self._read("completes", top, None, EPS_DRAW)
            self.taken = top
            for ob in self.open:
                ob[5] |= 1 << top
        elif kind == "melded":
            cards, face, low = event["cards"], event.get("face"), event.get("lowered")
            lowered = None if low is None else (low["card"], _rank(low["rank"]))
            points = sum(lowered[1] + 1 if lowered and c == lowered[0] else c % 13 + 1 for c in cards)
            worth = meld_worth(points, len(cards), face, stock)
            self._read("best", worth, (table_of(shadow.melds, self.other), stock), EPS_MELD)
            self._played(list(cards) + ([face] if face is not None else []))
        elif kind == "added":
            slot = table_of(shadow.melds, self.other)[event["meld"]]
            points = sum(c % 13 + 1 for c in event["cards"])
            self._read("best", 2 * points if slot[-1] else points, (table_of(shadow.melds, self.other), stock),
                       EPS_MELD)
            self._played(event["cards"])
        elif kind in ("discarded", "done"):
            self._read("hold", None, (table_of(shadow.melds, self.other), stock), EPS_HOLD)
            if kind == "discarded":
                self._read("discard", event["cards"][0], self.taken, EPS_DISCARD)
                self._played(event["cards"])
        elif kind == "forced_discarded":
            mask = 0
            for c in event["cards"]:
                mask |= 1 << c
            self._read("forced", mask, len(event["cards"]), EPS_FORCED)
            self._played(event["cards"])

    def finish(self) -> tuple:
        """The readings, frozen: (kind, a, b, eps, played since, taken since) each."""
        return tuple(tuple(ob) for ob in self.open)


def fits(kind: str, a, b, hand: list[int]) -> bool:
    """Whether the reading's choice is the model's own from `hand` (the hand at the time, sorted)."""
    if kind == "completes":
        return completes(a, hand)
    if kind == "best":
        best = best_worth(hand, *b)
        return best is None or best <= a
    if kind == "hold":
        return best_worth(hand, *b) is None
    if kind == "discard":
        return a in hand and bot_discard(hand, b) == a
    return bot_forced(hand, b) == a  # "forced"


def weight(readings: tuple, hand: int) -> float:
    """The likelihood, up to a constant factor, of the opponent's read choices if it holds `hand` (a mask) now."""
    w = 1.0
    for kind, a, b, eps, played, taken in readings:
        if not fits(kind, a, b, _cards((hand | played) & ~taken)):
            w *= eps
    return w
