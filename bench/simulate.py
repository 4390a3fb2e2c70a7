"""Self-play speed (issue 16): simulated games per second per core, for each game and bot, and the speed-up of
several worker processes.

Measured:
  per core      `service.offline.simulation.run(plan, workers=1)`: a whole game per iteration (deal, every bot decision
                on its seat's projected view, parse and decide of its move, the record document); games/s and
                moves/s, best of `repeat` passes.
  workers       the same plan with 1 and with `--workers` processes (default: every core), wall time; the
                records are checked to be identical.
Each row is one table at the default options unless named; the plan's seed is fixed, so each pass plays the
same games.

Usage:  python -m bench.simulate [--scale F] [--repeat N] [--workers W] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import time

from service.offline.simulation import default_workers, make_plan, run

# (game, players, options, bots, games at scale 1)
ROWS = [
    ("el-royale", 4, {"edition": "revised"}, ("heuristic",), 60),
    ("el-royale", 4, {"edition": "classic"}, ("heuristic",), 60),
    ("el-royale", 4, {"edition": "revised", "battle_limit": 200}, ("random",), 20),
    ("batallion", 4, {"variants": []}, ("heuristic",), 100),
    ("batallion", 4, {"variants": []}, ("random",), 100),
    ("batallion", 6, {"variants": ["five_six", "jokers"]}, ("heuristic",), 60),
    ("four-virtues", 2, {"target": 300}, ("heuristic",), 20),
    ("four-virtues", 2, {"target": 300}, ("random",), 20),
    ("small-battle", 2, {}, ("heuristic",), 400),
    ("small-battle", 2, {}, ("random",), 400),
]


def per_core(game, players, options, bots, games, repeat) -> dict:
    plan = make_plan(game, players, games, bots, options, "bench")
    best, moves = float("inf"), 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        docs = list(run(plan, 1))
        best = min(best, time.perf_counter() - start)
        moves = sum(len(d["moves"]) for d in docs)
    return {"game": game, "players": players, "options": options, "bots": ",".join(bots), "games": games,
            "moves": moves, "seconds": best, "games_per_s": games / best, "moves_per_s": moves / best}


def scaling(workers: int, games: int) -> dict:
    plan = make_plan("el-royale", 4, games, ("heuristic",), {"edition": "revised"}, "bench-workers")
    out = {}
    for w in sorted({1, workers}):
        start = time.perf_counter()
        docs = list(run(plan, w))
        out[w] = (time.perf_counter() - start, docs)
    same = all(out[w][1] == out[1][1] for w in out)
    return {"games": games, "seconds": {w: t for w, (t, _) in out.items()}, "identical": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every row's number of games")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [per_core(g, n, o, b, max(2, int(k * args.scale)), args.repeat) for g, n, o, b, k in ROWS]
    scale = scaling(args.workers, max(4, int(80 * args.scale)))
    if args.json:
        print(json.dumps({"per_core": rows, "workers": scale}))
        return
    print("Self-play, one core (bench.simulate)")
    print(f"{'table':58} {'bots':10} {'games':>6} {'games/s':>9} {'moves/s':>9} {'moves/game':>10}")
    for r in rows:
        table = f"{r['game']} {r['players']}p {json.dumps(r['options'])}"
        print(f"{table:58} {r['bots']:10} {r['games']:6d} {r['games_per_s']:9.1f} {r['moves_per_s']:9.0f} "
              f"{r['moves'] / r['games']:10.1f}")
    secs = scale["seconds"]
    line = ", ".join(f"{w} worker(s) {t:.2f} s" for w, t in secs.items())
    speedup = secs[1] / secs[max(secs)] if len(secs) > 1 else 1.0
    print(f"el-royale 4p heuristic, {scale['games']} games: {line}; speed-up {speedup:.2f}x; "
          f"records identical: {scale['identical']}")


if __name__ == "__main__":
    main()
