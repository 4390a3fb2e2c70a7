"""Standings: a pure fold of a tournament's finished games into a table per player and per team.

Points: a win 1, a draw 1/2, a loss 0, a bye 1 (a bye is not a game played). `score` is the game's own score
summed over the player's games (chips, points; None for games that keep none).
Tie-breaks, in order (docs/tournaments.md; KEYS and AFTER, which the pages' legend reads): points are ranked by, then Buchholz (the sum of the points of every
opponent met), then head-to-head (the points earned in games among the players still tied), then score.
`rank_by="score"` (BA-5.2: the highest chip total wins) puts the score first; `rank_by="matchpoints"` (duplicate
play) puts the matchpoints first, then points and Buchholz. Players equal on every key share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any, Sequence

RANKINGS = ("points", "score", "matchpoints")
# The keys a ranking compares, in the order it compares them (the rest breaks the ties left, in the order AFTER):
# the one source of the sort below and of the legend the pages print ("order" in the standings).
KEYS = {"points": ("points", "buchholz"), "score": ("score", "points", "buchholz"),
        "matchpoints": ("matchpoints", "points", "buchholz")}
AFTER = ("head_to_head", "score")


def order_of(rank_by: str) -> list[str]:
    """Every key of a ranking in the order it is applied, each once: the first ranks, the others break ties."""
    return list(dict.fromkeys(KEYS[rank_by] + AFTER))


def rank_by_of(settings: dict) -> str:
    """How a tournament is ranked: matchpoints in duplicate play, the score total where the rulebook says so
    (a spec's rank_by_score), else points."""
    from ..games import spec_for

    if settings.get("duplicate"):
        return "matchpoints"
    return "score" if spec_for(settings["game"]).rank_by_score else "points"


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def result_of(game: dict, seat: int) -> str:
    """'won', 'lost' or 'drawn' for a seat of a finished game (a shared win is a win for each winner)."""
    if game["result"] == "draw" or not game.get("winner"):
        return "drawn"
    return "won" if seat in game["winner"]["seats"] else "lost"


def _value(game: dict, seat: int) -> Fraction:
    """What a seat made of a board, compared across the tables holding the same cards: the score if the game keeps
    one, else 1 for a win, 1/2 for a draw, 0 for a loss."""
    if game.get("scores") is not None:
        return Fraction(game["scores"][seat])
    return {"won": Fraction(1), "drawn": Fraction(1, 2), "lost": Fraction(0)}[result_of(game, seat)]


def matchpoints(games: Sequence[dict]) -> dict[int, Fraction]:
    """Duplicate scoring: for every board (games dealt from one seed) and seat, each player scores 2 for every other
    table where the same seat made less of the same cards, 1 for every table where it made as much (bridge's
    matchpoints, a top being 2 x (tables - 1))."""
    by_board: dict[Any, list[dict]] = defaultdict(list)
    for g in games:
        if g.get("board") is not None and g["status"] == "finished":
            by_board[g["board"]].append(g)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for tables in by_board.values():
        for seat in range(len(tables[0]["players"])):
            values = [(g["players"][seat], _value(g, seat)) for g in tables if seat < len(g["players"])]
            for player, v in values:
                out[player] += sum((2 if v > w else 1 if v == w else 0) for _, w in values) - 1  # itself counted once as equal
    return out


def standings(players: Sequence[dict], games: Sequence[dict], byes: Sequence[tuple[int, int]] = (),
              rank_by: str = "points") -> dict:
    """{"players": [...], "teams": [...]}: rows ranked best first (see the module's docstring for the keys)."""
    if rank_by not in RANKINGS:
        raise ValueError(f"rank_by: expected one of {', '.join(RANKINGS)}")
    n = len(players)
    finished = [g for g in games if g["status"] == "finished"]
    rows = [{"player": i, "name": p["name"], "team": p.get("team"), "played": 0, "won": 0, "lost": 0, "drawn": 0,
             "byes": 0, "points": Fraction(0), "score": None, "buchholz": Fraction(0), "head_to_head": Fraction(0),
             "matchpoints": Fraction(0)} for i, p in enumerate(players)]
    opponents: dict[int, list[int]] = defaultdict(list)
    for g in finished:
        for seat, player in enumerate(g["players"]):
            row = rows[player]
            outcome = result_of(g, seat)
            row["played"] += 1
            row[outcome] += 1
            row["points"] += {"won": Fraction(1), "drawn": Fraction(1, 2), "lost": Fraction(0)}[outcome]
            if g.get("scores") is not None:
                row["score"] = (row["score"] or 0) + g["scores"][seat]
            team = players[player].get("team")
            opponents[player] += [q for q in g["players"] if q != player and (team is None or players[q].get("team") != team)]
    for _, player in byes:
        rows[player]["byes"] += 1
        rows[player]["points"] += 1
    for player in range(n):
        rows[player]["buchholz"] = sum((rows[q]["points"] for q in opponents[player]), Fraction(0))
    for player, mp in matchpoints(finished).items():
        rows[player]["matchpoints"] = mp

    def head(row: dict) -> tuple:
        return tuple((row[k] if row[k] is not None else 0) for k in KEYS[rank_by])

    ordered = sorted(rows, key=lambda r: (tuple(-k for k in head(r)), r["player"]))
    # head-to-head inside each group still tied on the keys before it, then the score
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and head(ordered[j]) == head(ordered[i]):
            j += 1
        group = {r["player"] for r in ordered[i:j]}
        if len(group) > 1:
            for r in ordered[i:j]:
                r["head_to_head"] = _points_among(finished, r["player"], group)
        ordered[i:j] = sorted(ordered[i:j], key=lambda r: (-r["head_to_head"], -(r["score"] or 0), r["player"]))
        i = j
    key = lambda r: (head(r), r["head_to_head"], r["score"] or 0)  # noqa: E731
    for place, r in enumerate(ordered):
        r["rank"] = ordered[place - 1]["rank"] if place and key(ordered[place - 1]) == key(r) else place + 1
    out_rows = [_plain(r) for r in ordered]
    return {"rank_by": rank_by, "order": order_of(rank_by), "players": out_rows, "teams": _teams(players, finished, byes)}


def _points_among(games: Sequence[dict], player: int, group: set[int]) -> Fraction:
    total = Fraction(0)
    for g in games:
        if player in g["players"] and len(group.intersection(g["players"])) > 1:
            seat = g["players"].index(player)
            total += {"won": Fraction(1), "drawn": Fraction(1, 2), "lost": Fraction(0)}[result_of(g, seat)]
    return total


def _teams(players: Sequence[dict], games: Sequence[dict], byes: Sequence[tuple[int, int]]) -> list[dict]:
    names = list(dict.fromkeys(p["team"] for p in players if p.get("team")))
    if not names:
        return []
    rows = {t: {"team": t, "members": [p["name"] for p in players if p.get("team") == t], "played": 0, "won": 0,
                "lost": 0, "drawn": 0, "points": Fraction(0), "score": None} for t in names}
    for g in games:
        seen = set()
        for seat, player in enumerate(g["players"]):
            team = players[player].get("team")
            if team is None:
                continue
            row = rows[team]
            if g.get("scores") is not None:
                row["score"] = (row["score"] or 0) + g["scores"][seat]
            if team in seen:
                continue
            seen.add(team)
            outcome = result_of(g, seat)
            row["played"] += 1
            row[outcome] += 1
            row["points"] += {"won": Fraction(1), "drawn": Fraction(1, 2), "lost": Fraction(0)}[outcome]
    ordered = sorted(rows.values(), key=lambda r: (-r["points"], -(r["score"] or 0), names.index(r["team"])))
    for place, r in enumerate(ordered):
        prev = ordered[place - 1] if place else None
        r["rank"] = prev["rank"] if prev and (prev["points"], prev["score"]) == (r["points"], r["score"]) else place + 1
    return [_plain(r) for r in ordered]


def _plain(row: dict) -> dict:
    return {k: _num(v) if isinstance(v, Fraction) else v for k, v in row.items()}
