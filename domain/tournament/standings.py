"""Standings: a pure fold of a tournament's finished games into a table per player and per team.

Points: a win 1, a draw 1/2, a loss 0, a bye 1 (a bye is not a game played). `score` is the game's own score
summed over the player's games (chips, points; None for games that keep none).
The keys a row is ranked by, in order, are ORDER[rank_by]: one list that both sorts the rows and writes the legend
(`legend`), so the page can never name an order the code does not apply. Points are ranked by, then Buchholz (the
sum of the points of every opponent met), then head-to-head (the points earned in games among the players still
tied on every key before it), then score. `rank_by="score"` (BA-5.2: the highest chip total wins) puts the score
first; `rank_by="matchpoints"` (duplicate play) puts the matchpoints first, then points. Players equal on every key
share a rank.

A result marked `provisional` (a finished game a ruling reopened: projections/standings.py) counts as recorded until
the game ends again; each row lists the rounds of its provisional results, and the document lists them all.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any, Sequence

RANKINGS = ("points", "score", "matchpoints")
# what each ranking sorts by, best first: the sort below and the legend are both read from here
ORDER = {
    "points": ("points", "buchholz", "head_to_head", "score"),
    "score": ("score", "points", "buchholz", "head_to_head"),
    "matchpoints": ("matchpoints", "points", "buchholz", "head_to_head", "score"),
}
KEY_NAMES = {"points": "points", "score": "score", "matchpoints": "matchpoints", "buchholz": "Buchholz",
             "head_to_head": "head-to-head"}


def order_of(rank_by: str) -> list[str]:
    """Every key of a ranking in the order it is applied: the first ranks, the others break ties (ORDER)."""
    return list(ORDER[rank_by])


def legend(rank_by: str) -> str:
    """The ranking in words, from ORDER: "ranked by points; tie-breaks: Buchholz, head-to-head, score"."""
    first, *rest = (KEY_NAMES[k] for k in ORDER[rank_by])
    return f"ranked by {first}; tie-breaks: {', '.join(rest)}"


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
             "matchpoints": Fraction(0), "provisional": []} for i, p in enumerate(players)]
    opponents: dict[int, list[int]] = defaultdict(list)
    for g in finished:
        for seat, player in enumerate(g["players"]):
            row = rows[player]
            outcome = result_of(g, seat)
            row["played"] += 1
            row[outcome] += 1
            if g.get("provisional"):
                row["provisional"].append(g.get("round"))
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

    keys = ORDER[rank_by]
    split = keys.index("head_to_head")

    def value(row: dict, k: str) -> Fraction | int:
        return (row[k] or 0) if k == "score" else row[k]

    def head(row: dict) -> tuple:  # the keys before head-to-head
        return tuple(value(row, k) for k in keys[:split])

    def key(row: dict) -> tuple:  # every key, in order
        return tuple(value(row, k) for k in keys)

    ordered = sorted(rows, key=lambda r: (tuple(-k for k in head(r)), r["player"]))
    # head-to-head inside each group still tied on the keys before it, then the keys after it
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and head(ordered[j]) == head(ordered[i]):
            j += 1
        group = {r["player"] for r in ordered[i:j]}
        if len(group) > 1:
            for r in ordered[i:j]:
                r["head_to_head"] = _points_among(finished, r["player"], group)
        ordered[i:j] = sorted(ordered[i:j], key=lambda r: (tuple(-k for k in key(r)[split:]), r["player"]))
        i = j
    for place, r in enumerate(ordered):
        r["rank"] = ordered[place - 1]["rank"] if place and key(ordered[place - 1]) == key(r) else place + 1
    out_rows = [_plain(r) for r in ordered]
    provisional = [{"round": g.get("round"), "table": g.get("table"), "game_id": g.get("game_id"),
                    "players": [players[p]["name"] for p in g["players"]]} for g in finished if g.get("provisional")]
    return {"rank_by": rank_by, "order": list(keys), "legend": legend(rank_by), "players": out_rows,
            "teams": _teams(players, finished, byes), "provisional": provisional}


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
