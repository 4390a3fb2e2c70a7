"""How strong is the computer analysis as a player (issue 36 part 1, docs/analysis.md "Strength"): duplicate matches.

Policies: `heuristic` (the game's heuristic bot), `pimc` (today's analysis: plain determinized sampling, its best
mean move), `infer` (the same with inference from the other seats' choices, domain/analysis.py `_drawer`),
`guarded` (the analysis with inference as a check on the heuristic bot's move: the bot's move unless the best
candidate is better on the paired samples by the game's guard, 95% sure, or a better mean in Small Battle;
domain/analysis_player.py `guarded_move`, `--guard-z` to choose another). An
analysis player plays the heuristic bot's move where the analysis does not judge (one candidate; a Small Battle
arrangement), and shows the bot every view so the bot's memory stays whole.

Duplicate deals: deal i is a seed (the chance stream: deck, draws, reshuffles) and the heuristic bots' streams. For
each seat s, policy A sits at s with heuristic bots at every other seat, and then policy B does, on the same deal
with the same streams (B = heuristic: the all-heuristic game, played once a deal). The deal's result is
mean over s of (A's result at s - B's result at s). Luck of the cards and of the seat is the same on both sides of
each difference and cancels; the unit of the statistics is the deal (its n seats' differences averaged), so the 95%
interval is a t interval over deals. The report also gives the interval the same games would give unpaired (A's and
B's results as two independent samples), to show what the pairing saves.

A seat's result: its win share (1 for a win, 1/k for a win shared by k, else 0; a draw or a game cut at
`--max-moves` counts 0), and, for a game with scores, its score less the others' mean.

Equal time per decision: both analysis policies get the same CPU-time budget per decision (`--budget` seconds of
this process' CPU, time.process_time, so other load on the machine does not count), sampling in batches of
`BATCH` until it is spent (at least 2 samples a candidate), with `--samples` as a cap; the CPU seconds each actually spent per
analysed decision are measured and printed. `--quick` (a CI smoke test) plays 1 deal per game (one seat
of it, `--rotate`) with a 4-sample cap instead of a time budget.

Results go to `--out` as JSON Lines, one line per deal, one file per (game, row): a run that stops can be started
again and plays only the deals missing (chunks: `--deals` is the total wanted, `--start` the first deal index).

Usage:  python -m bench.strength [--game G]... [--row heuristic|inference|guarded|guarded-heuristic]... [--deals N] [--start I] [--budget S]
            [--samples K] [--jobs J] [--out DIR] [--rotate] [--report] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bots import SeatView, make_bot
from domain.analysis_player import best_move, guarded_move
from domain.games import decider_for, spec_for
from domain.randomness import Chance
from domain.records import parse_move
from projections.knowledge import Knowing
from projections.registry import projection_for
from projections.viewers import Viewer

# (game, players, options): the tables of bench.analysis
GAMES = {"el-royale": (4, {"edition": "revised"}), "batallion": (4, {"variants": []}), "small-battle": (2, {}),
         "four-virtues": (2, {"target": 100})}
ROWS = {"heuristic": ("pimc", "heuristic"), "inference": ("infer", "pimc"), "guarded": ("guarded", "pimc"),
        "guarded-heuristic": ("guarded", "heuristic")}  # row: (policy A, policy B)
FULL_DEALS = {"el-royale": 300, "batallion": 1000, "small-battle": 1000, "four-virtues": 1000}
BATCH = 1  # samples a candidate between two looks at the clock (the budget is overrun by at most one sample)
MAX_MOVES = 3000


class Analyst:
    """An analysis player for one seat: the heuristic bot (for its memory, and the decisions not analysed) and the
    analysis' best move within the budget."""

    def __init__(self, game: str, seat: int, rng: random.Random, policy: str, budget: float | None, samples: int,
                 seed: str, guard_z: float | None = None):
        spec = spec_for(game)
        self.spec, self.seat, self.budget, self.samples, self.seed = spec, seat, budget, samples, seed
        self.infer, self.guarded, self.players = policy != "pimc", policy == "guarded", GAMES[game][0]
        self.bot = make_bot("heuristic", game, seat, rng, spec.bot)
        self.guard_z, self.decisions = guard_z, 0
        self.analysed, self.cpu = 0, 0.0

    def choose(self, view: SeatView, setup, seen: list[dict]) -> dict:
        fallback = self.bot.choose(view)
        start = time.process_time()
        stop = None if self.budget is None else (lambda: time.process_time() - start >= self.budget)
        if self.guarded:
            prior = parse_move(fallback, self.players, self.spec.codec, "move")
            move = guarded_move(self.spec, setup, self.seat, seen, self.seed, self.decisions, self.samples, prior,
                                self.infer, stop, 2, BATCH, self.guard_z)
        else:
            move = best_move(self.spec, setup, self.seat, seen, self.seed, self.decisions, self.samples, self.infer,
                             stop, 2, BATCH)
        self.decisions += 1
        if move is None:
            return fallback
        self.analysed += 1
        self.cpu += time.process_time() - start
        return self.spec.codec.format_move(move)


def deal_seed(game: str, deal: int) -> str:
    return hashlib.sha256(f"arbiter-strength|{game}|{deal}".encode()).hexdigest()


def play(game: str, deal: int, seat: int | None, policy: str, budget: float | None, samples: int,
         guard_z: float | None = None) -> dict:
    """One game of deal `deal`: `policy` at `seat` (None: no seat), the heuristic bot everywhere else. Returns the
    results of every seat and the analysis seat's decisions and CPU seconds."""
    players, options = GAMES[game]
    spec, d = spec_for(game), decider_for(game)
    table = projection_for(game).table
    names = [{"name": f"p{i}"} for i in range(players)]
    setup = d.configure(options, names, None, None)
    chance = Chance(deal_seed(game, deal))
    public = [{"seat": s, "name": p["name"], "team": None} for s, p in enumerate(names)]
    bots: list = []
    for s in range(players):
        rng = random.Random(f"arbiter-strength-bot|{game}|{deal}|{s}")
        if s == seat and policy != "heuristic":
            bots.append(Analyst(game, s, rng, policy, budget, samples, f"{deal}|{s}", guard_z))
        else:
            bots.append(make_bot("heuristic", game, s, rng, spec.bot))
    knowing = Knowing(game, d, spec.codec, players, seat if seat is not None else 0)
    state = d.initial_state(setup)
    state = knowing.know(state, d.start(setup, chance))
    moves = 0
    while moves < MAX_MOVES and not d.outcome(state).is_over:
        s = d.to_act(state)[0]
        view = SeatView(game, s, table(state, Viewer.of_seat(s)), public, dict(options))
        bot = bots[s]
        raw = bot.choose(view, setup, knowing.seen) if isinstance(bot, Analyst) else bot.choose(view)
        events = d.step(state, parse_move(raw, players, spec.codec, "move"), chance)[0]
        state = knowing.know(state, events)  # the step's state, the analysis seat's knowledge taken in
        moves += 1
    o = d.outcome(state)
    win = [0.0] * players
    if o.is_over and o.result != "draw" and o.seats:
        for s in o.seats:
            win[s] = 1.0 / len(o.seats)
    margin = None
    if o.scores is not None:
        margin = [o.scores[s] - sum(o.scores[t] for t in range(players) if t != s) / (players - 1)
                  for s in range(players)]
    a = bots[seat] if seat is not None and isinstance(bots[seat], Analyst) else None
    return {"win": win, "margin": margin, "moves": moves, "over": o.is_over,
            "analysed": a.analysed if a else 0, "cpu": a.cpu if a else 0.0, "decisions": a.decisions if a else 0}


def duplicate(args: tuple) -> dict:
    """One duplicate deal of a row: A and B at each seat against the same field (see the module doc); with `rotate`,
    at one seat only, seat `deal` mod n (the seats still take turns over the deals)."""
    game, row, deal, budget, samples, rotate, *rest = args  # and the guard's z, when one is chosen (--guard-z)
    guard_z = rest[0] if rest else None
    a_policy, b_policy = ROWS[row]
    players = GAMES[game][0]
    seats = [deal % players] if rotate else list(range(players))
    base = play(game, deal, None, "heuristic", None, samples) if b_policy == "heuristic" else None
    out = {"deal": deal, "seats": seats, "a": [], "b": [], "a_margin": [], "b_margin": [],
           "cpu": {a_policy: 0.0, b_policy: 0.0}, "analysed": {a_policy: 0, b_policy: 0}, "unfinished": 0}
    for s in seats:
        ga = play(game, deal, s, a_policy, budget, samples, guard_z)
        gb = base if base is not None else play(game, deal, s, b_policy, budget, samples, guard_z)
        for key, g, pol in (("a", ga, a_policy), ("b", gb, b_policy)):
            out[key].append(g["win"][s])
            if g["margin"] is not None:
                out[key + "_margin"].append(g["margin"][s])
            if pol != "heuristic" and g is not base:
                out["cpu"][pol] += g["cpu"]
                out["analysed"][pol] += g["analysed"]
            out["unfinished"] += not g["over"]
    out["diff"] = statistics.fmean(out["a"]) - statistics.fmean(out["b"])
    if out["a_margin"]:
        out["diff_margin"] = statistics.fmean(out["a_margin"]) - statistics.fmean(out["b_margin"])
    return out


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (Cornish-Fisher expansion; exact to 3 decimals
    from df 5, a little high below)."""
    z = 1.959963984540054
    if df <= 0:
        return math.inf
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% t interval."""
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return mean, math.inf
    return mean, t975(n - 1) * statistics.stdev(values) / math.sqrt(n)


def summary(game: str, row: str, lines: list[dict]) -> dict:
    a_policy, b_policy = ROWS[row]
    diffs = [x["diff"] for x in lines]
    mean, hw = interval(diffs)
    # the same games unpaired: A's and B's per-deal means as two independent samples
    a = [statistics.fmean(x["a"]) for x in lines]
    b = [statistics.fmean(x["b"]) for x in lines]
    n = len(lines)
    unpaired = (t975(n - 1) * math.sqrt((statistics.variance(a) + statistics.variance(b)) / n)) if n > 1 else math.inf
    out = {"game": game, "row": row, "a": a_policy, "b": b_policy, "deals": n, "mean": mean, "half_width": hw,
           "unpaired_half_width": unpaired, "a_win": statistics.fmean(a), "b_win": statistics.fmean(b),
           "unfinished": sum(x["unfinished"] for x in lines)}
    margins = [x["diff_margin"] for x in lines if "diff_margin" in x]
    if margins:
        out["margin_mean"], out["margin_half_width"] = interval(margins)
    for pol in (a_policy, b_policy):
        if pol != "heuristic":
            k = sum(x["analysed"][pol] for x in lines)
            out[f"cpu_per_decision_{pol}"] = sum(x["cpu"][pol] for x in lines) / k if k else 0.0
            out[f"decisions_{pol}"] = k
    return out


def _done(path: Path) -> dict[int, dict]:
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                x = json.loads(line)
                out[x["deal"]] = x
    return out


def run_row(game: str, row: str, deals: range, budget: float | None, samples: int, jobs: int, out: Path | None,
            tag: str, rotate: bool = False, play_missing: bool = True, guard_z: float | None = None) -> list[dict]:
    """The duplicate deals of one (game, row); with `out`, kept in (and resumed from) a JSON Lines file;
    `play_missing` False: only the deals already there (a report of a run still going, or stopped)."""
    path = out / f"{game}-{row}-{tag}{'-rotate' if rotate else ''}.jsonl" if out is not None else None
    done = _done(path) if path is not None else {}
    todo = [(game, row, i, budget, samples, rotate, guard_z) for i in deals if i not in done and play_missing]
    results = map(duplicate, todo) if jobs <= 1 else ProcessPoolExecutor(jobs).map(duplicate, todo)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    for x in results:
        done[x["deal"]] = x
        if path is not None:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(x) + "\n")
    return [done[i] for i in sorted(done) if i in deals]


def _fmt(s: dict) -> str:
    if "note" in s:
        return f"{s['game']:13} {s['a'] + ' - ' + s['b']:19} {s['note']}"
    hw = s["half_width"]
    cpu = " / ".join(f"{s[k] * 1000:.0f} ms" for k in (f"cpu_per_decision_{s['a']}", f"cpu_per_decision_{s['b']}")
                     if k in s)
    margin = (f"{s['margin_mean']:+.2f} ± {s['margin_half_width']:.2f}" if "margin_mean" in s else "")
    return (f"{s['game']:13} {s['a'] + ' - ' + s['b']:19} {s['deals']:6d} {s['a_win']:7.3f} {s['b_win']:7.3f} "
            f"{s['mean']:+8.4f} ± {hw:.4f} {s['unpaired_half_width']:10.4f} {margin:>16} {cpu:>17}")


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--row", action="append", choices=sorted(ROWS))
    parser.add_argument("--deals", type=int, help="duplicate deals a game (default: 1,000; El Royale 300)")
    parser.add_argument("--start", type=int, default=0, help="the first deal's index")
    parser.add_argument("--budget", type=float, default=0.05, help="CPU seconds per analysed decision (both policies)")
    parser.add_argument("--samples", type=int, default=1000, help="cap on samples a candidate")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=None,
                        help="a folder for the JSON Lines results, resumed from (default runs/strength; --quick: none)")
    parser.add_argument("--quick", action="store_true", help="CI smoke test: 1 deal a game, 4 samples a move")
    parser.add_argument("--rotate", action="store_true",
                        help="games of 3+ seats: each deal at one seat (deal mod n), not at every seat")
    parser.add_argument("--report", action="store_true", help="only summarise the deals already in --out")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--guard-z", type=float, default=None,
                        help="the guarded player's bound, in standard errors (default: the game's own, its spec's "
                             "analysis.guard: 1.645, 95%% sure; Small Battle 0, a better mean)")
    args = parser.parse_args(argv)
    games = args.game or sorted(GAMES)
    rows = args.row or ["heuristic", "guarded", "inference"]
    budget, samples = (None, 4) if args.quick else (args.budget, args.samples)
    tag = "quick" if args.quick else f"b{args.budget:g}-s{args.samples}-v3"
    if args.guard_z is not None:
        tag += f"-z{args.guard_z:g}"
    out = Path(args.out) if args.out else (None if args.quick else Path("runs/strength"))
    summaries = []
    for game in games:
        n = args.deals or (1 if args.quick else FULL_DEALS[game])
        for row in rows:
            if row == "inference" and spec_for(game).analysis.evidence is None:
                summaries.append({"game": game, "row": row, "a": "infer", "b": "pimc", "deals": 0,
                                  "note": "no inference model for this game: infer plays exactly as pimc"})
                continue
            lines = run_row(game, row, range(args.start, args.start + n), budget, samples, args.jobs, out, tag,
                            (args.rotate or args.quick) and GAMES[game][0] > 2, not args.report, args.guard_z)
            if lines:
                summaries.append(summary(game, row, lines))
    if args.json:
        print(json.dumps({"rows": summaries, "budget": budget, "samples": samples}))
        return summaries
    what = "4 samples a move (quick)" if budget is None else f"{budget:g} CPU s a decision, cap {samples} samples"
    where = "one seat a deal, turn about" if args.rotate or args.quick else "every seat of a deal"
    print(f"Duplicate matches ({what}): A and B each at {where} (2 seats: both), heuristic bots elsewhere")
    print(f"{'game':13} {'A - B':19} {'deals':>6} {'A win':>7} {'B win':>7} {'mean A-B (95%)':>19} "
          f"{'unpaired ±':>10} {'margin A-B':>16} {'CPU/decision A/B':>17}")
    for s in summaries:
        print(_fmt(s))
    return summaries


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
