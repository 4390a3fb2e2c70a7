"""The tournament room recomputed from the stored events alone, written from docs/tournaments.md without the
service's code (the reference tests/tournament_room.py holds the service to): the facts of the notification log,
standings and tie-breaks, team standings, the crosstable, and the pairing rules each round must keep."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from uuid import UUID

from domain.game import Game
from domain.games import spec_for
from domain.tournament.aggregate import Tournament

HALF = Fraction(1, 2)
EXHAUSTIVE_UP_TO = 12  # seated players: beyond, "avoidable" is judged by the Hajnal–Szemerédi bound


# -- what the stored events say, read without the service's code ---------------------------------------------------

@dataclass
class Facts:
    settings: dict
    players: list
    rounds: list  # [{"number", "pairing", "tables": [[player per seat]], "byes": [...], "order": standings order then}]
    games: dict  # game id -> {"round", "table", "index", "board", "players", "outcome": None | {result, winner, scores}}
    events: int = 0


def read_facts(app, tid: str) -> Facts:
    """Fold the whole notification log of the store (only this tournament lives in it) in its order. At each
    RoundStarted the standings of that moment are recomputed, the order a Swiss round is drawn from."""
    tid_uuid = UUID(tid)
    facts = Facts(settings={}, players=[], rounds=[], games={})
    notifications = app.recorder.select_notifications(start=0, limit=10**9, inclusive_of_start=False)
    facts.events = len(notifications)
    for n in notifications:
        event = app.mapper.to_domain_event(n)
        if event.originator_id == tid_uuid:
            if isinstance(event, Tournament.Created):
                facts.settings = dict(event.settings)
            elif isinstance(event, Tournament.Edited):
                facts.settings = dict(event.settings)
            elif isinstance(event, Tournament.PlayerEntered):
                facts.players.append({"name": event.name, "team": event.team})
            elif isinstance(event, Tournament.RoundStarted):
                order = [row["player"] for row in expected_standings(facts)["players"]]
                facts.rounds.append({"number": event.number, "pairing": event.pairing, "byes": list(event.byes),
                                     "tables": [list(t["players"]) for t in event.tables], "order": order})
            elif isinstance(event, Tournament.GameStarted):
                seats = facts.rounds[event.round - 1]["tables"][event.table]
                facts.games[event.game_id] = {"round": event.round, "table": event.table, "index": event.index,
                                              "board": event.board, "players": list(seats), "outcome": None}
        elif str(event.originator_id) in facts.games:
            game = facts.games[str(event.originator_id)]
            if isinstance(event, Game.SeedRevealed):
                game["outcome"] = {"result": event.result, "winner": event.winner, "scores": event.scores}
            elif isinstance(event, Game.Rewound):
                # a rewind goes back to before a move, so before any end: the game is open again, and a result it
                # had recorded counts on, provisional, until it ends again ("Rounds that respect rulings")
                game["provisional"] = game["outcome"] is not None or game.get("provisional", False)
    return facts


# -- standings, written from docs/tournaments.md ("Standings and tie-breaks") --------------------------------------

def seat_points(outcome: dict, seat: int) -> Fraction:
    """A win 1 (a shared win is a win for each winner), a draw (no winner) 1/2, a loss 0."""
    if outcome["result"] == "draw" or not outcome["winner"]:
        return HALF
    return Fraction(1) if seat in outcome["winner"]["seats"] else Fraction(0)


def partners(facts: Facts, a: int, b: int) -> bool:
    team = facts.players[a]["team"]
    return team is not None and team == facts.players[b]["team"]


def rank_by(settings: dict) -> str:
    if settings.get("duplicate"):
        return "matchpoints"
    return "score" if spec_for(settings["game"]).rank_by_score else "points"


def expected_standings(facts: Facts) -> dict:
    """The standings as the docs define them, from the facts (finished games and byes)."""
    n = len(facts.players)
    finished = [g for g in facts.games.values() if g["outcome"] is not None]
    rows = [{"player": p, "name": facts.players[p]["name"], "team": facts.players[p]["team"], "played": 0, "won": 0,
             "lost": 0, "drawn": 0, "byes": 0, "points": Fraction(0), "score": None, "buchholz": Fraction(0),
             "head_to_head": Fraction(0), "matchpoints": Fraction(0)} for p in range(n)]
    for g in finished:
        for seat, p in enumerate(g["players"]):
            got = seat_points(g["outcome"], seat)
            rows[p]["played"] += 1
            rows[p]["won" if got == 1 else "drawn" if got == HALF else "lost"] += 1
            rows[p]["points"] += got
            if g["outcome"]["scores"] is not None:
                rows[p]["score"] = (rows[p]["score"] or 0) + g["outcome"]["scores"][seat]
    for r in facts.rounds:
        for p in r["byes"]:
            rows[p]["byes"] += 1
            rows[p]["points"] += 1
    for g in finished:  # Buchholz: for every game played, the points of each opponent in it (partners are not)
        for p in g["players"]:
            rows[p]["buchholz"] += sum(rows[q]["points"] for q in g["players"] if q != p and not partners(facts, p, q))
    boards = defaultdict(list)  # matchpoints: per board and seat, 2 for each other table that made less, 1 as much
    for g in finished:
        if g["board"] is not None:
            boards[g["board"]].append(g)
    for tables in boards.values():
        for a in tables:
            for seat, p in enumerate(a["players"]):
                for b in tables:
                    if b is a or seat >= len(b["players"]):
                        continue
                    mine, theirs = made(a, seat), made(b, seat)
                    rows[p]["matchpoints"] += 2 if mine > theirs else 1 if mine == theirs else 0
    by = rank_by(facts.settings)

    def first_keys(row):
        score = row["score"] or 0
        return {"points": (row["points"], row["buchholz"]), "score": (score, row["points"], row["buchholz"]),
                "matchpoints": (row["matchpoints"], row["points"], row["buchholz"])}[by]

    groups = defaultdict(list)
    for row in rows:
        groups[first_keys(row)].append(row)
    for tied in groups.values():
        if len(tied) < 2:
            continue
        members = {row["player"] for row in tied}
        for row in tied:  # head-to-head: the points earned in games among the players still tied
            p = row["player"]
            row["head_to_head"] = sum((seat_points(g["outcome"], g["players"].index(p)) for g in finished
                                       if p in g["players"] and len(members & set(g["players"])) > 1), Fraction(0))

    def full_key(row):
        return (*first_keys(row), row["head_to_head"], row["score"] or 0)

    ordered = sorted(rows, key=lambda row: ([-k for k in full_key(row)], row["player"]))
    for i, row in enumerate(ordered):
        same = i > 0 and full_key(ordered[i - 1]) == full_key(row)
        row["rank"] = ordered[i - 1]["rank"] if same else i + 1
    return {"rank_by": by, "players": ordered, "teams": expected_teams(facts, finished)}


def made(game: dict, seat: int) -> Fraction:
    scores = game["outcome"]["scores"]
    return Fraction(scores[seat]) if scores is not None else seat_points(game["outcome"], seat)


def expected_teams(facts: Facts, finished: list) -> list:
    names = list(dict.fromkeys(p["team"] for p in facts.players if p["team"]))
    rows = {t: {"team": t, "members": [p["name"] for p in facts.players if p["team"] == t], "played": 0, "won": 0,
                "lost": 0, "drawn": 0, "points": Fraction(0), "score": None} for t in names}
    for g in finished:
        counted = set()
        for seat, p in enumerate(g["players"]):
            team = facts.players[p]["team"]
            if team is None:
                continue
            if g["outcome"]["scores"] is not None:
                rows[team]["score"] = (rows[team]["score"] or 0) + g["outcome"]["scores"][seat]
            if team not in counted:  # a game counts once per team
                counted.add(team)
                got = seat_points(g["outcome"], seat)
                rows[team]["played"] += 1
                rows[team]["won" if got == 1 else "drawn" if got == HALF else "lost"] += 1
                rows[team]["points"] += got
    ordered = sorted(rows.values(), key=lambda r: (-r["points"], -(r["score"] or 0), names.index(r["team"])))
    for i, r in enumerate(ordered):
        same = i > 0 and (ordered[i - 1]["points"], ordered[i - 1]["score"]) == (r["points"], r["score"])
        r["rank"] = ordered[i - 1]["rank"] if same else i + 1
    return ordered


def plain(rows: list) -> list:
    return [{k: (float(v) if isinstance(v, Fraction) else v) for k, v in row.items()} for row in rows]


# -- the crosstable ----------------------------------------------------------------------------------------------

MARK = {Fraction(1): "1", HALF: "½", Fraction(0): "0"}
MARK_VALUE = {"1": Fraction(1), "½": HALF, "0": Fraction(0)}


def expected_crosstable(facts: Facts, order: list) -> list:
    rows = []
    ordered_games = sorted(facts.games.values(), key=lambda g: (g["round"], g["index"]))
    for p in order:
        cells = []
        for q in order:
            if q == p:
                cells.append(None)
                continue
            marks = []
            for g in ordered_games:
                if p in g["players"] and q in g["players"] and not partners(facts, p, q):
                    marks.append("·" if g["outcome"] is None else MARK[seat_points(g["outcome"], g["players"].index(p))])
            cells.append(marks)
        rows.append({"player": p, "name": facts.players[p]["name"], "cells": cells,
                     "byes": sum(r["byes"].count(p) for r in facts.rounds)})
    return rows


# -- the checks ----------------------------------------------------------------------------------------------------

def check_room(app, tid: str, view: dict, served_standings: dict) -> None:
    """Everything the room serves against the facts; raises AssertionError naming what differs."""
    facts = read_facts(app, tid)
    expected = expected_standings(facts)
    for served in (served_standings, view["standings"]):
        assert served["rank_by"] == expected["rank_by"]
        players, teams = plain(expected["players"]), plain(expected["teams"])
        assert known(served["players"], players) == players, diff_rows(known(served["players"], players), players)
        assert known(served["teams"], teams) == teams, (served["teams"], teams)
    order = [row["player"] for row in expected["players"]]
    crosstable = expected_crosstable(facts, order)
    assert known(view["crosstable"], crosstable) == crosstable
    check_crosstable_sums(facts, view["crosstable"], {row["player"]: row for row in expected["players"]})
    check_pairings(facts)


def known(served: list, expected: list) -> list:
    """The served rows cut to the fields the reference computes (a field the service adds later is not judged)."""
    fields = set().union(*(row.keys() for row in expected)) if expected else set()
    return [{k: v for k, v in row.items() if k in fields} for row in served]


def diff_rows(served: list, expected: list) -> str:
    for a, b in zip(served, expected):
        if a != b:
            return f"first difference: served {a} expected {b}"
    return f"lengths {len(served)} {len(expected)}"


def check_crosstable_sums(facts: Facts, crosstable: list, rows: dict) -> None:
    """A row's marks add up to the standings: each finished game gives its mark once per opponent in it, so the
    marks weighted by 1/opponents of their game are the points less the byes (pairs: plain sums)."""
    per_game_opponents = {}
    for g in facts.games.values():
        for p in g["players"]:
            per_game_opponents[(id(g), p)] = sum(1 for q in g["players"] if q != p and not partners(facts, p, q))
    for row in crosstable:
        p = row["player"]
        marks = [m for cell in row["cells"] if cell is not None for m in cell if m != "·"]
        opponents = [per_game_opponents[(id(g), p)] for g in facts.games.values()
                     if g["outcome"] is not None and p in g["players"]]
        assert len(marks) == sum(opponents), f"{row['name']}: {len(marks)} marks for {sum(opponents)} opponents met"
        if all(k == 1 for k in opponents):
            assert sum(MARK_VALUE[m] for m in marks) + row["byes"] == rows[p]["points"], f"{row['name']}: row sum"
        assert row["byes"] == rows[p]["byes"]
        finished_with_opponents = sum(1 for g in facts.games.values() if g["outcome"] is not None and p in g["players"]
                                      and per_game_opponents[(id(g), p)])
        assert finished_with_opponents <= rows[p]["played"]


def check_pairings(facts: Facts) -> None:
    fmt = facts.settings["format"]
    n = len(facts.players)
    met: Counter = Counter()
    seat_history: dict = defaultdict(Counter)
    byes_had: Counter = Counter()
    for r in facts.rounds:
        seated = [p for t in r["tables"] for p in t]
        assert len(seated) == len(set(seated)), f"round {r['number']}: a player sits twice"
        assert sorted(seated + r["byes"]) == list(range(n)), f"round {r['number']}: not everyone seated or on a bye"
        if fmt == "swiss":
            check_swiss_round(facts, r, met, seat_history, byes_had)
        elif fmt == "round-robin":
            assert all(len(t) == 2 for t in r["tables"]) and len(r["byes"]) == n % 2
            for a, b in (t for t in r["tables"]):
                assert met[frozenset((a, b))] == 0, f"round-robin: {a} and {b} meet twice"
        elif fmt == "teams":
            for t in r["tables"]:
                k = len(t)
                assert all(not partners(facts, t[i], t[(i + 1) % k]) for i in range(k)), "partners side by side (ER-1.2)"
        else:
            assert r["tables"] == [list(range(n))]
        for t in r["tables"]:
            for pair in itertools.combinations(t, 2):
                if not partners(facts, *pair):
                    met[frozenset(pair)] += 1
            for seat, p in enumerate(t):
                seat_history[p][seat] += 1
        for p in r["byes"]:
            byes_had[p] += 1
    if fmt == "round-robin" and facts.rounds:
        for k, r in enumerate(facts.rounds):  # the circle method's fixed player (0) alternates sides
            fixed = [t for t in r["tables"] if 0 in t]
            if fixed:
                assert fixed[0].index(0) == k % 2, f"round {r['number']}: player 0 is not on side {k % 2}"
        if len(facts.rounds) == (n - 1 if n % 2 == 0 else n):  # every round drawn: everyone met everyone once
            assert set(met) == {frozenset(p) for p in itertools.combinations(range(n), 2)}


def check_swiss_round(facts: Facts, r: dict, met: Counter, seat_history: dict, byes_had: Counter) -> None:
    order = r["order"]
    place = {p: i for i, p in enumerate(order)}
    number = r["number"]
    sizes = [len(t) for t in r["tables"]]
    pairs = max(sizes, default=2) == 2
    # the byes: pairs, the lowest-placed without one (everyone has had one: the lowest); tables, the fewest byes
    # so far, the lowest-placed first
    if pairs:
        assert len(r["byes"]) == len(order) % 2
        if r["byes"]:
            without = [p for p in order if byes_had[p] == 0]
            assert r["byes"] == [(without or order)[-1]], f"round {number}: bye to {r['byes']}, not as documented"
    else:
        for b in r["byes"]:
            for p in (p for t in r["tables"] for p in t):
                assert (byes_had[b], -place[b]) <= (byes_had[p], -place[p]), f"round {number}: bye {b} before {p}"
    # tables filled down the standings: each table's best-placed player is the best-placed of those not seated yet
    remaining = sorted((p for t in r["tables"] for p in t), key=place.get)
    for t in r["tables"]:
        best = min(t, key=place.get)
        assert best == remaining[0], f"round {number}: table {t} is not headed by the best unseated player"
        remaining = [p for p in remaining if p not in t]
    # no rematch where one could be avoided
    seated = [p for t in r["tables"] for p in t]
    rematches = sum(met[frozenset(pair)] > 0 for t in r["tables"] for pair in itertools.combinations(t, 2))
    if rematches:
        assert not rematch_free_round_exists(seated, sizes, met, place), \
            f"round {number}: {rematches} rematch(es) although a round without any exists"
    # seats
    for t in r["tables"]:
        best_first = sorted(t, key=place.get)
        if pairs:
            assert t == best_first, f"round {number}: pair {t}: the higher-placed player takes seat 0"
        else:
            def cost(seating):
                sat = [seat_history[p][s] for s, p in enumerate(seating)]
                return max(sat), sum(sat)

            best = min(cost(s) for s in itertools.permutations(best_first))
            assert cost(t) == best, f"round {number}: table {t} is not seated as documented"
            if cost(best_first) == best:
                assert t == best_first, f"round {number}: table {t}: on a tie, best first"


def rematch_free_round_exists(seated: list, sizes: list, met: Counter, place: dict) -> bool:
    """Whether the seated players could have sat at tables of these sizes with nobody meeting again. Hajnal and
    Szemerédi: a graph of largest degree D splits into any k >= D + 1 independent sets of sizes differing by at most
    one (the sizes table_sizes gives). Small fields: exhaustive search."""
    graph = {p: {q for q in seated if q != p and met[frozenset((p, q))]} for p in seated}
    if max(sizes) - min(sizes) <= 1 and max((len(v) for v in graph.values()), default=0) + 1 <= len(sizes):
        return True
    if len(seated) > EXHAUSTIVE_UP_TO:
        return False  # not decided: the round is not held to it

    def split(players: list, sizes: list) -> bool:
        if not sizes:
            return True
        head, others = players[0], players[1:]
        for size in dict.fromkeys(sizes):
            rest_sizes = list(sizes)
            rest_sizes.remove(size)
            for mates in itertools.combinations(others, size - 1):
                if any(q in graph[x] for x, q in itertools.combinations((head, *mates), 2)):
                    continue
                if split([p for p in others if p not in mates], rest_sizes):
                    return True
        return False

    return split(sorted(seated, key=place.get), sorted(sizes, reverse=True))
