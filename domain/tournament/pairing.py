"""Pairings: round-robin by the circle method, Swiss by score groups (pairs, or tables of 3 and more), the seats
of a Swiss table balanced, and seat rotation for team play."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Iterable, Sequence

SWISS_BUDGET = 20_000  # search steps for a pairing without a rematch before accepting the fewest rematches greedily
TABLES_BUDGET = 50_000  # the same for tables of 3 and more (each candidate table examined is a step)


def round_robin(n: int) -> list[list[tuple[int, int | None]]]:
    """Every round of a round-robin of n players by the circle method: player 0 stays, the others turn one place
    each round. With an odd n a phantom player is added: whoever meets it has the bye (the pair's second is None).
    Everyone meets everyone exactly once, in n - 1 rounds (n even) or n rounds (n odd)."""
    if n < 2:
        raise ValueError("a round-robin needs at least 2 players")
    ring: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    m = len(ring)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            if a is None:
                a, b = b, a
            if i == 0 and r % 2 == 1 and b is not None:  # the fixed player alternates sides (seat 0 and seat 1)
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def swiss(order: Sequence[int], met: Iterable[tuple[int, int]], had_bye: Iterable[int]) -> tuple[list[tuple[int, int]], int | None]:
    """One Swiss round: `order` is the players from the best standing down (score groups first). Returns (pairs, bye).

    - an odd field gives the bye to the lowest-placed player who has not had one (if everyone has, the lowest);
    - players are paired down the order (each with the nearest player below not yet met), backtracking so that
      nobody meets an opponent twice while a pairing without a rematch exists; if none exists (or the search
      runs out of its budget) the order is paired top-down accepting rematches.
    """
    players = list(order)
    met_set = {frozenset(p) for p in met}
    byes = set(had_bye)
    bye = None
    if len(players) % 2:
        candidates = [p for p in reversed(players) if p not in byes] or [players[-1]]
        bye = candidates[0]
        players.remove(bye)
    steps = [0]

    def search(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > SWISS_BUDGET:
            return None
        first = rest[0]
        for i in range(1, len(rest)):
            other = rest[i]
            if frozenset((first, other)) in met_set:
                continue
            tail = search(rest[1:i] + rest[i + 1:])
            if tail is not None:
                return [(first, other), *tail]
        return None

    pairs = search(players)
    if pairs is None:
        pairs = [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    return pairs, bye


def table_sizes(n: int, low: int, high: int) -> list[int]:
    """The tables of a round for n players at tables of `low` to `high` seats, largest first: the fewest byes, then
    the fewest tables, their sizes as even as possible (10 players at 3–4: [4, 3, 3]; 5 at 3–4: [4], one bye).
    Empty when n < low (no table can be made)."""
    for seated in range(n, low - 1, -1):
        k = -(-seated // high)
        if k * low <= seated:
            q, r = divmod(seated, k)
            return [q + 1] * r + [q] * (k - r)
    return []


def byes_for(order: Sequence[int], count: int, had_bye: Iterable[int]) -> list[int]:
    """Who sits out a round when `count` players cannot be seated: those with the fewest byes so far, the
    lowest-placed first (`order` is best first; `had_bye` lists a player once per bye had)."""
    had = Counter(had_bye)
    place = {p: i for i, p in enumerate(order)}
    return sorted(order, key=lambda p: (had[p], -place[p]))[:count]


def swiss_tables(order: Sequence[int], met: Iterable[tuple[int, ...]], had_bye: Iterable[int],
                 sizes: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """One Swiss round at tables of several seats: `order` is the players from the best standing down, `sizes` the
    tables (table_sizes). Returns (tables, byes); each table lists its players best first.

    - whoever cannot be seated has a bye (byes_for: the fewest byes so far, the lowest-placed first);
    - tables are filled down the order: a table's first seat is the best player not yet seated, the others the
      nearest players below who have met nobody at the table, backtracking (over the next tables too) so that no two
      players meet again while a round without any rematch exists;
    - if none exists (or the search runs out of its budget), each table takes, one player at a time, the one who has
      met the fewest of its players so far, the nearest below on a tie; then two players of two tables swap places
      while that lowers the round's rematches, and the tables are put in the order of their best-placed players.
    """
    players = list(order)
    byes = byes_for(players, len(players) - sum(sizes), had_bye)
    rest = [p for p in players if p not in byes]
    met_set = {frozenset(pair) for group in met for pair in itertools.combinations(group, 2)}
    steps = [0]

    def fresh(table: Sequence[int]) -> bool:
        return all(frozenset(pair) not in met_set for pair in itertools.combinations(table, 2))

    def search(rest: list[int], sizes: Sequence[int]) -> list[list[int]] | None:
        if not sizes:
            return []
        head, others = rest[0], rest[1:]
        for mates in itertools.combinations(others, sizes[0] - 1):
            steps[0] += 1
            if steps[0] > TABLES_BUDGET:
                return None
            table = [head, *mates]
            if not fresh(table):
                continue
            tail = search([p for p in others if p not in mates], sizes[1:])
            if tail is not None:
                return [table, *tail]
        return None

    tables = search(rest, list(sizes)) if rest else []
    if tables is None:
        tables = []
        for size in sizes:
            table = [rest.pop(0)]
            while len(table) < size:
                pick = min(range(len(rest)),
                           key=lambda i: (sum(frozenset((rest[i], q)) in met_set for q in table), i))
                table.append(rest.pop(pick))
            tables.append(table)
        tables = sorted((sorted(t, key=players.index) for t in _fewer_rematches(tables, met_set)),
                        key=lambda t: players.index(t[0]))
    return tables, byes


def _rematches(table: Sequence[int], met_set: set) -> int:
    return sum(frozenset(pair) in met_set for pair in itertools.combinations(table, 2))


def _fewer_rematches(tables: list[list[int]], met_set: set) -> list[list[int]]:
    """Swap two players of two tables while a swap lowers the round's rematches (the greedy fill's polish)."""
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
                x, y = tables[a][:], tables[b][:]
                x[i], y[j] = y[j], x[i]
                if _rematches(x, met_set) + _rematches(y, met_set) < _rematches(tables[a], met_set) + _rematches(tables[b], met_set):
                    tables[a], tables[b], improved = x, y, True
    return tables


def balanced_seats(table: Sequence[int], seat_counts: dict[int, Counter]) -> list[int]:
    """The seating of one Swiss table (player per seat): the arrangement that sends nobody to a seat they have sat in
    more often than needed (the fewest earlier games in the seat given, for the player worst served), then the one
    whose players have sat least often in their seats in all, then the table's order (best first in seat 0).
    `seat_counts[p][s]`: how many rounds player p has played in seat s."""
    def cost(seating: Sequence[int]) -> tuple[int, int]:
        sat = [seat_counts.get(p, Counter())[s] for s, p in enumerate(seating)]
        return max(sat), sum(sat)

    return list(min(itertools.permutations(table), key=cost))


def team_round(teams: Sequence[Sequence[int]], pairing: tuple[int, int], rotation: int) -> list[int]:
    """The seating of one team table: the two teams' members interleaved (no partner beside a partner, ER-1.2), the
    first team in its own order and the second turned by `rotation` places, so each round gives everyone new
    neighbours."""
    a, b = teams[pairing[0]], teams[pairing[1]]
    if len(a) != len(b):
        raise ValueError("teams at one table must be of one size")
    k = rotation % len(b)
    b = list(b[k:]) + list(b[:k])
    seats: list[int] = []
    for x, y in zip(a, b):
        seats += [x, y]
    return seats
