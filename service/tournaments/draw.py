"""A tournament round's draw: which players sit at which table, who has a bye, by the format's pure rules
(domain/tournament: round-robin, Swiss by the standings, teams)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable

from domain.tournament import pairing, spec as tspec
from domain.tournament.aggregate import Tournament


def draw(t: Tournament, number: int, current_standings: Callable[[], dict]) -> tuple[list[dict], list[int], str]:
    """The tables of round `number`: [{"table", "players"}], the byes and how they were drawn (`current_standings`:
    the standings now, which a Swiss round pairs by)."""
    fmt, n = t.settings["format"], len(t.players)
    pairs: list[tuple] = []
    byes: list[int] = []
    if fmt == "match":
        return [{"table": 0, "players": list(range(n))}], [], "match"
    if fmt == "round-robin":
        for a, b in pairing.round_robin(n)[number - 1]:
            (pairs.append((a, b)) if b is not None else byes.append(a))
    elif fmt == "swiss":
        current = current_standings()
        order = [row["player"] for row in current["players"]]
        met = [tuple(table["players"]) for r in t.rounds for table in r["tables"]]
        had = [p for r in t.rounds for p in r["byes"]]
        low, high = tspec.table_seats(t.settings)
        if high == 2:
            pairs, bye = pairing.swiss(order, met, had)
            byes = [] if bye is None else [bye]
        else:
            groups, byes = pairing.swiss_tables(order, met, had, pairing.table_sizes(n, low, high))
            seats = seat_counts(t)
            pairs = [tuple(pairing.balanced_seats(g, seats)) for g in groups]
    else:
        teams = tspec.teams_of(t.players)
        rr = pairing.round_robin(len(teams))
        tables = []
        for a, b in rr[(number - 1) % len(rr)]:
            if b is None:
                byes += teams[a]
                continue
            seats = pairing.team_round(teams, (a, b), (number - 1) // len(rr) if len(teams) > 2 else number - 1)
            tables.append({"table": len(tables), "players": seats})
        return tables, byes, "teams"
    return [{"table": i, "players": list(p)} for i, p in enumerate(pairs)], byes, fmt


def seat_counts(t: Tournament) -> dict[int, Counter]:
    """How many rounds each player has sat in each seat (a table's seat, whatever the games it played there)."""
    counts: dict[int, Counter] = defaultdict(Counter)
    for r in t.rounds:
        for table in r["tables"]:
            for seat, p in enumerate(table["players"]):
                counts[p][seat] += 1
    return counts
