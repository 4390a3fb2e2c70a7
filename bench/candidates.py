"""How many candidates the computer analysis compares per decision (issue 36 part 3, docs/analysis.md): games played
by the heuristic bots from fixed seeds, every decision with a choice (more than one legal move) counted.

For each game: the decisions with a choice, how many of them are analysed (two candidates or more, the move played
included), and the candidates per analysed decision (mean, max); per move type where it matters (El Royale's takes,
Four Virtues' melds, Small Battle's arrangements). Counts only: nothing is sampled, so it runs in seconds.

Usage:  python -m bench.candidates [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
from itertools import islice

from domain.analysis import with_played
from domain.games import spec_for
from domain.records import parse
from service.offline.simulation import make_plan, run

# 8 players: the bots' games with an elimination, hence takes (ER-5.2), are rare (seed c3 of c0..c59; none at 2-6)
ROWS = [("el-royale", 4, {"edition": "revised"}), ("el-royale", 8, {"edition": "revised"}), ("small-battle", 2, {}),
        ("four-virtues", 2, {"target": 100})]
LEGAL_CAP = 100_000  # a take can list some 100,000 subsets: counted up to here


def counts(game: str, players: int, options: dict, seed: str) -> list[tuple[str, int, int]]:
    """(move type, legal moves (up to LEGAL_CAP), candidates compared) for each decision of one seeded bots' game."""
    spec = spec_for(game)
    d, a = spec.decider, spec.analysis
    record = parse(list(run(make_plan(game, players, 1, ("heuristic",), options, seed), 1))[0])
    state = d.initial_state(record.setup)
    for e in d.start(record.setup, record.chance):
        state = d.evolve(state, e)
    out = []
    for move in record.moves:
        seat = move["seat"]
        if move["type"] not in ("say", "show"):
            legal = sum(1 for _ in islice((m for m in d.legal_moves(state) if m["seat"] == seat), LEGAL_CAP))
            if legal > 1:
                moves = a.candidates(state, seat) if a.candidates is not None else None
                if moves is None:
                    moves = [m for m in d.legal_moves(state) if m["seat"] == seat]
                n = len(moves) if len(moves) < 2 else len(with_played(a, state, seat, moves, move))  # as evaluate
                out.append((move["type"], legal, n if n >= 2 else 0))
        state = d.step(state, move, record.chance)[1]
    return out


def summary(rows: list[tuple[str, int, int]]) -> dict:
    analysed = [n for _, _, n in rows if n]
    return {"decisions": len(rows), "analysed": len(analysed), "mean": round(sum(analysed) / max(1, len(analysed)), 1),
            "max": max(analysed, default=0), "legal_max": max((x for _, x, _ in rows), default=0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="seeded games per game (seeds c0, c1, ...)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = []
    for game, players, options in ROWS:
        rows = [r for k in range(args.games) for r in counts(game, players, options, f"c{k}")]
        out.append({"game": f"{game} {players}p", "all": summary(rows),
                    **{kind: summary([r for r in rows if r[0] == kind]) for kind in sorted({r[0] for r in rows})}})
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{'game':<17}{'move':<16}{'decisions':>10}{'analysed':>10}{'mean':>8}{'max':>7}{'legal max':>11}")
    for row in out:
        for kind, s in row.items():
            if kind != "game":
                print(f"{row['game']:<17}{kind:<16}{s['decisions']:>10}{s['analysed']:>10}{s['mean']:>8}{s['max']:>7}"
                      f"{s['legal_max']:>11}")


if __name__ == "__main__":
    main()
