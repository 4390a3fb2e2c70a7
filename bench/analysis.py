"""Computer analysis speed (issue 27 part 2, docs/analysis.md): one seat's whole game analysed at the default cap,
beside the self-play rate of the full bots measured in the same run (bench.simulate's reference).

Rows: a 4-player El Royale game in which seat 0 makes 100 decisions (seed "s16": 408 moves; the target of issue 27 is
about 100 decisions in 60 s on 2 cores), a long one (seed "long-29", the heuristic bot against the random one: 1,139
moves, seat 0 makes 278 decisions; the target of issue 36 part 5 is such a game, 1,100 events and 250 decisions or
more, in 60 s on 2 cores), and one game of each other game with analysis, each played by the heuristic bots from a
fixed seed; `--workers` processes (default: every core). Prints the game's moves, seat 0's decisions, the
decisions analysed (the others have one candidate), candidate-samples, wall seconds, the workers' CPU seconds, and the
wall time projected to 100 of the seat's decisions (seconds x 100 / decisions), beside the reference games/s. The CPU
seconds say how much work was done whatever else the machine runs; wall / CPU says how well the workers used the
cores.

With inference from the other seats' choices (issue 36: El Royale, Four Virtues) as the analysis does by default; `--plain` runs
the same games with it off (each game's `evidence` taken out), for the comparison.

Usage:  python -m bench.analysis [--workers W] [--samples K] [--plain] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import resource
import time

from domain.games import SPECS, registered
from domain.records import parse
from service.analysis.facade import DEFAULT_SAMPLES, analyse, default_workers, plan
from service.offline.simulation import make_plan, run

HEURISTIC = ("heuristic",)
# (game, players, options, seed of the bots' game, the bots that play it, seat by seat in turn)
ROWS = [("el-royale", 4, {"edition": "revised"}, "s16", HEURISTIC),
        ("el-royale", 4, {"edition": "revised"}, "long-29", ("heuristic", "random")),
        ("batallion", 4, {"variants": []}, "bench-analysis", HEURISTIC),
        ("small-battle", 2, {}, "bench-analysis", HEURISTIC), ("four-virtues", 2, {"target": 100}, "bench-analysis", HEURISTIC)]
TARGET_SECONDS = 60.0  # a seat's whole analysis of either El Royale game on 2 cores (issues 27 and 36)


def _cpu() -> float:
    """CPU seconds of this process and its finished workers."""
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime


def one(game, players, options, seed, bots, workers, samples) -> dict:
    record = parse(list(run(make_plan(game, players, 1, bots, options, seed), 1))[0])
    p = plan(record, 0)
    cpu, start = _cpu(), time.perf_counter()
    lines = list(analyse(p, "bench", samples, workers))
    took, cpu = time.perf_counter() - start, _cpu() - cpu
    return {"game": game, "players": players, "options": options, "seed": seed, "bots": list(bots),
            "moves": len(record.moves),
            "decisions": len(p.decisions), "analysed": len(lines), "seconds": took, "cpu_seconds": cpu,
            "seconds_per_100_decisions": took * 100 / max(1, len(p.decisions)),
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
    parser.add_argument("--plain", action="store_true", help="inference off (plain sampling, as before issue 36)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for g, n, o, seed, bots in ROWS:
        if g not in SPECS or SPECS[g].analysis is None:
            continue
        spec = SPECS[g]
        with contextlib.ExitStack() as stack:
            if args.plain and spec.analysis.evidence is not None:
                stack.enter_context(registered(g, dataclasses.replace(
                    spec, analysis=dataclasses.replace(spec.analysis, evidence=None))))
            rows.append(one(g, n, o, seed, bots, args.workers, args.samples))
            rows[-1]["inference"] = SPECS[g].analysis.evidence is not None
    ref = reference()
    if args.json:
        print(json.dumps({"rows": rows, "self_play_games_per_s": ref, "workers": args.workers, "plain": args.plain}))
        return
    print(f"Computer analysis, seat 0 of one game each, {args.workers} worker(s), cap {args.samples} samples a move, "
          f"inference {'off' if args.plain else 'on where the game has a model'}")
    print(f"{'game':56} {'moves':>6} {'seat 0 decisions':>16} {'analysed':>8} {'samples':>8} {'seconds':>8} "
          f"{'CPU s':>7} {'s per 100 decisions':>19}")
    for r in rows:
        table = f"{r['game']} {r['players']}p {json.dumps(r['options'])} {r['seed']}"
        print(f"{table:56} {r['moves']:6d} {r['decisions']:16d} {r['analysed']:8d} {r['candidate_samples']:8d} "
              f"{r['seconds']:8.1f} {r['cpu_seconds']:7.1f} {r['seconds_per_100_decisions']:19.1f}")
    print(f"reference: self-play of the full bots, El Royale 4p revised, one core: {ref:.1f} games/s")
    for r in rows:
        if r["game"] == "el-royale":
            print(f"target: seed {r['seed']} ({r['decisions']} decisions) in {TARGET_SECONDS:.0f} s: "
                  f"{r['seconds']:.1f} s, {'met' if r['seconds'] <= TARGET_SECONDS else 'MISSED'}")


if __name__ == "__main__":
    main()
