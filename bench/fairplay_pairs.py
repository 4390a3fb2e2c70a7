"""The collusion screen measured (issue 37 part 3, docs/fairplay.md "Collusion"): honest pairs and colluding pairs.

Each pair sits at seats 0 and 1 of --games games (an event) with one honest third seat (its kind drawn from HONEST,
the random player aside), and the pair test (domain.collusion.pair_decision: each seat's decisions against the
other's TRUE hand, at the screen's precision: 4 worlds, each candidate judged by the game's glance as the report's
screen judges it, or by 1 rollout where the game has none or with --rollouts) makes one p-value of the pair's event
(domain.collusion.pair_line: both directions, each game one cluster). The pairs:

- honest pairs of mixed strengths (tests/fairplay_players.py HONEST, the two seats' kinds taken in turn);
- --analysts honest pairs who both play the analysis over their own knowledge alone (the colluder without the
  phone: a strong honest player, the control for skill);
- colluding pairs (both seats see each other's hand) at each rate of RATES.

Printed: the honest pairs' p-values against uniform (shares at or below 0.1 / 0.05 / 0.01 / 1/1,000, KS), the
referrals at REFER with their exact 95% upper bound; per colluding rate, the pairs referred over the event and the
games a pair of that rate needs for 80% power at REFER (bench.fairplay_games.games_for_power: normal approximation
from the per-game sums); the screen's cost a pair and game.

Usage:  python -m bench.fairplay_pairs [--game G] [--honest N] [--analysts N] [--colluders N] [--games E]
                                       [--workers W] [--start S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.fairplay_games import games_for_power, honest_kinds, ks, upper95
from domain.analysis import analysis_of
from domain.collusion import PER_HAND, pair_decision, pair_line
from domain.fairplay import share_fields, true_states
from domain.games import spec_for
from domain.records import parse
from domain.screening import REFER, SAMPLES, WORLDS
from projections.knowledge import seat_knowledge
from tests.fairplay_players import TOLD_WORLDS, Player, final_state, play_game, seats_of

RATES = (1.0, 0.25)


def pair_players(kind: str, i: int, game: str, told: int = 0) -> tuple[Player, Player]:
    """The two seats of pair `i` of `kind` ("honest", "analyst" or "collude<rate>"); `told`: the worlds of an analyst's
    or colluder's analysis (0: tests.fairplay_players.TOLD_WORLDS)."""
    if kind == "honest":
        kinds = honest_kinds(game)
        return Player(kinds[i % len(kinds)]), Player(kinds[(i // len(kinds) + i) % len(kinds)])
    if kind == "analyst":
        return (Player("heuristic", collude=1.0, collude_worlds=told),
                Player("heuristic", collude=1.0, collude_worlds=told))
    rate = float(kind.removeprefix("collude"))
    return (Player("heuristic", collude=rate, partner=1, collude_worlds=told),
            Player("heuristic", collude=rate, partner=0, collude_worlds=told))


def one_game(task: tuple) -> dict:
    """Play one game (seats 0 and 1 the pair) and screen the pair: per decision of either seat (share, variance)."""
    game, label, kind, i, seats, worlds, samples, told, per_hand, glance = task
    rng = random.Random(f"third|{label}")
    others = [Player(rng.choice([k for k in honest_kinds(game) if k != "random"])) for _ in range(seats - 2)]
    start = time.perf_counter()
    record = parse(play_game(game, label, [*pair_players(kind, i, game, told), *others]))
    played = time.perf_counter() - start
    spec = spec_for(game)
    if not spec.decider.outcome(final_state(record)).is_over:
        return {"label": label, "finished": False}
    start = time.perf_counter()
    states = true_states(record, {0, 1})
    ranks = []
    for seat, partner in ((0, 1), (1, 0)):
        seen, decisions = seat_knowledge(record, seat)
        for k, x in enumerate(decisions):
            if x.move_index not in states:
                continue
            r = pair_decision(spec, record.setup, seat, seen[:x.index], x.move, states[x.move_index], partner,
                              f"pair|{label}", 1000 * seat + k, worlds, samples, per_hand, glance)
            if r is not None:
                ranks.append(r)
    return {"label": label, "finished": True, "ranks": ranks, "played": played,
            "screened": time.perf_counter() - start}


def run(game: str, groups: dict[str, int], per: int, start: int, pool, seed: str, worlds: int, samples: int,
        told: int = 0, per_hand: int = PER_HAND, glance: bool = True) -> dict:
    seats = max(3, seats_of(game))  # a pair and someone else: collusion needs a third seat to play against
    tasks = {f"{kind}|{i}": [(game, f"{seed}|{game}|{kind}|{i}|{j}", kind, i, seats, worlds, samples, told, per_hand,
                              glance) for j in range(per)]
             for kind, n in groups.items() for i in range(start, start + n)}
    flat = [t for ts in tasks.values() for t in ts]
    began = time.perf_counter()
    results = dict(zip([t[1] for t in flat], pool.map(one_game, flat, chunksize=2)))
    out: dict = {"game": game, "seats": seats, "games_per_pair": per, "start": start,
                 "seconds": round(time.perf_counter() - began, 1), "worlds": worlds, "samples": samples,
                 "per_hand": per_hand, "told_worlds": told or TOLD_WORLDS,
                 "glance": glance and analysis_of(spec_for(game)).glance is not None}
    done = {key: [results[t[1]] for t in ts if results[t[1]]["finished"]] for key, ts in tasks.items()}
    out["unfinished_games"] = sum(1 for r in results.values() if not r["finished"])
    lines = {key: pair_line((f"{key}:0", f"{key}:1"), [{**share_fields(r), "game": g["label"]}
                                                      for g in gs for r in g["ranks"]])
             for key, gs in done.items() if gs}
    out["p_values"] = {key: line["p_value"] for key, line in lines.items()}
    out["game_sums"] = {key: [round(sum(r[0] - 0.5 for r in g["ranks"]), 4) for g in gs] for key, gs in done.items()}
    # (each game's sum of share - 1/2: runs in parts combine into bench.fairplay_games.games_for_power from these)
    honest_games = [g for key, gs in done.items() if key.startswith("honest") for g in gs]
    for kind in groups:
        ps = [line["p_value"] for key, line in lines.items() if key.startswith(f"{kind}|")]
        n = len(ps)
        referred = sum(1 for p in ps if p <= REFER)
        row: dict = {"pairs": n, "referred": referred,
                     "mean_share": round(sum(line["rank_mean"] for key, line in lines.items()
                                             if key.startswith(f"{kind}|")) / n, 4) if n else None}
        if kind.startswith("collude"):
            row["games_for_80%"] = games_for_power([g for key, gs in done.items() if key.startswith(f"{kind}|")
                                                    for g in gs], honest_games)
        else:
            row.update({f"p<={a}": round(sum(1 for p in ps if p <= a) / n, 4) if n else None
                        for a in (0.1, 0.05, 0.01, REFER)})
            row["ks"] = round(ks(ps), 4)
            row["referred_upper95"] = round(upper95(referred, n), 5) if n else None
        out[kind] = row
    every = [r for r in results.values() if r["finished"]]
    out["screen_seconds_per_pair_game"] = round(sum(r["screened"] for r in every) / max(1, len(every)), 3)
    out["play_seconds_per_game"] = round(sum(r["played"] for r in every) / max(1, len(every)), 3)
    out["decisions_per_pair_game"] = round(sum(len(r["ranks"]) for r in every) / max(1, len(every)), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="batallion", help="a game with a pair test (default batallion)")
    parser.add_argument("--honest", type=int, default=20, help="honest pairs of mixed strengths (default 20)")
    parser.add_argument("--analysts", type=int, default=0, help="honest pairs of analysts (default 0)")
    parser.add_argument("--colluders", type=int, default=4, help="colluding pairs of each rate (default 4)")
    parser.add_argument("--games", type=int, default=7, help="games a pair's event (default 7)")
    parser.add_argument("--start", type=int, default=0, help="the first pair's number (runs in parts)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="bench-fairplay-pairs")
    parser.add_argument("--worlds", type=int, default=WORLDS, help=f"worlds a decision (default {WORLDS})")
    parser.add_argument("--samples", type=int, default=SAMPLES, help=f"rollouts a candidate (default {SAMPLES})")
    parser.add_argument("--per-hand", type=int, default=PER_HAND,
                        help=f"worlds told each partner's hand (default {PER_HAND})")
    parser.add_argument("--rates", default=",".join(str(r) for r in RATES),
                        help="the colluders' rates, comma-separated (default 1.0,0.25)")
    parser.add_argument("--told-worlds", type=int, default=0,
                        help=f"worlds of a colluder's (and analyst's) analysis (default {TOLD_WORLDS})")
    parser.add_argument("--rollouts", action="store_true",
                        help="judge by rollouts even where the game has a glance (the report's screen judges by it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    groups = {"honest": args.honest, "analyst": args.analysts,
              **{f"collude{float(rate)}": args.colluders for rate in args.rates.split(",")}}
    groups = {k: n for k, n in groups.items() if n}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        out = run(args.game, groups, args.games, args.start, pool, args.seed, args.worlds, args.samples,
                  args.told_worlds, args.per_hand, not args.rollouts)
    print(json.dumps(out) if args.json else _text(out, groups), flush=True)


def _text(o: dict, groups: dict) -> str:
    judge = "its glance" if o.get("glance") else f"{o['samples']} rollout(s)"
    head = (f"{o['game']} ({o['seats']} seats, events of {o['games_per_pair']} games, pair test {judge} "
            f"x {o['worlds']} hands x {o['per_hand']} worlds, colluders' analysis {o['told_worlds']} worlds, {o['seconds']} s; {o['unfinished_games']} games unfinished and "
            f"left out)")
    lines = [head]
    for kind in groups:
        r = o[kind]
        if kind.startswith("collude"):
            lines.append(f"  {kind}: {r['pairs']} pairs, mean share {r['mean_share']}, referred {r['referred']}; "
                         f"games for 80% power ~ {r['games_for_80%']}")
        else:
            lines.append(f"  {kind}: {r['pairs']} pairs, mean share {r['mean_share']}; p<=0.1 {r['p<=0.1']}, "
                         f"p<=0.05 {r['p<=0.05']}, p<=0.01 {r['p<=0.01']}, p<={REFER} {r[f'p<={REFER}']}; KS "
                         f"{r['ks']}; referred {r['referred']} (95% upper bound {r['referred_upper95']})")
    lines.append(f"  cost: screen {o['screen_seconds_per_pair_game']} s a pair and game "
                 f"({o['decisions_per_pair_game']} decisions), play {o['play_seconds_per_game']} s a game")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
