"""El Royale's analysis candidates (docs/analysis.md, issue 36 part 3): every legal move, a take (ER-5.2) grouped.

A take picks any of the eliminated player's laid-out cards (public, ER-5.2; 17 or more) within the seat's room:
tens of thousands of subsets, often over 100,000. Takes are grouped by how many cards of each rank they pick
(`key`): two takes in one group differ only in the suits of cards of one rank, and `decider.step` leaves the same
state after either but for those suits in the seat's hand (checked by tests/unit/test_analysis_candidates.py).
Suits are not wholly idle later (a beat of a higher rank needs one card of the top card's suit, ER-3.4), so a group
stands for its members as the analysis's estimate, not as an identity (what it hides is measured in
docs/analysis.md); the group's candidate takes the lowest cards (by the pack's order) of each rank.

The groups are every vector of counts (0 up to the laid-out cards of the rank, at most the room in all). Where there
are more than `MAX_TAKES`, the candidates are the first `MAX_TAKES` groups in this order: the fewest ranks taken in
part (a rank's laid-out cards taken all or none: with the seat's own cards of the rank, every card of it the seat
can hold, and four of a rank is what wins, ER-4.1), then the fewest cards, then the most of the lowest ranks. What
the cut loses is measured in docs/analysis.md (`python -m bench.candidates_bound`). The move played always joins the
candidates (domain.analysis puts it in place of its group's candidate, or adds it).
"""

from __future__ import annotations

from ..cards import cards_of, rank_of
from . import clauses
from .state import TAKE, State

MAX_TAKES = 48  # groups compared at most: each costs a playout of the whole game a sample


def key(state: State, seat: int, move: dict):
    """A move's group: a take's count of cards of each rank (13 counts); any other move is its own group."""
    if move.get("type") != "take":
        return None
    counts = [0] * 13
    for c in move.get("cards") or ():
        counts[rank_of(c)] += 1
    return ("take", tuple(counts))


def _laid_counts(state: State) -> list[int]:
    laid = [0] * 13
    for c in cards_of(state.laid_out):
        laid[rank_of(c)] += 1
    return laid


def group_count(state: State, seat: int) -> int:
    """How many groups of legal takes there are (counted, not listed: a product of binomial sums)."""
    room = clauses.take_room(state, seat)
    ways = [1] + [0] * room  # ways[t]: the groups taking t cards of the ranks seen so far
    for have in _laid_counts(state):
        ways = [sum(ways[t - k] for k in range(min(have, t) + 1)) for t in range(room + 1)]
    return sum(ways)


def take_groups(state: State, seat: int, limit: int) -> list[tuple[int, ...]]:
    """The first `limit` groups of legal takes, as 13 counts, in the order `candidates` keeps them: the fewest ranks
    taken in part first (a rank is taken whole when all its laid-out cards are, which with the seat's own makes every
    card of the rank it can hold), then the fewest cards, then the most of the lowest ranks. Built level by level,
    never listing the groups past the limit."""
    laid, room = _laid_counts(state), clauses.take_room(state, seat)
    out: list[tuple[int, ...]] = []
    rest = [sum(laid[r:]) for r in range(14)]  # laid-out cards from a rank up: a branch short of its total stops
    splittable = [sum(1 for k in laid[r:] if k > 1) for r in range(14)]  # nor one that cannot take `parts` in part

    def fill(rank: int, left: int, parts: int, counts: list[int]) -> None:
        if len(out) >= limit or left > rest[rank] or parts > splittable[rank]:
            return
        if rank == 13:
            if left == 0 and parts == 0:
                out.append(tuple(counts))
            return
        for k in range(min(laid[rank], left), -1, -1):
            part = 0 < k < laid[rank]
            if part and not parts:
                continue
            counts.append(k)
            fill(rank + 1, left - k, parts - part, counts)
            counts.pop()

    for parts in range(14):
        for total in range(min(room, sum(laid)) + 1):
            fill(0, total, parts, [])
    return out


def take_of(state: State, seat: int, counts: tuple[int, ...]) -> dict:
    """The group's candidate: the lowest laid-out cards (pack order) of each rank, as many as the counts say."""
    by_rank: dict[int, list[int]] = {}
    for c in cards_of(state.laid_out):
        by_rank.setdefault(rank_of(c), []).append(c)
    cards = sorted(c for r, k in enumerate(counts) for c in by_rank.get(r, [])[:k])
    return {"seat": seat, "type": "take", "cards": cards}


def candidates(state: State, seat: int) -> list[dict] | None:
    """Every legal move (None), but in a take: one take per group, at most MAX_TAKES groups (see the module doc)."""
    if state.phase != TAKE:
        return None
    return [take_of(state, seat, counts) for counts in take_groups(state, seat, MAX_TAKES)]
