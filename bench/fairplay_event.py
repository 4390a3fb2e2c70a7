"""The fair-play screen of a whole event, timed end to end (issue 37: "screen a 40-player, 7-round event of any game
in <= 2 minutes on 2 cores"; docs/fairplay.md "The screen of an event").

For each game: an event of --players players over --rounds rounds, each round the players shuffled to tables of
the game's seats (as bench.fairplay_games seats them; a player left over sits the round out), every game played to
its end by honest test players of mixed strengths (tests/fairplay_players.py). Then stage one of the report, exactly
as the desk and the CLI run it (service.fairplay.stages.screen, --workers processes): every decision of every player,
and in games of three or more seats every pair who sat together. The referral threshold is set so low that nobody is
referred, so the time is the screen's alone. Printed: the games, the decisions screened, the screen's wall time and
whether it is within --target seconds, and its CPU seconds (on a busy machine, CPU / workers is what quiet cores
would take); and, for a game whose screen judges by its glance, the same event screened with the game's rollouts
instead (the reference: what the screen cost before the glance), in the same run.

Usage:  python -m bench.fairplay_event [--game G ...] [--players 40] [--rounds 7] [--seats S] [--workers 2]
                                       [--no-reference]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from dataclasses import replace

from domain.games import SPECS, registered, spec_for
from domain.records import parse
from service.fairplay.facade import GameInput, Settings
from service.fairplay.stages import screen
from tests.fairplay_players import HONEST, Player, play_game, seats_of

TARGET = 120.0  # seconds on 2 cores (issue 37)


def event(game: str, players: int, rounds: int, seed: str, seats: int | None = None) -> list[GameInput]:
    """Every game of the event, played out, with the player at each seat (`seats` a table: the game's smallest
    table unless given)."""
    seats = seats or seats_of(game)
    rng = random.Random(f"{seed}|{game}")
    kinds = [k for k in HONEST if not (game == "el-royale" and k == "random")]
    kind = {f"P{i:02d}": rng.choice(kinds) for i in range(players)}
    names = sorted(kind)
    games = []
    for r in range(rounds):
        rng.shuffle(names)
        for t in range(len(names) // seats):
            table = names[t * seats:(t + 1) * seats]
            label = f"{seed}|{game}|r{r}|t{t}"
            doc = play_game(game, label, [Player(kind[n]) for n in table], names=table)
            games.append(GameInput(label, parse(doc), list(table)))
    return games


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the pool's workers end with each stage)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(games: list[GameInput], workers: int) -> dict:
    """Stage one over `games` (nobody referred): wall seconds, CPU seconds (what a quiet machine's wall time is made
    of: CPU / workers when the work splits evenly), the decisions screened and how they were judged."""
    start, cpu = time.perf_counter(), _cpu()
    result = screen(games, Settings(refer=1e-300), workers)
    took = time.perf_counter() - start
    return {"seconds": round(took, 1), "cpu_seconds": round(_cpu() - cpu, 1),
            "decisions": sum(p["screen"]["decisions"] for p in result["players"]),
            "pair_decisions": sum(p["screen"]["decisions"] for p in result["pairs"]),
            "referred": sum(p["referred"] for p in result["players"] + result["pairs"]),
            "judge": result["screen_judge"]}


def rollouts_only(game: str):
    """The game's spec with its glance taken away (the screen judges by rollouts, as before the glance)."""
    spec = spec_for(game)
    return registered(game, replace(spec, analysis=replace(spec.analysis, glance=None, glance_words="")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seats", type=int, help="seats a table (default: the game's smallest table)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="bench-fairplay-event")
    parser.add_argument("--target", type=float, default=TARGET)
    parser.add_argument("--no-reference", action="store_true", help="skip the rollout screen of a game with a glance")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for game in args.game or [g for g in SPECS if spec_for(g).analysis is not None]:
        start = time.perf_counter()
        games = event(game, args.players, args.rounds, args.seed, args.seats)
        out = {"game": game, "players": args.players, "rounds": args.rounds, "games": len(games),
               "seats": len(games[0].names),
               "workers": args.workers, "played_seconds": round(time.perf_counter() - start, 1),
               "screen": timed(games, args.workers)}
        out["within_target"] = out["screen"]["seconds"] <= args.target
        out["quiet_estimate_seconds"] = round(out["screen"]["cpu_seconds"] / args.workers, 1)
        if spec_for(game).analysis.glance is not None and not args.no_reference:
            with rollouts_only(game):
                out["reference_rollouts"] = timed(games, args.workers)
        if args.json:
            print(json.dumps(out), flush=True)
            continue
        s = out["screen"]
        line = (f"{game}: {out['games']} games of {out['seats']} seats, {args.players} players over {args.rounds} "
                f"rounds; the screen ({s['judge']}) of {s['decisions']} decisions and {s['pair_decisions']} pair "
                f"decisions took "
                f"{s['seconds']} s on {args.workers} workers ({s['cpu_seconds']} CPU s: "
                f"~{out['quiet_estimate_seconds']} s on {args.workers} quiet cores): "
                f"{'within' if out['within_target'] else 'OVER'} {args.target:g} s")
        if "reference_rollouts" in out:
            ref = out["reference_rollouts"]
            line += f"; the same with rollouts: {ref['seconds']} s ({ref['cpu_seconds']} CPU s)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
