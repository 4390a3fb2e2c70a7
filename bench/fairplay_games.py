"""The fair-play screen validated on every game (issue 37, docs/fairplay.md "Validation, every game").

For each game: honest players of mixed strengths (tests/fairplay_players.py HONEST), each over an event of --games
games against honest opponents of mixed strengths, and cheats that peek on 100%, 25% and 10% of their decisions;
the screened player is seat 0 of each of its games (the others only sit there). Each decision is judged at the
screen's precision (domain.screening: 1 rollout a candidate, 4 worlds), and each player's decisions make one rank
test (domain.fairplay.rank_test, games independent). Printed per game:

- honest players: how many, the share of p-values at or below 0.1, 0.05, 0.01 and 1/1,000 (a calibrated test gives
  0.1, 0.05, 0.01, 0.001), the Kolmogorov-Smirnov distance of the p-values from uniform, and the referrals at the
  screen's threshold (domain.screening.REFER) with their 95% upper bound (exact binomial: 3/n when none);
- each peek rate: the share of its players referred over the event (power), and the games a player of that rate
  needs for 80% power at the threshold, from the per-game mean and spread of the statistic (normal approximation);
- the screen's cost: seconds a screened seat and game, and the time to screen a 40-player, 7-round event on 2 cores.

Usage:  python -m bench.fairplay_games [--game G ...] [--honest N] [--peekers N] [--games E] [--workers W] [--json]
        python -m bench.fairplay_games --merge RUN.json ...   (pool the honest players of runs of distinct --seed)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from domain.analysis import analysis_of
from domain.fairplay import rank_test, true_states
from domain.games import SPECS, spec_for
from domain.records import parse
from domain.screening import PANEL, REFER, SAMPLES, WORLDS, screen_decision, z_of
from projections.knowledge import seat_knowledge
from tests.fairplay_players import HONEST, PEEK_SAMPLES, Player, final_state, play_game, seats_of

RATES = (1.0, 0.25, 0.1)


class Precision(NamedTuple):
    """How each decision is screened and how the peeker peeks."""

    worlds: int
    samples: int
    peek_samples: int
    peek_glance: bool = True  # the peeker keeps the glance's best moves first (False: by rollouts alone)
    infer: bool = True  # the worlds weighed by the game's opponent model, where it has one (False: dealt plainly)


def honest_kinds(game: str) -> tuple[str, ...]:
    """The honest strengths that finish `game`: El Royale's random player rarely ends a game (nobody is forced to)."""
    return tuple(k for k in HONEST if not (game == "el-royale" and k == "random"))


def one_game(task: tuple) -> dict:
    """Play one game (seat 0 is the screened player) and screen seat 0: per decision (share, variance)."""
    game, label, kind, peek, seats, precision = task
    worlds, samples, peek_samples, peek_glance, infer = Precision(*precision)
    kinds = honest_kinds(game)
    rng = random.Random(f"opponents|{label}")
    players = [Player(kind, peek, peek_samples, peek_glance=peek_glance)] + [Player(rng.choice([k for k in kinds if k != "random"])) for _ in range(seats - 1)]
    start = time.perf_counter()
    record = parse(play_game(game, label, players))
    played = time.perf_counter() - start
    spec = spec_for(game)
    if not spec.decider.outcome(final_state(record)).is_over:
        return {"label": label, "finished": False}
    start = time.perf_counter()
    states = true_states(record, {0})
    seen, decisions = seat_knowledge(record, 0)
    ranks = []
    for k, x in enumerate(decisions):
        if x.move_index not in states:
            continue
        r = screen_decision(spec, record.setup, 0, seen[:x.index], x.move, states[x.move_index], f"screen|{label}", k,
                           worlds, samples, infer)
        if r is not None:
            ranks.append(r)
    return {"label": label, "finished": True, "ranks": ranks, "played": played,
            "screened": time.perf_counter() - start}


def player_p(games: list[dict], exact: bool = True) -> float:
    """A player's p-value over its games (the report's: the larger of the exact tail and the clustered normal one;
    `exact` False: the normal tail alone, as before docs/fairplay.md "The far tail")."""
    ranks = [r for g in games for r in g["ranks"]]
    supports = [r[2] if exact and len(r) > 2 else None for r in ranks]
    return rank_test([r[0] for r in ranks], [r[1] for r in ranks], [g["label"] for g in games for _ in g["ranks"]],
                     supports)


def games_for_power(games: list[dict], honest: list[dict], power_z: float = 0.8416,
                    threshold: float = REFER) -> float | None:
    """Games needed for 80% power at `threshold` (the screen's REFER; PANEL: the panel's, at the screen's precision):
    per game, the sum of (share - 1/2) has mean m under the cheat and
    variance v under honest play (v_c under the cheat); n solves n m = z_a sqrt(n v) + z_b sqrt(n v_c)."""
    def sums(gs):
        return [sum(r[0] - 0.5 for r in g["ranks"]) for g in gs]
    c, h = sums(games), sums(honest)
    if len(c) < 2 or len(h) < 2:
        return None
    m = sum(c) / len(c)
    v = sum(x * x for x in h) / len(h)
    vc = sum((x - m) ** 2 for x in c) / (len(c) - 1)
    if m <= 0:
        return None
    z_a = z_of(threshold)
    return round(((z_a * math.sqrt(v) + power_z * math.sqrt(vc)) / m) ** 2, 1)


def upper95(k: int, n: int) -> float:
    """The exact one-sided 95% upper bound of a binomial rate seen k times in n."""
    lo, hi = k / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        tail = sum(math.comb(n, i) * mid ** i * (1 - mid) ** (n - i) for i in range(k + 1))
        lo, hi = (mid, hi) if tail > 0.05 else (lo, mid)
    return hi


def ks(ps: list[float]) -> float:
    ps = sorted(ps)
    n = len(ps)
    return max(max((i + 1) / n - p, p - i / n) for i, p in enumerate(ps)) if ps else 0.0


def run_game(game: str, honest: int, peekers: int, per: int, pool, seed: str, precision: tuple) -> dict:
    seats = seats_of(game)
    kinds = honest_kinds(game)
    how = Precision(*precision)
    groups: dict[str, list[tuple]] = {}
    for i in range(honest):
        kind = kinds[i % len(kinds)]
        groups[f"honest|{i}"] = [(game, f"{seed}|{game}|honest|{i}|{j}", kind, 0.0, seats, precision)
                                   for j in range(per)]
    for rate in RATES:
        for i in range(peekers):
            groups[f"peek{rate}|{i}"] = [(game, f"{seed}|{game}|peek{rate}|{i}|{j}", "heuristic", rate, seats, precision)
                                         for j in range(per)]
    tasks = [t for ts in groups.values() for t in ts]
    start = time.perf_counter()
    results = dict(zip([t[1] for t in tasks], pool.map(one_game, tasks, chunksize=4)))
    took = time.perf_counter() - start
    out: dict = {"game": game, "seed": seed, "seats": seats, "games_per_player": per, "seconds": round(took, 1),
                 "screen_worlds": how.worlds, "screen_samples": how.samples, "peek_samples": how.peek_samples,
                 "peek_glance": how.peek_glance, "infer": how.infer}
    done = {k: [results[t[1]] for t in ts if results[t[1]]["finished"]] for k, ts in groups.items()}
    out["unfinished_games"] = sum(1 for r in results.values() if not r["finished"])
    p_of = {key: player_p(gs) for key, gs in done.items() if gs}  # each player's p-value, once
    honest_keys = [key for key in done if key.startswith("honest")]
    hp = [p_of[key] for key in honest_keys if key in p_of]
    n = len(hp)
    by_kind = {}
    for k in kinds:
        keys = [key for key in honest_keys if _kind(key, kinds) == k]
        by_kind[k] = round(sum(1 for key in keys if key in p_of and p_of[key] <= 0.05) / max(1, len(keys)), 3)
    normal = [player_p(done[key], exact=False) for key in honest_keys if key in p_of]
    out["honest_normal_tail_only"] = {f"p<={a}": round(sum(1 for p in normal if p <= a) / n, 4) if n else None
                                      for a in (0.1, 0.05, 0.01, REFER)}
    out["honest_p_values"] = sorted(round(p, 8) for p in hp)
    out["honest"] = {"players": n, **{f"p<={a}": round(sum(1 for p in hp if p <= a) / n, 4) if n else None
                                      for a in (0.1, 0.05, 0.01, REFER)},
                     "ks": round(ks(hp), 4), "referred": sum(1 for p in hp if p <= REFER),
                     "referred_upper95": round(upper95(sum(1 for p in hp if p <= REFER), n), 5) if n else None,
                     "by_kind": by_kind}
    honest_games = [g for k, gs in done.items() if k.startswith("honest") for g in gs]
    for rate in RATES:
        ps = [p for key, p in p_of.items() if key.startswith(f"peek{rate}|")]
        cheat_games = [g for k, gs in done.items() if k.startswith(f"peek{rate}|") for g in gs]
        out[f"peek {rate:.0%}"] = {"players": len(ps), "referred": sum(1 for p in ps if p <= REFER),
                                   "power": round(sum(1 for p in ps if p <= REFER) / len(ps), 3) if ps else None,
                                   "games_for_80%": games_for_power(cheat_games, honest_games),
                                   "games_for_80%_panel": games_for_power(cheat_games, honest_games, threshold=PANEL)}
    every = [r for r in results.values() if r["finished"]]
    cost = sum(r["screened"] for r in every) / max(1, len(every))
    out["screen_seconds_per_seat_game"] = round(cost, 3)
    out["event_40x7_on_2_cores_s"] = round(cost * 40 * 7 / 2, 1)
    out["decisions_per_seat_game"] = round(sum(len(r["ranks"]) for r in every) / max(1, len(every)), 1)
    return out


def _kind(key: str, kinds: tuple) -> str:
    return kinds[int(key.split("|")[1]) % len(kinds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game id (every game with analysis by default)")
    parser.add_argument("--honest", type=int, default=40, help="honest players a game (default 40)")
    parser.add_argument("--peekers", type=int, default=10, help="players of each peek rate (default 10)")
    parser.add_argument("--games", type=int, default=7, help="games a player's event (default 7)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="bench-fairplay-games")
    parser.add_argument("--worlds", type=int, default=WORLDS, help=f"screen: worlds a decision (default {WORLDS})")
    parser.add_argument("--samples", type=int, default=SAMPLES, help=f"screen: rollouts a candidate (default {SAMPLES})")
    parser.add_argument("--peek-samples", type=int, default=PEEK_SAMPLES,
                        help=f"the peeker's rollouts a candidate from the true state (default {PEEK_SAMPLES})")
    parser.add_argument("--peek-rollouts-only", action="store_true",
                        help="the peeker judges by rollouts alone, not the game's glance first (as before the glance)")
    parser.add_argument("--plain-worlds", action="store_true",
                        help="deal the screen's worlds plainly, without the game's opponent model (as before it)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--merge", nargs="+", metavar="FILE",
                        help="play nothing: pool the honest players of earlier --json runs (distinct --seed each)")
    args = parser.parse_args()
    if args.merge:
        print(json.dumps(merged(args.merge)))
        return
    games = args.game or [g for g in SPECS if _analysable(g)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for game in games:
            out = run_game(game, args.honest, args.peekers, args.games, pool, args.seed,
                           Precision(args.worlds, args.samples, args.peek_samples, not args.peek_rollouts_only,
                                     not args.plain_worlds))
            print(json.dumps(out) if args.json else _text(out), flush=True)


def merged(paths: list[str]) -> dict:
    """The honest players of several runs (one JSON line a game each, distinct seeds: distinct players) pooled: their
    number, the shares of p-values at or below each level by the report's tail and by the normal tail alone, the
    referrals at REFER with their exact 95% upper bound, and the Kolmogorov-Smirnov distance from uniform."""
    runs = [json.loads(line) for path in paths for line in open(path, encoding="utf-8") if line.strip()]
    by_game: dict[str, list[dict]] = {}
    for r in runs:  # runs of one screen only: the worlds dealt plainly are another screen, pooled apart
        by_game.setdefault(r["game"] + ("" if r.get("infer", True) else " (plain worlds)"), []).append(r)
    for game, rs in by_game.items():
        seeds = [r["seed"] for r in rs]
        if len(set(seeds)) < len(seeds):
            raise SystemExit(f"{game}: a seed given twice ({sorted(s for s in seeds if seeds.count(s) > 1)[0]}): "
                             "its players would be counted twice")
    out = {}
    for game, rs in by_game.items():
        ps = [p for r in rs for p in r["honest_p_values"]]
        n = len(ps)
        normal = {level: sum(round(r["honest_normal_tail_only"][level] * r["honest"]["players"]) for r in rs) / n
                  for level in rs[0]["honest_normal_tail_only"]}  # each run's rate back to its count
        referred = sum(1 for p in ps if p <= REFER)
        out[game] = {"runs": len(rs), "players": n,
                     **{f"p<={a}": round(sum(1 for p in ps if p <= a) / n, 5) for a in (0.1, 0.05, 0.01, REFER)},
                     "normal_tail_only": {k: round(v, 5) for k, v in normal.items()},
                     "referred": referred, "referred_upper95": round(upper95(referred, n), 5), "ks": round(ks(ps), 4),
                     "smallest_p": min(ps)}
    return out


def _analysable(game: str) -> bool:
    try:
        analysis_of(spec_for(game))
        return True
    except Exception:
        return False


def _text(o: dict) -> str:
    h = o["honest"]
    lines = [f"{o['game']} ({o['seats']} seats, events of {o['games_per_player']} games, screen {o['screen_samples']} "
             f"rollout(s) x {o['screen_worlds']} worlds, peeker {o['peek_samples']} rollouts, {o['seconds']} s; "
             f"{o['unfinished_games']} games unfinished and left out)",
             f"  honest: {h['players']} players; p<=0.1 {h['p<=0.1']}, p<=0.05 {h['p<=0.05']}, p<=0.01 {h['p<=0.01']}, "
             f"p<={REFER} {h[f'p<={REFER}']}; KS {h['ks']}; referred {h['referred']} "
             f"(95% upper bound {h['referred_upper95']}); p<=0.05 by kind {h['by_kind']}",
             f"  honest, the normal tail alone: {o['honest_normal_tail_only']}"]
    for rate in RATES:
        r = o[f"peek {rate:.0%}"]
        lines.append(f"  peek {rate:.0%}: {r['players']} players, referred {r['referred']} (power {r['power']}); "
                     f"games for 80% power ~ {r['games_for_80%']} (at the panel's 1 in 1,000,000: "
                     f"~ {r['games_for_80%_panel']})")
    lines.append(f"  screen: {o['screen_seconds_per_seat_game']} s a seat and game ({o['decisions_per_seat_game']} "
                 f"decisions); a 40-player 7-round event on 2 cores ~ {o['event_40x7_on_2_cores_s']} s")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
