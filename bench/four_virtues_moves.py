"""The Four Virtues' legal-move enumeration (issue 13: "meld enumeration must stay fast: measure it on the worst
hands"), beside python-chess's legal move generation in the same run.

Measured:
  worst hands   legal_moves(state) exhausted on constructed hands that no game reaches but that bound every
                real one: the whole pack (every face, every lowering), the 40 number cards with the three clubs
                faces, and 20 cards of two full suits with every clubs and hearts face.
  game hands    legal_moves(state) exhausted at every position of random games (melds preferred half the time);
                per call: mean, p99 and max.
  python-chess  list(board.legal_moves) over positions of random chess games (the reference: a move generator
                engineered for speed, about 30 moves a position).
Each figure is the best of `repeat` timed passes (gc collected before each).

Usage:  python -m bench.four_virtues_moves [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time

import domain.four_virtues as fv
from domain.randomness import Chance


def worst_table(hand) -> fv.State:
    """Seat 0 to meld with `hand` (any cards, however many), ten cards in the stock: a table no game need reach."""
    setup = fv.configure({}, [{"name": "A"}, {"name": "B"}], 1, None)
    state = fv.initial_state(setup)
    for e in fv.start(setup, Chance("00")):
        state = fv.evolve(state, e)
    state = state.clone()
    state.hands, state.turn, state.phase, state.stock = (tuple(sorted(hand)), ()), 0, "play", tuple(range(10))
    return state


WORST = {
    "whole pack (52 cards)": list(range(52)),
    "40 number cards + 3 clubs faces": [c for c in range(52) if c % 13 < 10] + [10, 11, 12],
    "2 full suits + clubs and hearts faces": list(range(0, 13)) + list(range(26, 39)),
}


def game_positions(games: int, seed: int = 13) -> list[fv.State]:
    out = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        setup = fv.configure({"target": 150}, [{"name": "A"}, {"name": "B"}], None, None)
        chance = Chance(f"{g:06x}")
        state = fv.initial_state(setup)
        for e in fv.start(setup, chance):
            state = fv.evolve(state, e)
        while state.outcome is None and len(out) < (g + 1) * 400:
            out.append(state)
            legal = list(fv.legal_moves(state))
            plays = [m for m in legal if m["type"] in ("meld", "add")]
            move = rng.choice(plays) if plays and rng.random() < 0.5 else rng.choice(legal)
            _, state = fv.step(state, move, chance)
    return out


def chess_positions(count: int, seed: int = 13):
    import chess

    rng, out, board = random.Random(seed), [], chess.Board()
    while len(out) < count:
        moves = list(board.legal_moves)
        if not moves or board.is_game_over() or board.fullmove_number > 80:
            board = chess.Board()
            continue
        out.append(board.copy(stack=False))
        board.push(rng.choice(moves))
    return out


def best(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict = {"worst": {}, "games": {}, "chess": {}}
    for name, hand in WORST.items():
        state = worst_table(hand)
        count = sum(1 for _ in fv.legal_moves(state))
        seconds = best(args.repeat, lambda: sum(1 for _ in fv.legal_moves(state)))
        out["worst"][name] = {"moves": count, "ms": round(seconds * 1000, 2)}
    positions = game_positions(args.games)
    per_call = []
    for state in positions:
        began = time.perf_counter()
        sum(1 for _ in fv.legal_moves(state))
        per_call.append(time.perf_counter() - began)
    total = best(args.repeat, lambda: [sum(1 for _ in fv.legal_moves(s)) for s in positions])
    per_call.sort()
    out["games"] = {"positions": len(positions), "moves_listed": sum(sum(1 for _ in fv.legal_moves(s)) for s in positions),
                    "per_call_us_mean": round(total / len(positions) * 1e6, 1),
                    "per_call_us_p99": round(per_call[int(0.99 * (len(per_call) - 1))] * 1e6, 1),
                    "per_call_us_max": round(per_call[-1] * 1e6, 1)}
    boards = chess_positions(len(positions))
    total_chess = best(args.repeat, lambda: [list(b.legal_moves) for b in boards])
    out["chess"] = {"positions": len(boards), "per_call_us_mean": round(total_chess / len(boards) * 1e6, 1),
                    "moves_listed": sum(len(list(b.legal_moves)) for b in boards)}
    out["ratio_mean_call_fv_over_chess"] = round(out["games"]["per_call_us_mean"] / out["chess"]["per_call_us_mean"], 2)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print("The Four Virtues legal_moves, worst hands (best of", args.repeat, "passes):")
    for name, r in out["worst"].items():
        print(f"  {name:40s} {r['moves']:7d} moves  {r['ms']:8.2f} ms")
    g, c = out["games"], out["chess"]
    print(f"Game positions: {g['positions']} positions, {g['moves_listed']} moves listed; per call mean "
          f"{g['per_call_us_mean']} µs, p99 {g['per_call_us_p99']} µs, max {g['per_call_us_max']} µs")
    print(f"python-chess:   {c['positions']} positions, {c['moves_listed']} moves listed; per call mean {c['per_call_us_mean']} µs")
    print(f"mean call, Four Virtues / chess: {out['ratio_mean_call_fv_over_chess']}×")


if __name__ == "__main__":
    main()
