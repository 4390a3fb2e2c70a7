"""El Royale's legal-move listing in CPU time (issue 24: the one judge of legality must not slow it down).

Measured, in CPU time (`time.process_time`, the machine being shared):
  take          legal_moves(state) exhausted at the first take positions (ER-5.2) of fixed random games: 4 seats,
                both editions, passive seats 80 % of the time so that hands grow; ms per listing.
  per call      list(legal_moves(state)) at every fourth position of the same games (3,000 positions); µs per
                call, best of `repeat` passes.
  self-play     bench.simulate's row "revised, battle limit 200, random bots" (20 games), best of 2 passes.

To compare two versions, run it in each one's tree (`git archive <commit> | tar -x -C DIR`, then `cd DIR` and
`python -m bench.el_royale_moves`), several times, alternating: the positions and games are the same in every
version that lists the same moves.

Usage:  python -m bench.el_royale_moves [--repeat N] [--no-selfplay] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time

from domain import el_royale as er
from domain.randomness import Chance

TAKES, GENERAL = 6, 3000


def positions() -> tuple[list, list]:
    """The first TAKES take positions and GENERAL other positions (every fourth) of fixed random games."""
    takes, general = [], []
    for seed in range(400):
        setup = er.configure({"edition": "revised" if seed % 3 else "classic"}, [{"name": f"P{k}"} for k in range(4)])
        chance, rng = Chance(f"{seed:04x}"), random.Random(seed)
        state = er.initial_state(setup)
        for e in er.start(setup, chance):
            state = er.evolve(state, e)
        for i in range(600):
            if state.outcome is not None:
                break
            legal = list(er.legal_moves(state))
            if state.phase == "take":
                if len(takes) < TAKES:
                    takes.append(state)
            elif i % 4 == 0 and len(general) < GENERAL:
                general.append(state)
            answers = [m for m in legal if m["type"] in ("pass", "concede")] if rng.random() < 0.8 else []
            state = er.step(state, rng.choice(answers or legal), chance)[1]
        if len(takes) >= TAKES and len(general) >= GENERAL:
            break
    return takes, general


def measure(repeat: int, selfplay: bool) -> dict:
    takes, general = positions()
    gc.collect()
    start = time.process_time()
    listed = sum(sum(1 for _ in er.legal_moves(s)) for s in takes)
    out = {"take_ms": (time.process_time() - start) / len(takes) * 1e3, "take_moves": listed / len(takes)}
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        for s in general:
            list(er.legal_moves(s))
        best = min(best, time.process_time() - start)
    out["per_call_us"] = best / len(general) * 1e6
    if selfplay:
        from service.offline.simulation import make_plan, run

        plan = make_plan("el-royale", 4, 20, ("random",), {"edition": "revised", "battle_limit": 200}, "bench")
        best = float("inf")
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            list(run(plan, 1))
            best = min(best, time.process_time() - start)
        out["selfplay_s"] = best
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-selfplay", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = measure(args.repeat, not args.no_selfplay)
    if args.json:
        print(json.dumps(out))
        return
    print(f"take listing: {out['take_ms']:.1f} ms ({out['take_moves']:,.0f} moves), CPU")
    print(f"legal_moves per call: {out['per_call_us']:.2f} µs, CPU, best of {args.repeat}")
    if "selfplay_s" in out:
        print(f"self-play, revised, battle limit 200, random bots (20 games): {out['selfplay_s']:.3f} s CPU, best of 2")


if __name__ == "__main__":
    main()
