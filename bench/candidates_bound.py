"""What the candidates' cuts may lose, measured (issue 36 part 3, docs/analysis.md).

- El Royale's takes past the cap: at each take (ER-5.2) of seeded 8-player bots' games (the bots' games with an
  elimination), the analysis (domain.analysis.evaluate, the seat's own knowledge, common random numbers) compares the
  MAX_TAKES groups it keeps with `--extra` groups drawn uniformly from the rest; the loss is how far the best drawn
  group's value lies above the best kept one's (0 when below), in win-chance points, with both intervals; and
  within the best kept group that takes a rank in part, up to 16 of its takes (other suits), each sampled the same
  `--samples` times: the best minus the worst, with the 95% half-width of that paired difference.
- Small Battle's orderings: before either seat has arranged, `--orderings` random orderings of the seat's formation,
  each played against a uniform enemy ordering and a new shuffle of the pile, rolled out `--rollouts` times with the
  same streams; the spread of their win chances beside the sampling interval.

Usage:  python -m bench.candidates_bound [--extra K] [--samples N] [--orderings M] [--rollouts R] [--only GAME] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import time
from itertools import combinations, islice, product

from domain.analysis import evaluate
from domain.cards import cards_of, rank_of
from domain.el_royale import candidates as er
from domain.games import spec_for
from domain.randomness import Chance
from domain.records import parse
from projections.knowledge import seat_knowledge
from service.offline.simulation import make_plan, run

SUIT_VARIANTS = 16  # takes of one group compared at most
TAKE_GAMES = [("el-royale", 8, {"edition": "revised"}, "c3")]  # c3: the one elimination among seeds c0..c59


def _record(game, players, options, seed):
    return parse(list(run(make_plan(game, players, 1, ("heuristic",), options, seed), 1))[0])


def takes(extra: int, samples: int) -> list[dict]:
    """One row per take decision: groups, best kept and best drawn value (points, 95% half-widths), the loss."""
    rows = []
    for game, players, options, seed in TAKE_GAMES:
        spec, record = spec_for(game), _record(game, players, options, seed)
        d = spec.decider
        state = d.initial_state(record.setup)
        for e in d.start(record.setup, record.chance):
            state = d.evolve(state, e)
        states = []
        for move in record.moves:
            states.append(state)
            state = d.step(state, move, record.chance)[1]
        for i, move in enumerate(record.moves):
            if move["type"] != "take":
                continue
            seat, s = move["seat"], states[i]
            groups = er.take_groups(s, seat, 10 ** 6)
            kept, rest = groups[:er.MAX_TAKES], groups[er.MAX_TAKES:]
            drawn = random.Random(f"bound|{seed}|{i}").sample(rest, min(extra, len(rest)))
            listed = [er.take_of(s, seat, g) for g in kept + drawn]
            probe = dataclasses.replace(spec, analysis=dataclasses.replace(spec.analysis, candidates=lambda *_: listed))
            seen, decisions = seat_knowledge(record, seat)
            x = next(x for x in decisions if x.move_index == i)
            start = time.perf_counter()
            _, stats, _ = evaluate(probe, record.setup, seat, seen[:x.index], "bound", i, samples)
            best_kept = max(range(len(kept)), key=lambda k: stats[k].mean)
            best_drawn = max(range(len(kept), len(listed)), key=lambda k: stats[k].mean)
            pts = [(round(100 * stats[k].mean, 1), round(100 * stats[k].half_width(), 1))
                   for k in (best_kept, best_drawn)]
            rows.append({"seed": seed, "move": i, "seat": seat, "groups": len(groups), "drawn": len(drawn),
                         "best_kept": pts[0], "best_drawn": pts[1], "loss": round(max(0.0, pts[1][0] - pts[0][0]), 1),
                         "suits": _suits(spec, record, s, seat, seen[:x.index], i, samples, kept, stats),
                         "seconds": round(time.perf_counter() - start, 1)})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def _suits(spec, record, s, seat, seen, i, samples, kept, stats) -> dict:
    """Within the best kept group that takes a rank in part: up to SUIT_VARIANTS of its takes (the same counts, other
    suits), each sampled `samples` times; the best minus the worst (points, paired) says what grouping by rank hides."""
    laid = {}
    for c in cards_of(s.laid_out):
        laid.setdefault(rank_of(c), []).append(c)
    order = sorted(range(len(kept)), key=lambda k: -stats[k].mean)
    group = next((kept[k] for k in order if any(0 < n < len(laid.get(r, ())) for r, n in enumerate(kept[k]))), None)
    if group is None:
        return {"variants": 0}
    ways = [list(combinations(laid[r], n)) for r, n in enumerate(group) if n]
    variants = [{"seat": seat, "type": "take", "cards": sorted(c for part in pick for c in part)}
                for pick in islice(product(*ways), SUIT_VARIANTS)]
    probe = dataclasses.replace(spec, analysis=dataclasses.replace(spec.analysis, candidates=lambda *_: variants))
    out = evaluate(probe, record.setup, seat, seen, "suits", i, samples, min_samples=samples, batch_size=samples)
    if out is None:
        return {"variants": len(variants)}
    stats = out[1]  # every variant sampled `samples` times on the same samples: their differences are paired
    best = max(range(len(stats)), key=lambda k: stats[k].mean)
    worst = min(range(len(stats)), key=lambda k: stats[k].mean)
    diffs = [x - y for x, y in zip(stats[best].values, stats[worst].values)]
    mean = sum(diffs) / len(diffs)
    sd = (sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
    return {"variants": len(variants), "spread": round(100 * mean, 1),
            "paired_half_width": round(100 * 1.96 * sd / len(diffs) ** 0.5, 1)}


def orderings(count: int, samples: int) -> dict:
    """Small Battle: the win chances of `count` random orderings from one opening, common streams."""
    spec = spec_for("small-battle")
    d, a = spec.decider, spec.analysis
    record = _record("small-battle", 2, {}, "c1")
    state = d.initial_state(record.setup)
    for e in d.start(record.setup, record.chance):
        state = d.evolve(state, e)
    seat, rng, values = 0, random.Random("orderings"), []
    ranks = list("23456789")
    for _ in range(count):
        mine = rng.sample(ranks, 8)
        total = 0.0
        for k in range(samples):
            chance = Chance(hashlib.sha256(f"orderings|{k}".encode()).hexdigest())
            play = random.Random(f"orderings|{k}")
            dealt = state.clone()
            dealt.pile = tuple(play.sample(state.pile, len(state.pile)))  # a new shuffle each rollout (SB-1.4)
            s = d.step(dealt, {"seat": seat, "type": "arrange", "formation": mine}, chance)[1]
            s = d.step(s, {"seat": 1 - seat, "type": "arrange", "formation": play.sample(ranks, 8)}, chance)[1]
            total += a.playout(s, seat, play, chance)
        values.append(100 * total / samples)
    half = 100 * 1.96 * (0.25 / samples) ** 0.5
    return {"orderings": count, "samples": samples, "lowest": round(min(values), 1), "highest": round(max(values), 1),
            "spread": round(max(values) - min(values), 1), "half_width_one": round(half, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extra", type=int, default=48, help="El Royale: groups drawn past the cap per take")
    parser.add_argument("--samples", type=int, default=200, help="El Royale: cap of samples a candidate")
    parser.add_argument("--orderings", type=int, default=20, help="Small Battle: orderings compared")
    parser.add_argument("--rollouts", type=int, default=2000, help="Small Battle: rollouts an ordering")
    parser.add_argument("--only", choices=("el-royale", "small-battle"), help="measure one game only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = {}
    if args.only != "el-royale":
        out["small_battle"] = orderings(args.orderings, args.rollouts)
    if args.only != "small-battle":
        out["el_royale_takes"] = takes(args.extra, args.samples)
    print(json.dumps(out, indent=1) if args.json else json.dumps(out))


if __name__ == "__main__":
    main()
