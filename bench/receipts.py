"""The cost of evidence per move: moves/s through the facade with and without receipts and checkpoints.

    .venv/bin/python -m bench.receipts [--games 4] [--moves 60] [--repeat 3]

On a SQLite file in a fresh temporary directory, the same prepared move sequences (El Royale, 4 players,
revised, fixed seeds; prepared by random legal play in memory beforehand) are submitted through
`Arbiter.move` (token check, load, decide, save, the seat's log tail) under four set-ups:

  no evidence      `Evidence.answer` replaced by a no-op: no receipt, no checkpoint (the cost before issue 12)
  receipts only    a signed receipt per move, no checkpoint (the interval set beyond any game)
  default          a receipt per move and a checkpoint every 10 versions (flock + append + fsync)
  every version    a receipt and a checkpoint per move (CHECKPOINT_EVERY=1)

Also: one Ed25519 signature of a receipt, and checking the checkpoint log (lines/s), best of --repeat.
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import time
from pathlib import Path
from uuid import UUID

from service.evidence.facade import Evidence
from service.facade import Arbiter
from service.evidence.keys import ServerKey
from service.evidence.receipts import issue
from tests.integration.service_support import pick, raw_move
from service.play.commands import PlayMove
from service.play.new_games import CreateGame

PLAYERS = [{"name": n} for n in ("North", "East", "South", "West")]


def spec(i: int) -> dict:
    return {"game": "el-royale", "options": {"edition": "revised"}, "players": PLAYERS, "seed": f"{i + 1:08x}"}


def prepare(games: int, moves: int) -> list[list[tuple[int, dict]]]:
    """Each game's move sequence, by random legal play in memory."""
    arbiter = Arbiter("memory://")
    out = []
    for i in range(games):
        created = arbiter.play.create_game(CreateGame.from_body(spec(i)))
        gid, tokens, rng, seq = UUID(created["id"]), [s["token"] for s in created["seats"]], random.Random(i), []
        for _ in range(moves):
            game = arbiter.app.game(gid)
            if game.outcome.is_over:
                break
            move = pick(game, rng)
            seq.append((move["seat"], raw_move(move)))
            arbiter.play.move(tokens[move["seat"]], PlayMove.from_body(created["id"], raw_move(move)))
        out.append(seq)
    return out


def create_tables(arbiter: Arbiter, n: int) -> list[tuple[str, list[str]]]:
    """n new games of `spec`: (id, seat tokens) each."""
    tables = []
    for i in range(n):
        created = arbiter.play.create_game(CreateGame.from_body(spec(i)))
        tables.append((created["id"], [s["token"] for s in created["seats"]]))
    return tables


def play_interleaved(arbiter: Arbiter, tables, sequences) -> tuple[int, float]:
    """Each table's moves, one move of each table in turn (as several tables play at once); (moves, seconds)."""
    count, start = 0, time.perf_counter()
    for step in range(max(len(s) for s in sequences)):
        for (gid, tokens), seq in zip(tables, sequences):
            if step < len(seq):
                seat, move = seq[step]
                arbiter.play.move(tokens[seat], PlayMove.from_body(gid, move))
                count += 1
    return count, time.perf_counter() - start


def run(directory: Path, name: str, sequences, every: int | None, receipts: bool) -> float:
    """Moves per second of one set-up on a fresh SQLite file (only the moves are timed)."""
    arbiter = Arbiter(f"sqlite:///{directory / name}.db", checkpoint_every=every or 10 ** 9)
    if not receipts:
        arbiter.evidence.answer = lambda *a, **k: None
    tables = create_tables(arbiter, len(sequences))
    gc.collect()
    count, elapsed = play_interleaved(arbiter, tables, sequences)
    arbiter.close()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sequences = prepare(args.games, args.moves)
    setups = {"no evidence": (None, False), "receipts only": (None, True), "default (every 10)": (10, True),
              "every version": (1, True)}
    best = {name: 0.0 for name in setups}
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-receipts-") as tmp:
        for r in range(args.repeat):
            for name, (every, receipts) in setups.items():
                best[name] = max(best[name], run(Path(tmp), f"{r}-{name.split()[0]}", sequences, every, receipts))
        key = ServerKey.generate()
        n = 2000
        start = time.perf_counter()
        for i in range(n):
            issue(key, UUID(int=i), i + 1, "ab" * 32)
        sign_us = (time.perf_counter() - start) / n * 1e6
        arbiter = Arbiter(f"sqlite:///{Path(tmp) / 'log'}.db", checkpoint_every=1)
        for i in range(n):
            arbiter.evidence.checkpoint(UUID(int=i), i + 1, "ab" * 32, "every")
        fresh = Evidence(arbiter.app, arbiter.evidence.key_file, arbiter.evidence.log.storage.path)
        start = time.perf_counter()
        assert fresh.log.report().ok
        lines_per_s = n / (time.perf_counter() - start)
    total = sum(len(s) for s in sequences)
    print(f"{args.games} games, {total} moves, best of {args.repeat}, SQLite file")
    for name, rate in best.items():
        print(f"  {name:20s} {rate:8.0f} moves/s  ({rate / best['no evidence']:.0%} of no evidence)")
    print(f"  one receipt signed   {sign_us:8.1f} µs")
    print(f"  checkpoint log check {lines_per_s:8.0f} lines/s")


if __name__ == "__main__":
    main()
