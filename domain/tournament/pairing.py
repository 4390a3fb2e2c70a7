"""Pairings: round-robin by the circle method, Swiss by score groups, and seat rotation for team play."""

from __future__ import annotations

from typing import Iterable, Sequence

SWISS_BUDGET = 20_000  # search steps for a pairing without a rematch before accepting the fewest rematches greedily


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
