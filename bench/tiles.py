"""What serving and mirroring the log as C2SP tlog-tiles costs (docs/evidence.md, "Tiles", "Mirroring the log").

    .venv/bin/python -m bench.tiles [--leaves 1000000] [--served 100000] [--requests 200]

  per tile         the time to make one tile of a tree of --leaves leaves read from a file log (checkpoint-sized
                   lines, as bench.transparency's): a full level-0 and level-1 hash tile, the top partial tile, a full
                   entry bundle (from the file) and the same gzip'd; what a request costs before HTTP
  mirror size      the bytes of every tile of that tree (what a mirror holds) against the log's own bytes
  check            `check_tiles` over that whole tree from memory: what `arbiter log check` costs per leaf
  served mirror    `arbiter log mirror` over real HTTP from a served SQLite store of --served signed lines: the first
                   copy, and a second run after 1,000 more lines (only the new tiles fetched)
"""

from __future__ import annotations

import argparse
import gzip
import random
import tempfile
import time
from pathlib import Path

from bench.transparency import big_log
from service.evidence import tiles
from service.evidence.log_storage import FileStorage
from service.evidence.published_heads import MemoryHeads
from service.evidence.tiles import Tile
from service.evidence.transparency import TransparencyLog


def per_call(f, n: int) -> float:
    """Microseconds per call of f over n calls."""
    start = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - start) / n * 1e6


def tile_costs(tmp: Path, leaves: int, requests: int) -> dict:
    big_log(tmp / "big.log", leaves)
    log = TransparencyLog(FileStorage(tmp / "big.log"), MemoryHeads(), signer=lambda: None)
    log.sync()
    rng = random.Random(1)
    full0, full1 = leaves // 256, leaves // 65536
    top = [t for t in tiles.tiles_of(leaves) if t.level is not None][-1]

    def bundle(index: int) -> bytes:
        return tiles.entry_bundle(log.leaves(index * 256, index * 256 + 256), index * 256)

    out = {
        "level-0 tile us": per_call(lambda: log.hash_tile(Tile(0, rng.randrange(full0))), requests),
        "level-1 tile us": per_call(lambda: log.hash_tile(Tile(1, rng.randrange(full1))), requests) if full1 else None,
        f"top tile {top} us": per_call(lambda: log.hash_tile(top), requests),
        "entry bundle us": per_call(lambda: bundle(rng.randrange(full0)), requests),
        "entry bundle gzip'd us": per_call(lambda: gzip.compress(bundle(rng.randrange(full0)), 6, mtime=0), requests),
    }
    sample = bundle(0)
    out["entry bundle bytes (gzip'd)"] = f"{len(sample)} ({len(gzip.compress(sample, 6, mtime=0))})"
    files = {}
    for tile in tiles.tiles_of(leaves):
        files[tile.path] = (log.hash_tile(tile) if tile.level is not None else
                            tiles.entry_bundle(log.leaves(tile.first, tile.first + tile.width)))
    out["mirror MB (log MB)"] = f"{sum(map(len, files.values())) / 1e6:.1f} ({(tmp / 'big.log').stat().st_size / 1e6:.1f})"
    start = time.perf_counter()
    tiles.check_tiles(files.get, leaves, log.root(leaves))
    out["check_tiles us/leaf"] = (time.perf_counter() - start) / leaves * 1e6
    return out


def served_mirror(tmp: Path, lines: int) -> dict:
    from click.testing import CliRunner

    from api.cli.main import main
    from tests.integration.tiles_support import served_log

    out = {}
    with served_log(f"sqlite:///{tmp / 'games.db'}") as log:
        for start in range(0, lines, 10_000):
            log.grow(min(10_000, lines - start))
        args = ["log", "mirror", str(tmp / "mirror"), "--from", log.prefix, "--key", log.key]
        start = time.perf_counter()
        first = CliRunner().invoke(main, args)
        out[f"first mirror of {lines} leaves s"] = time.perf_counter() - start
        assert first.exit_code == 0, first.output
        log.grow(1000)
        start = time.perf_counter()
        again = CliRunner().invoke(main, args)
        out["again after 1,000 more s"] = time.perf_counter() - start
        assert again.exit_code == 0, again.output
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--served", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = {**tile_costs(Path(tmp), args.leaves, args.requests), **served_mirror(Path(tmp), args.served)}
    for name, value in results.items():
        print(f"{name:32} {value:.1f}" if isinstance(value, float) else f"{name:32} {value}")


if __name__ == "__main__":
    main()
