"""Marks you can trust (issue 36 part 4, docs/analysis.md "Marks"): is a move marked blunder one?

Games of every game with analysis, played by the heuristic and the random bot seat by seat in turn, from seeded plans
(service.offline.simulation, as bench.analysis plays its long row). Every decision of every seat is analysed at the default cap, from the seat's own
knowledge, exactly as `arbiter analyse` does (domain.analysis.analyse_decision, seed "marks"). Each move that reaches
a threshold, by the point rule or by the bound rule (below), is then measured again: every candidate of the
decision sampled a fixed `FACTOR` (10) times as many times as the played move had (the loss rests on those paired
samples), on independent deals and rollouts (seed "marks|remeasure"), with no early stop. Its re-measured loss is
the best re-measured value less the played move's; `vs_best` is the same against the candidate the first analysis
named best (a stricter check: it has no second pick of a best).

Two rules, on the same analysed moves:
- point: the mark the loss reaches (the rule before issue 36 part 4);
- bound: the mark the loss's 95% lower bound reaches (`loss_low`, domain/marks.py: the rule the analysis uses now).

For each game, rule and mark: how many moves got it, and the share whose re-measured loss is at least the mark's
threshold, with its 95% Wilson interval; the same pooled over the games. `missed`: the moves the point rule marked
blunder and the bound rule did not, whose re-measured loss still reached the blunder threshold (what the bound rule
costs, among the moves it was asked about).

Usage:  python -m bench.marks [--quick] [--game G]... [--games N] [--seats all|random] [--workers W] [--samples K]
            [--out FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from domain.analysis import analyse_decision, evaluate, same_move
from domain.games import spec_for
from domain.marks import MARKS, mark_of
from domain.records import parse
from projections.knowledge import seat_knowledge
from service.analysis.facade import DEFAULT_SAMPLES, default_workers
from service.offline.balance import wilson
from service.offline.simulation import make_plan, run

FACTOR = 10  # the re-measure's samples: this many times the played move's
SEED = "marks"
# (game, players, options, games of the full run, games of --quick); each game's seats are all analysed
GAMES = [("el-royale", 4, {"edition": "revised"}, 1, 0), ("batallion", 4, {"variants": []}, 4, 1),
         ("small-battle", 2, {}, 3, 1), ("four-virtues", 2, {"target": 100}, 1, 0)]
RULES = ("point", "bound")
BOTS = ("heuristic", "random")  # seat by seat in turn: a weak player's game has the blunders to check


def _cpu() -> float:
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime


def decisions(game: str, players: int, options: dict, games: int, seats: str = "all") -> list[tuple]:
    """The analysis tasks of the seats' decisions in `games` seeded bot games (plan seed "marks-<game>", `BOTS`):
    every seat's, or (`seats` "random") the random bot's seats' only."""
    tasks = []
    plan = make_plan(game, players, games, BOTS, options, f"marks-{game}")
    for index, doc in enumerate(run(plan, 1)):
        record = parse(doc)
        for seat in range(record.setup.n):
            if seats == "random" and plan.lineup(index)[seat] != "random":
                continue
            seen, ds = seat_knowledge(record, seat)
            for k, x in enumerate(ds):
                tasks.append((game, record.setup, seat, seen[:x.index], x.move, f"{SEED}|{index}|{seat}", k))
    return tasks


def judge(task: tuple, samples: int = DEFAULT_SAMPLES) -> dict | None:
    """One decision's analysis line (None: not analysed), as `arbiter analyse` gives it."""
    game, setup, seat, seen, move, seed, k = task
    return analyse_decision(spec_for(game), setup, seat, seen, move, seed, k, samples)


def remeasure(task: tuple, line: dict, factor: int = FACTOR) -> dict:
    """The line's loss measured again: every candidate sampled `factor` x the played move's samples, on independent
    streams, no early stop. Returns {samples, loss, vs_best} in points."""
    game, setup, seat, seen, move, seed, k = task
    spec = spec_for(game)
    mine = next(r for r in line["moves"] if r["move"] == line["played"])
    n = factor * mine["samples"]
    moves, stats, _ = evaluate(spec, setup, seat, seen, f"{seed}|remeasure", k, n, move, min_samples=n)
    a, shown = spec.analysis, [{k2: v for k2, v in spec.codec.format_move(m).items() if k2 != "seat"} for m in moves]
    played = next(i for i, m in enumerate(moves) if same_move(m, move))
    best = next((i for i, m in enumerate(shown) if m == line["best"]), None)
    value = [st.mean * a.scale for st in stats]
    return {"samples": n, "loss": round(max(value) - value[played], 2),
            "vs_best": None if best is None else round(value[best] - value[played], 2)}


def _judge(args: tuple):
    task, samples = args
    return judge(task, samples)


def _remeasure(args: tuple):
    task, line, factor = args
    return remeasure(task, line, factor)


def measure(game: str, players: int, options: dict, games: int, samples: int = DEFAULT_SAMPLES, workers: int = 1,
            factor: int = FACTOR, seats: str = "all", only: str | None = None) -> dict:
    """The game's marked moves (by either rule), each with its re-measure, and the tallies (`summary`). `seats` as
    `decisions`; `only` "blunder": re-measure only the moves either rule marks blunder (the test's cheaper road)."""
    marks = spec_for(game).analysis.marks
    cpu, start = _cpu(), time.perf_counter()
    tasks = decisions(game, players, options, games, seats)
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    mapper = pool.map if pool is not None else map
    try:
        played = time.perf_counter()
        lines = list(mapper(_judge, [(t, samples) for t in tasks]))
        judged = time.perf_counter()
        marked = [(t, x) for t, x in zip(tasks, lines) if x is not None and mark_of(marks, x["loss"]) is not None
                  and (only is None or only in (x["mark"], mark_of(marks, x["loss"])))]
        again = list(mapper(_remeasure, [(t, x, factor) for t, x in marked]))
    finally:
        if pool is not None:
            pool.shutdown()
    moves = [{"seat": t[2], "seed": t[5], "decision": t[6], "loss": x["loss"], "loss_low": x["loss_low"],
              "point": mark_of(marks, x["loss"]), "bound": x["mark"], "played_samples": next(
                  r["samples"] for r in x["moves"] if r["move"] == x["played"]), "remeasure": r}
             for (t, x), r in zip(marked, again)]
    return {"game": game, "players": players, "options": options, "games": games, "samples": samples,
            "factor": factor, "decisions": len(tasks), "analysed": sum(1 for x in lines if x is not None),
            "seconds": round(time.perf_counter() - start, 1), "cpu_seconds": round(_cpu() - cpu, 1),
            "seconds_playing": round(played - start, 1), "seconds_analysing": round(judged - played, 1),
            "thresholds": list(marks), "moves": moves, "summary": summary(moves, marks)}


def summary(moves: list[dict], marks, key: str = "loss") -> dict:
    """Per rule and mark: {count, held (re-measured `key` at least the threshold), share, low, high (Wilson 95%)};
    and `missed`: point-rule blunders the bound rule left below blunder that the re-measure still found one."""
    out: dict = {}
    for rule in RULES:
        for mark, threshold in zip(MARKS, marks):
            got = [m for m in moves if m[rule] == mark and m["remeasure"][key] is not None]
            held = sum(1 for m in got if m["remeasure"][key] >= threshold)
            low, high = wilson(held, len(got))
            out[f"{rule}:{mark}"] = {"count": len(got), "held": held,
                                     "share": round(held / len(got), 4) if got else None,
                                     "low": round(low, 4), "high": round(high, 4)}
    dropped = [m for m in moves if m["point"] == "blunder" and m["bound"] != "blunder"]
    out["missed"] = {"count": len(dropped), "held": sum(1 for m in dropped if m["remeasure"][key] >= marks[2])}
    return out


def pooled(rows: list[dict], key: str = "loss") -> dict:
    """The tallies over every game's moves (each against its own game's thresholds)."""
    out: dict = {}
    for row in rows:
        for name, t in summary(row["moves"], row["thresholds"], key).items():
            acc = out.setdefault(name, {"count": 0, "held": 0})
            acc["count"] += t["count"]
            acc["held"] += t["held"]
    for name, acc in out.items():
        if name != "missed":
            low, high = wilson(acc["held"], acc["count"])
            acc.update(share=round(acc["held"] / acc["count"], 4) if acc["count"] else None, low=round(low, 4),
                       high=round(high, 4))
    return out


def _print(rows: list[dict], workers: int) -> None:
    print(f"Marks re-measured with {FACTOR}x the samples, cap {rows[0]['samples'] if rows else DEFAULT_SAMPLES}, "
          f"{workers} worker(s): share of marked moves whose re-measured loss reaches the mark's threshold")
    print(f"{'game':14} {'games':>5} {'decisions':>9} {'analysed':>8} {'rule':>5} {'mark':>10} {'count':>5} "
          f"{'held':>4} {'share':>6} {'95% Wilson':>15} {'vs first best':>13}")
    for name, row in [(r["game"], r) for r in rows] + [("all", None)]:
        tallies = summary(row["moves"], row["thresholds"]) if row else pooled(rows)
        strict = summary(row["moves"], row["thresholds"], "vs_best") if row else pooled(rows, "vs_best")
        for rule in RULES:
            for mark in MARKS:
                t, s = tallies[f"{rule}:{mark}"], strict[f"{rule}:{mark}"]
                share = "-" if t["share"] is None else f"{t['share']:.3f}"
                vs = "-" if s["share"] is None else f"{s['share']:.3f}"
                head = (f"{name:14} {row['games']:5d} {row['decisions']:9d} {row['analysed']:8d}" if row
                        else f"{name:14} {'':5} {'':9} {'':8}")
                print(f"{head} {rule:>5} {mark:>10} {t['count']:5d} {t['held']:4d} {share:>6} "
                      f"{t['low']:.3f}-{t['high']:.3f}   {vs:>11}")
        print(f"{name:14} point-rule blunders the bound rule left below blunder: {tallies['missed']['count']}, of "
              f"which the re-measure found {tallies['missed']['held']} blunders"
              + (f"; {row['seconds']:.0f} s wall (playing {row['seconds_playing']:.0f}, analysing "
                 f"{row['seconds_analysing']:.0f}, the rest re-measuring), {row['cpu_seconds']:.0f} CPU s" if row else ""))


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the CI smoke: a game or few of the quick games")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--games", type=int, help="games of each game (default: the table in GAMES)")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--seats", choices=("all", "random"), default="all",
                        help="analyse every seat, or the random bot's seats only")
    parser.add_argument("--out", help="write every marked move and its re-measure here (JSON)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for game, players, options, full, quick in GAMES:
        if args.game and game not in args.game:
            continue
        count = args.games if args.games is not None else (quick if args.quick else full)
        if count < 1:
            continue
        rows.append(measure(game, players, options, count, args.samples, args.workers, seats=args.seats))
        doc = {"rows": rows, "pooled": pooled(rows), "pooled_vs_best": pooled(rows, "vs_best"), "factor": FACTOR,
               "workers": args.workers}
        if args.out:  # after each game: a run stopped part way keeps the games it finished
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1)
    doc = {"rows": rows, "pooled": pooled(rows), "pooled_vs_best": pooled(rows, "vs_best"), "factor": FACTOR,
           "workers": args.workers}
    if args.json:
        json.dump({**doc, "rows": [{k: v for k, v in r.items() if k != "moves"} for r in rows]}, sys.stdout)
        print()
    else:
        _print(rows, args.workers)
    return rows


if __name__ == "__main__":
    main()
