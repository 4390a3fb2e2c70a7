"""Fair-play screening, validated (issue 27 part 4, docs/fairplay.md): Small Battle games where seat 0 is a
test-only bot that PEEKS at the enemy formation (tests/fairplay_support.py), and games where seat 0 is the honest
heuristic bot; seat 0 of each game is screened at the screening precision (service/fairplay: own-information
analysis 16 samples a move, all-cards analysis 4 rollouts a move, 8 sampled worlds for the honest baseline).

Prints: the peeking player's report over all its games (must be flagged); the honest games cut into reports of
--block games each, one player a report tested at --alpha (the false-positive rate is the share flagged); the honest
player's report pooled over every honest game; the time.

Usage:  python -m bench.fairplay [--full] [--peeking N] [--honest N] [--start S] [--block B] [--workers W] [--json]
        (--full: 200 peeking games and 1,000 honest games, the numbers docs/fairplay.md reports; default 30 and 60)
"""

from __future__ import annotations

import argparse
import json
import time

from domain.fairplay import player_report
from domain.records import parse
from service.analysis.facade import default_workers
from service.fairplay.facade import GameInput, Settings, judge_all
from tests.fairplay_support import play


def games_of(kind: str, count: int, peek_rate: float | None, start: int = 0) -> list[GameInput]:
    out = []
    for i in range(start, start + count):
        name = f"{kind}-{i}"  # one name a game: the verdicts of each game stay apart, to be cut into reports
        out.append(GameInput(name, parse(play(f"bench-fairplay|{kind}|{i}", (name, "opponent"), peek_rate)),
                             [name, "opponent"]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="200 peeking and 1,000 honest games")
    parser.add_argument("--peeking", type=int, default=None)
    parser.add_argument("--honest", type=int, default=None)
    parser.add_argument("--block", type=int, default=20, help="honest games a report (default 20)")
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--start", type=int, default=0, help="the first game's index (to run the full set in parts)")
    parser.add_argument("--json", action="store_true", help="JSON, with each honest game's hits and chances (to pool)")
    args = parser.parse_args()
    peeking = args.peeking if args.peeking is not None else (200 if args.full else 30)
    honest = args.honest if args.honest is not None else (1000 if args.full else 60)
    settings = Settings()
    start = time.perf_counter()
    cheats = games_of("peeking", peeking, 1.0, args.start)
    fair = games_of("honest", honest, None, args.start)
    played = time.perf_counter() - start
    verdicts = judge_all(cheats + fair, settings, args.workers, only={g.names[0] for g in cheats + fair})
    took = time.perf_counter() - start
    cheat = player_report("peeking", [v for g in cheats for v in verdicts[g.names[0]]], args.alpha, peeking)
    blocks = [fair[i:i + args.block] for i in range(0, len(fair) - args.block + 1, args.block)]
    reports = [player_report(f"honest {i}", [v for g in b for v in verdicts[g.names[0]]], args.alpha, len(b))
               for i, b in enumerate(blocks)]
    pooled = player_report("honest", [v for g in fair for v in verdicts[g.names[0]]], args.alpha, honest)
    flagged = sum(1 for r in reports if r["flagged"])
    out = {"peeking_games": peeking, "honest_games": honest, "block": args.block, "alpha": args.alpha,
           "workers": args.workers, "seconds": round(took, 1), "seconds_playing": round(played, 1),
           "peeking": cheat, "honest_reports": len(reports), "honest_flagged": flagged,
           "false_positive_rate": flagged / len(reports) if reports else None,
           "honest_p_at_most_0.05": sum(1 for r in reports if r["p_value"] <= 0.05),
           "honest_p_at_most_0.10": sum(1 for r in reports if r["p_value"] <= 0.10), "honest_pooled": pooled,
           "honest_detail": [[[v["rank"], v["rank_variance"]] for v in verdicts[g.names[0]]] for g in fair],
           "peeking_detail": [[[v["rank"], v["rank_variance"]] for v in verdicts[g.names[0]]] for g in cheats]}
    if args.json:
        print(json.dumps(out))
        return
    print(f"Fair play, Small Battle, seat 0 screened ({settings.own_samples} own / {settings.perfect_samples} all-cards "
          f"samples a move, {settings.worlds} worlds), {args.workers} worker(s): {took:.1f} s")
    for r in (cheat, pooled):
        if not r["decisions"]:
            continue
        print(f"  {r['player']:8} {r['games']:5d} games {r['decisions']:6d} decisions: mean rank "
              f"{r['rank_mean']:.3f} (honest 0.5), p = {r['p_value']:.3g}, "
              f"flagged {r['flagged']}; informative {r['informative']}: all-cards {r['matched_perfect']} / own "
              f"{r['matched_own']} (sign test p = {r['sign_p']:.3g}, not used to flag)")
    if reports:
        print(f"  honest reports of {args.block} games: {flagged} of {len(reports)} flagged at alpha {args.alpha} "
              f"(false-positive rate {flagged / len(reports):.3f}); p <= 0.05 in {out['honest_p_at_most_0.05']}, "
              f"p <= 0.10 in {out['honest_p_at_most_0.10']}")


if __name__ == "__main__":
    main()
