"""Computer analysis speed (issue 27 part 2, docs/analysis.md): one seat's whole game analysed at the default cap,
beside the self-play rate of the full bots measured in the same run (bench.simulate's reference).

Rows: a 4-player El Royale game (seat 0), and one game of each other game with analysis, each played by the
heuristic bots from a fixed seed; `--workers` processes (default: every core). Prints decisions, analysed
decisions, seconds, and the reference games/s.

Usage:  python -m bench.analysis [--workers W] [--samples K] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from domain.games import SPECS
from domain.records import parse
from service.analysis.facade import DEFAULT_SAMPLES, analyse, default_workers, plan
from service.offline.simulation import make_plan, run

ROWS = [("el-royale", 4, {"edition": "revised"}), ("batallion", 4, {"variants": []}), ("small-battle", 2, {})]


def one(game, players, options, workers, samples) -> dict:
    record = parse(list(run(make_plan(game, players, 1, ("heuristic",), options, "bench-analysis"), 1))[0])
    p = plan(record, 0)
    start = time.perf_counter()
    lines = list(analyse(p, "bench", samples, workers))
    took = time.perf_counter() - start
    return {"game": game, "players": players, "options": options, "moves": len(record.moves),
            "decisions": len(p.decisions), "analysed": len(lines), "seconds": took,
            "candidate_samples": sum(r["samples"] for x in lines for r in x["moves"])}


def reference() -> float:
    plan_ = make_plan("el-royale", 4, 40, ("heuristic",), {"edition": "revised"}, "bench")
    start = time.perf_counter()
    list(run(plan_, 1))
    return 40 / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [one(g, n, o, args.workers, args.samples) for g, n, o in ROWS if SPECS[g].analysis is not None]
    ref = reference()
    if args.json:
        print(json.dumps({"rows": rows, "self_play_games_per_s": ref, "workers": args.workers}))
        return
    print(f"Computer analysis, seat 0 of one game each, {args.workers} worker(s), cap {args.samples} samples a move")
    print(f"{'game':44} {'moves':>6} {'decisions':>9} {'analysed':>8} {'samples':>9} {'seconds':>8}")
    for r in rows:
        table = f"{r['game']} {r['players']}p {json.dumps(r['options'])}"
        print(f"{table:44} {r['moves']:6d} {r['decisions']:9d} {r['analysed']:8d} {r['candidate_samples']:9d} "
              f"{r['seconds']:8.1f}")
    print(f"reference: self-play of the full bots, El Royale 4p revised, one core: {ref:.1f} games/s")


if __name__ == "__main__":
    main()
