"""Record verification benchmark: moves per second, side by side, in one run.

Paths measured (each on a fixed, seeded corpus built before any timing):

(a) ``bare``           domain.records.replay(record) through the bare decider, over
                       domain.autoplay.four_player_corpus(games, seed) (random 4-player
                       El Royale, revised edition).
(b) ``event-sourced``  for each record of the same corpus: Game.start(record),
                       game.play(move) for every move, app.save(game) into one
                       eventsourcing Application with the POPO (in-memory) store;
                       a fresh Application per repetition, created outside the timing.
(d) ``batallion``      domain.records.replay(record) over random Batallion games of every
                       variant and player count (batallion_corpus), beside (a) and (c).
(c) ``python-chess``   the reference: chess.Board().push_san(san) over a corpus of random
                       legal chess games whose SAN strings are recorded before timing.

Method: one untimed warm-up pass of every path (which also checks the results), then
``repeat`` timed repetitions with time.perf_counter, the three paths interleaved within
each repetition (a, b, c, a, b, c, ...) so machine drift hits all of them alike, and
gc.collect() before each timed pass (the collector stays enabled while timing).
The headline figure is the BEST (minimum) time of the repetitions; the median is shown too.
moves/s = moves / best seconds.

Targets (reported as PASS/MISS, never asserted):
  (a) bare moves/s >= 3 x python-chess moves/s
  (b) event-sourced moves/s >= 0.5 x bare moves/s

Usage:  python -m bench.verify [--quick] [--json] [--repeat N]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from importlib import metadata
from typing import Any, Callable

# Corpus sizes: fixed, so every run measures the same work.
FULL = {"el_royale_games": 100, "el_royale_seed": 2026, "chess_games": 50, "chess_max_plies": 200,
        "chess_seed": 2026, "batallion_games": 60, "repeat": 5}
QUICK = {"el_royale_games": 20, "el_royale_seed": 2026, "chess_games": 10, "chess_max_plies": 200,
         "chess_seed": 2026, "batallion_games": 12, "repeat": 3}
# Batallion tables of the corpus, in turn: (players, options) — every variant and player count.
BATALLION_TABLES = [
    (3, {"variants": []}), (4, {"variants": []}), (4, {"variants": ["jokers"]}), (4, {"variants": ["blind"]}),
    (3, {"variants": ["guts"]}), (4, {"variants": ["scarcity"]}), (5, {"variants": ["five_six"]}),
    (6, {"variants": ["five_six", "jokers"], "chips": 20}), (4, {"variants": ["jokers", "blind", "guts"]}),
    (5, {"variants": ["five_six", "scarcity", "blind"]}),
]

TARGET_BARE_VS_CHESS = 3.0   # (a) bare >= 3x python-chess
TARGET_ES_VS_BARE = 0.5      # (b) event-sourced >= 0.5x bare


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- corpora


def el_royale_corpus(count: int, seed: int) -> list:
    from domain.autoplay import four_player_corpus

    return four_player_corpus(count, seed, "el-royale", {"edition": "revised"})


def batallion_corpus(count: int, seed: int) -> list:
    """Random Batallion games (domain.autoplay.random_game), each table of BATALLION_TABLES in turn."""
    from domain.autoplay import game_rng, random_game
    from domain.records import parse

    out = []
    for i in range(count):
        n, options = BATALLION_TABLES[i % len(BATALLION_TABLES)]
        players = [{"name": f"P{k}"} for k in range(n)]
        out.append(parse(random_game("batallion", options, players, f"{i:08x}", game_rng(seed, i), max_moves=2000)))
    return out


def chess_corpus(count: int, max_plies: int, seed: int) -> list[tuple[list[str], str]]:
    """Random legal chess games as (SAN list, final FEN); a seeded random.Random picks each move."""
    import chess

    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        sans: list[str] = []
        while len(sans) < max_plies and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            sans.append(board.san(move))
            board.push(move)
        games.append((sans, board.fen()))
    return games


# --------------------------------------------------------------------------- the timed paths


def run_bare(corpus: list) -> None:
    from domain.records import replay

    for record in corpus:
        replay(record)


def run_event_sourced(corpus: list, app: Any) -> None:
    from domain.game import Game

    save = app.save
    for record in corpus:
        game = Game.start(record)
        play = game.play
        for move in record.moves:
            play(move)
        save(game)


def run_chess(games: list[list[str]]) -> None:
    import chess

    Board = chess.Board
    for sans in games:
        push_san = Board().push_san
        for san in sans:
            push_san(san)


def new_app() -> Any:
    """An eventsourcing Application pinned to the POPO (in-memory) store, whatever the environment says."""
    from eventsourcing.application import Application

    return Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


# --------------------------------------------------------------------------- checks (untimed)


def check_bare(corpus: list) -> int:
    """Replay every record; all moves must be legal. Returns the number of moves applied."""
    from domain.records import replay

    applied = 0
    for i, record in enumerate(corpus):
        r = replay(record)
        if r.illegal is not None or r.moves_applied != len(record.moves):
            raise SystemExit(f"bench: corpus record {i} does not replay cleanly: {r.illegal}")
        applied += r.moves_applied
    return applied


def check_event_sourced(corpus: list) -> tuple[int, int, str]:
    """Play the corpus into a fresh app, reload every game from the store and compare with the bare replay.

    Returns (moves, stored events, recorder class name).
    """
    from domain.game import Game
    from domain.records import replay

    app = new_app()
    ids = []
    for record in corpus:
        game = Game.start(record)
        for move in record.moves:
            game.play(move)
        app.save(game)
        ids.append(game.id)
    moves = events = 0
    for i, (record, gid) in enumerate(zip(corpus, ids)):
        stored = app.repository.get(gid)
        expected = replay(record)
        if stored.decider.final(stored.state) != record.decider.final(expected.state) or stored.moves != record.moves:
            raise SystemExit(f"bench: game {i} reloaded from the store differs from the bare replay")
        moves += len(stored.moves)
        events += stored.version
    return moves, events, type(app.recorder).__name__


def check_chess(games: list[tuple[list[str], str]]) -> int:
    import chess

    for i, (sans, fen) in enumerate(games):
        board = chess.Board()
        for san in sans:
            board.push_san(san)
        if board.fen() != fen:
            raise SystemExit(f"bench: chess game {i} replays to a different position")
    return sum(len(sans) for sans, _ in games)


# --------------------------------------------------------------------------- measurement


def timed(fn: Callable[[], None]) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def machine() -> dict:
    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "?"

    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or "?",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu_count": os.cpu_count(),
        "eventsourcing": version("eventsourcing"),
        "chess": version("chess"),
    }


def run(cfg: dict) -> dict:
    repeat = cfg["repeat"]
    _log(f"building El Royale corpus: {cfg['el_royale_games']} games (seed {cfg['el_royale_seed']}) ...")
    t0 = time.perf_counter()
    corpus = el_royale_corpus(cfg["el_royale_games"], cfg["el_royale_seed"])
    _log(f"  built in {time.perf_counter() - t0:.1f}s")
    _log(f"building chess corpus: {cfg['chess_games']} games, <= {cfg['chess_max_plies']} plies (seed {cfg['chess_seed']}) ...")
    chess_games = chess_corpus(cfg["chess_games"], cfg["chess_max_plies"], cfg["chess_seed"])
    sans = [s for s, _ in chess_games]
    _log(f"building Batallion corpus: {cfg['batallion_games']} games ...")
    ba_corpus = batallion_corpus(cfg["batallion_games"], cfg["el_royale_seed"])

    _log("warm-up and checks (untimed) ...")
    er_moves = check_bare(corpus)
    es_moves, es_events, recorder = check_event_sourced(corpus)
    chess_moves = check_chess(chess_games)
    ba_moves = check_bare(ba_corpus)
    assert es_moves == er_moves  # same corpus, same moves: a correctness check, not a timing
    run_bare(corpus)
    run_event_sourced(corpus, new_app())
    run_chess(sans)
    run_bare(ba_corpus)

    times: dict[str, list[float]] = {"bare": [], "event_sourced": [], "python_chess": [], "batallion": []}
    for rep in range(repeat):
        _log(f"repetition {rep + 1}/{repeat} ...")
        times["bare"].append(timed(lambda: run_bare(corpus)))
        app = new_app()
        times["event_sourced"].append(timed(lambda app=app: run_event_sourced(corpus, app)))
        del app
        times["python_chess"].append(timed(lambda: run_chess(sans)))
        times["batallion"].append(timed(lambda: run_bare(ba_corpus)))

    def summary(label: str, games: int, moves: int, ts: list[float], **extra) -> dict:
        best = min(ts)
        return {"label": label, "games": games, "moves": moves, "best_s": best, "median_s": statistics.median(ts),
                "times_s": ts, "moves_per_s": moves / best, **extra}

    paths = {
        "bare": summary("(a) bare", len(corpus), er_moves, times["bare"]),
        "event_sourced": summary("(b) event-sourced", len(corpus), es_moves,
                                 times["event_sourced"], stored_events=es_events, recorder=recorder),
        "python_chess": summary("(c) python-chess", len(chess_games), chess_moves,
                                times["python_chess"]),
        "batallion": summary("(d) Batallion bare", len(ba_corpus), ba_moves, times["batallion"]),
    }
    ref = paths["python_chess"]["moves_per_s"]
    for p in paths.values():
        p["ratio_to_python_chess"] = p["moves_per_s"] / ref
    bare_vs_chess = paths["bare"]["moves_per_s"] / ref
    es_vs_bare = paths["event_sourced"]["moves_per_s"] / paths["bare"]["moves_per_s"]
    ba_vs_chess = paths["batallion"]["moves_per_s"] / ref
    targets = {
        "a_bare_vs_python_chess": {"target": TARGET_BARE_VS_CHESS, "measured": bare_vs_chess,
                                   "met": bare_vs_chess >= TARGET_BARE_VS_CHESS},
        "b_event_sourced_vs_bare": {"target": TARGET_ES_VS_BARE, "measured": es_vs_bare,
                                    "met": es_vs_bare >= TARGET_ES_VS_BARE},
        "d_batallion_vs_python_chess": {"target": TARGET_BARE_VS_CHESS, "measured": ba_vs_chess,
                                        "met": ba_vs_chess >= TARGET_BARE_VS_CHESS},
    }
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(),
        "config": dict(cfg),
        "method": f"best of {repeat} (median also given), time.perf_counter, paths interleaved, 1 warm-up pass",
        "paths": paths,
        "targets": targets,
    }


def print_table(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    m = result["machine"]
    console.print(f"[bold]arbiter record verification benchmark[/bold]  {result['date']}")
    console.print(f"machine: {m['platform']} ({m['machine']}), {m['python']}, {m['cpu_count']} CPUs; "
                  f"eventsourcing {m['eventsourcing']}, chess {m['chess']}")
    console.print(f"method: {result['method']}")

    table = Table(title="moves per second (moves / best time)")
    for col, just in (("path", "left"), ("games", "right"), ("moves", "right"), ("best s", "right"),
                      ("median s", "right"), ("moves/s", "right"), ("vs chess", "right")):
        table.add_column(col, justify=just)
    for p in result["paths"].values():
        table.add_row(p["label"], f"{p['games']:,}", f"{p['moves']:,}", f"{p['best_s']:.4f}", f"{p['median_s']:.4f}",
                      f"{p['moves_per_s']:,.0f}", f"{p['ratio_to_python_chess']:.2f}x")
    console.print(table)
    console.print("(a) domain.records.replay(record); (b) Game.start + game.play per move + app.save(game), "
                  "eventsourcing Application, POPO store; (c) chess.Board().push_san(san) per ply; "
                  "(d) domain.records.replay over random Batallion games of every variant.")

    targets = Table(title="targets")
    for col in ("target", "required", "measured", "verdict"):
        targets.add_column(col)
    t = result["targets"]
    for name, key, unit in (("(a) bare moves/s vs python-chess", "a_bare_vs_python_chess", "python-chess"),
                            ("(b) event-sourced moves/s vs bare", "b_event_sourced_vs_bare", "(a)"),
                            ("(d) Batallion bare moves/s vs python-chess (same bar as (a))", "d_batallion_vs_python_chess",
                             "python-chess")):
        row = t[key]
        verdict = "[green]PASS[/green]" if row["met"] else "[red]MISS[/red]"
        targets.add_row(name, f">= {row['target']:g}x {unit}", f"{row['measured']:.2f}x", verdict)
    console.print(targets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.verify", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"smaller corpus ({QUICK['el_royale_games']} El Royale games, {QUICK['chess_games']} chess games, "
                             f"best of {QUICK['repeat']})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (progress goes to stderr)")
    parser.add_argument("--repeat", type=int, default=None, help="timed repetitions (default 5, or 3 with --quick)")
    args = parser.parse_args(argv)
    cfg = dict(QUICK if args.quick else FULL)
    cfg["quick"] = args.quick
    if args.repeat is not None:
        if args.repeat < 1:
            parser.error("--repeat must be at least 1")
        cfg["repeat"] = args.repeat
    result = run(cfg)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
