"""The transparency log's cost (docs/evidence.md, "The transparency log").

    .venv/bin/python -m bench.transparency [--games 4] [--moves 60] [--leaves 1000000] [--proofs 2000]

  moves            moves/s through `Arbiter.move` on a SQLite file store (checkpoint every 10 versions, the default),
                   and the tree's own cost per move: the leaves those moves appended read into the tree (the storage's
                   tail, json, leaf and node hashes) and a checkpoint signed and stored for them, as a share of a move
  appends          leaves/s appended to the tree from a file log (the raw rate: what a process does per new line)
  1,000,000 leaves a file log of that many lines (checkpoint-sized, unsigned: the tree does not read signatures) read
                   into the tree from nothing (what a restart costs), the memory it holds, the proof sizes (inclusion
                   and consistency, bytes as hashes and as the routes' JSON) and the time to verify one proof
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import tempfile
import time
from pathlib import Path

from bench.receipts import create_tables, play_interleaved, prepare
from service.evidence import merkle
from service.evidence.log_storage import FileStorage
from service.evidence.published_heads import MemoryHeads
from service.evidence.transparency import TransparencyLog
from service.facade import Arbiter


def moves(tmp: Path, sequences, every: int = 10, name: str = "moves") -> dict:
    """Play the sequences through the service on a fresh SQLite file store with a checkpoint every `every` versions."""
    arbiter = Arbiter(f"sqlite:///{tmp / (name + '.db')}", str(tmp / (name + ".key")), checkpoint_every=every)
    tree = arbiter.evidence.transparency.tree
    tables = create_tables(arbiter, len(sequences))
    tree.sync()
    arbiter.evidence.transparency.publish()
    before = tree.leaves
    count, elapsed = play_interleaved(arbiter, tables, sequences)
    start = time.perf_counter()
    tree.sync()
    arbiter.evidence.transparency.publish()
    tree_seconds = time.perf_counter() - start
    arbiter.close()
    return {"moves": count, "moves_per_s": count / elapsed, "leaves": tree.leaves - before,
            "tree_ms_per_move": tree_seconds / count * 1000, "share": tree_seconds / elapsed}


def big_log(path: Path, n: int) -> None:
    """n checkpoint-sized lines (about 420 bytes each, as the real ones), 50 games."""
    games = [f"{random.Random(g).getrandbits(128):032x}" for g in range(50)]
    with open(path, "wb") as f:
        for i in range(n):
            doc = {"at": "2025-05-01T12:00:00.000000+00:00", "attempts": 0, "attempts_head": "",
                   "format": "arbiter.checkpoint/2", "game": games[i % 50], "head": f"{i:064x}", "key": "0" * 16,
                   "prev": f"{i:064x}", "reason": "every", "seq": i + 1, "signature": "0" * 128, "version": i // 50 + 1}
            f.write(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode() + b"\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--proofs", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-tlog-") as tmp:
        tmp = Path(tmp)
        sequences = prepare(args.games, args.moves)
        runs = {10: [], 10**9: []}  # the default log, and (the reference) a log that holds only each game's creation
        for round_ in range(3):  # alternated, so that the machine's drift falls on both alike
            for every in runs:
                runs[every].append(moves(tmp, sequences, every, f"moves-{every}-{round_}"))
        m = max(runs[10], key=lambda r: r["moves_per_s"])
        bare = max(runs[10**9], key=lambda r: r["moves_per_s"])
        whole = 1 - m["moves_per_s"] / bare["moves_per_s"]
        print(f"moves: {m['moves']} moves, {m['moves_per_s']:.0f} moves/s with the log (SQLite file store, a leaf every "
              f"10 versions: {m['leaves']} leaves, signed, written; synced within ARBITER_LOG_SYNC_SECONDS) against {bare['moves_per_s']:.0f} moves/s with a "
              f"leaf only at creation (best of 3 each, alternated): the whole log costs {whole:.1%} of a move "
              f"(target <= 10%); the tree's own share {m['tree_ms_per_move']:.3f} ms per move = {m['share']:.2%}")
        path = tmp / "big.jsonl"
        start = time.perf_counter()
        big_log(path, args.leaves)
        print(f"wrote a log of {args.leaves:,} lines ({path.stat().st_size / 1e6:.0f} MB) in "
              f"{time.perf_counter() - start:.1f} s")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        log = TransparencyLog(FileStorage(path), MemoryHeads(), lambda: None)
        start = time.perf_counter()
        n = log.sync()
        build = time.perf_counter() - start
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
        print(f"appends / restart: {n:,} leaves read into the tree in {build:.1f} s ({n / build:,.0f} leaves/s); "
              f"the process grew by about {grown:.0f} MB (hashes {len(log._hashes) * 32 / 1e6:.0f} MB)")
        root = log.root(n)
        rng = random.Random(1)
        sizes, times = [], []
        for _ in range(args.proofs):
            index = rng.randrange(n)
            proof = log.inclusion(index, n)
            leaf = merkle.leaf_hash(log.leaf(index))
            start = time.perf_counter()
            merkle.check_inclusion(index, n, leaf, proof, root)
            times.append(time.perf_counter() - start)
            sizes.append(len(proof) * 32)
        json_size = len(json.dumps({"index": n - 1, "tree_size": n, "leaf": "x" * 560,
                                    "proof": ["x" * 44] * (max(sizes) // 32)}))
        print(f"inclusion at {n:,}: {min(sizes)}-{max(sizes)} bytes of hashes ({max(sizes) // 32} at most; the "
              f"route's JSON about {json_size} bytes with the leaf), verified in {sum(times) / len(times) * 1e6:.0f} us")
        sizes, times = [], []
        for _ in range(args.proofs):
            old = rng.randrange(1, n)
            proof = log.consistency(old, n)
            old_root = log.root(old)
            start = time.perf_counter()
            merkle.check_consistency(old, n, old_root, root, proof)
            times.append(time.perf_counter() - start)
            sizes.append(len(proof) * 32)
        print(f"consistency to {n:,}: {min(sizes)}-{max(sizes)} bytes of hashes, verified in "
              f"{sum(times) / len(times) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
