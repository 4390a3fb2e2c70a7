"""CPU cost of El Royale's analysis rollouts (issue 36 part 5, docs/analysis.md "Speed on long games"), with digests
that show a faster rollout produces exactly what the slower one did.

Both measures use the long bench game (`bench.analysis`'s `long-29`: 4 seats, revised, heuristic against random
bots), seat 0, in this one process:

- `stream`: 80 states sampled from seat 0's knowledge (every 7th decision, two deals each); from each, the first
  legal move, then three rollout streams played to the end. Prints the CPU milliseconds a playout (the best of
  `--reps`) and a sha256 prefix of every (move, events) pair the rollout made, each final state, and each playout's
  value without and with the memo.
- `lines`: every `--step`-th decision of seat 0 analysed (cap 1000, seed "bench"). Prints the CPU seconds and a
  sha256 prefix of the lines.

`--tree PATH` imports the domain from another checkout (main's, say), so that both trees are measured by the same
script on the same machine: the digests must be equal, and the CPU figures give the ratio. CPU time, not wall time:
the machine is shared.

Usage:  python -m bench.rollout [--tree PATH] [--step 5] [--reps 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time


def _game():
    from domain.records import parse
    from service.analysis.facade import plan
    from service.offline.simulation import make_plan, run

    record = parse(list(run(make_plan("el-royale", 4, 1, ("heuristic", "random"), {"edition": "revised"}, "long-29"), 1))[0])
    return plan(record, 0)


def stream(p, reps: int) -> tuple[float, str, int]:
    """CPU ms a playout (best of `reps`), the digest of the rollouts' moves and events, and how many moves."""
    import domain.el_royale as er
    from domain.el_royale import determinize as det
    from domain.games import SPECS
    from domain.randomness import Chance

    a, starts = SPECS["el-royale"].analysis, []
    for k, x in enumerate(p.decisions[::7]):
        folded = a.fold(p.setup, p.seat, p.seen[:x.index])
        for j in range(2):
            st = a.deal(folded, random.Random(f"b|{k}|{j}"))
            if st.outcome is None and st.to_act is not None:
                chance = Chance(hashlib.sha256(f"c|{len(starts)}".encode()).hexdigest())
                starts.append((er.step(st, next(iter(er.legal_moves(st))), chance)[1], chance))
    h, moves = hashlib.sha256(), 0
    for i, (st, chance) in enumerate(starts):
        for r in range(3):
            rng, s = random.Random(f"p|{i}|{r}"), st.clone()
            while s.outcome is None:
                move = det.choose(s, rng)
                h.update(repr((move, det.fold_legal(s, move, chance))).encode())
                moves += 1
            memo: dict = {}
            values = (det.playout(st, 0, random.Random(f"p|{i}|{r}"), chance),
                      det.playout(st, 0, random.Random(f"p|{i}|{r}"), chance, memo))
            h.update(repr((sorted(s.__dict__.items()), values, list(memo.values()))).encode())
    best = None
    for _ in range(reps):
        t = time.process_time()
        for i, (st, chance) in enumerate(starts):
            for r in range(3):
                det.playout(st, 0, random.Random(f"p|{i}|{r}"), chance)
        took = time.process_time() - t
        best = took if best is None else min(best, took)
    return best * 1000 / (3 * len(starts)), h.hexdigest()[:12], moves


def lines(p, step: int) -> tuple[float, int, str]:
    """CPU s of analysing every `step`-th decision, how many were analysed, and the digest of the lines."""
    from domain.analysis import analyse_decision
    from domain.games import spec_for

    spec, h, analysed = spec_for(p.game), hashlib.sha256(), 0
    t = time.process_time()
    for k, x in enumerate(p.decisions):
        if k % step == 0:
            line = analyse_decision(spec, p.setup, p.seat, p.seen[:x.index], x.move, "bench", k, 1000)
            analysed += line is not None
            h.update(json.dumps(line, sort_keys=True).encode())
    return time.process_time() - t, analysed, h.hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", help="a checkout whose domain/ and service/ are measured instead of this one's")
    parser.add_argument("--step", type=int, default=5)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    if args.tree:
        sys.path.insert(0, args.tree)
    p = _game()
    ms, digest, moves = stream(p, args.reps)
    print(f"stream: {ms:.3f} CPU ms a playout ({moves} moves in the digest's playouts), digest {digest}")
    cpu, analysed, digest = lines(p, args.step)
    print(f"lines: every {args.step}th of {len(p.decisions)} decisions, {analysed} analysed, {cpu:.2f} CPU s, "
          f"digest {digest}")


if __name__ == "__main__":
    main()
