"""The cost of the checkpoint log as a PostgreSQL table against the file log, on a PostgreSQL store.

    ARBITER_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test .venv/bin/python -m bench.checkpoint_log \
        [--appends 400] [--games 4] [--moves 60] [--repeat 3]

On a fresh schema of the database, for each log (the table `<schema>_evidence.checkpoints` written under its writer
role, and a JSON-lines file with flock and fsync in a temporary directory):

  append           ms per checkpoint appended by one thread, one after the other (a transaction each; a write and
                   an fsync each)
  8 threads        checkpoints/s appended by 8 threads at once (group commit: one transaction, one fsync, per batch)
  moves            moves/s through `Arbiter.move` (the prepared sequences of bench.receipts) with a checkpoint every
                   10 versions (the default) and with one per move (CHECKPOINT_EVERY=1)

best of --repeat. Both logs are checked afterwards (CheckpointLog.report).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from uuid import UUID

from bench.receipts import create_tables, play_interleaved, prepare
from service.facade import Arbiter


def _arbiter(url: str, tmp: Path, log: str, every: int) -> Arbiter:
    return Arbiter(url, str(tmp / "bench.key"), str(tmp / f"{uuid.uuid4().hex}.jsonl") if log == "file" else None,
                   checkpoint_every=every)


def appends(arbiter: Arbiter, n: int, threads: int = 1) -> float:
    """Seconds to append n checkpoints (of made-up games) with `threads` threads."""
    gids = [UUID(int=i + 1) for i in range(n)]
    start = time.perf_counter()
    if threads == 1:
        for i, gid in enumerate(gids):
            arbiter.evidence.checkpoint(gid, i + 1, "ab" * 32, "every")
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda a: arbiter.evidence.checkpoint(a[1], a[0] + 1, "ab" * 32, "every"), enumerate(gids)))
    return time.perf_counter() - start


def moves(arbiter: Arbiter, sequences) -> float:
    count, elapsed = play_interleaved(arbiter, create_tables(arbiter, len(sequences)), sequences)
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=400)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    base = os.environ.get("ARBITER_TEST_POSTGRES_URL")
    if not base:
        raise SystemExit("set ARBITER_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test")
    sequences = prepare(args.games, args.moves)
    results: dict[tuple[str, str], float] = {}
    schemas = []
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-log-") as tmp:
        try:
            for _ in range(args.repeat):
                for log in ("file", "table"):
                    for name, every in (("append", 1), ("8 threads", 1), ("moves every 10", 10), ("moves every 1", 1)):
                        schema = f"arbiter_bench_{uuid.uuid4().hex[:10]}"
                        schemas.append(schema)
                        arbiter = _arbiter(f"{base}?schema={schema}", Path(tmp), log, every)
                        if name == "append":
                            value = appends(arbiter, args.appends) / args.appends * 1000  # ms per append: lower wins
                        elif name == "8 threads":
                            value = -args.appends / appends(arbiter, args.appends, 8)
                        else:
                            value = -moves(arbiter, sequences)
                        assert arbiter.evidence.log.report().ok
                        arbiter.close()
                        key = (log, name)
                        results[key] = min(results.get(key, value), value)
        finally:
            import psycopg

            from tests.support import drop_store_schema

            with psycopg.connect(base, autocommit=True) as conn:
                for schema in schemas:
                    drop_store_schema(conn, schema)
    print(f"PostgreSQL store, best of {args.repeat}: {args.appends} appends; {args.games} games, "
          f"{sum(len(s) for s in sequences)} moves")
    for name, unit in (("append", "ms per checkpoint"), ("8 threads", "checkpoints/s"), ("moves every 10", "moves/s"),
                       ("moves every 1", "moves/s")):
        f, t = abs(results[("file", name)]), abs(results[("table", name)])
        print(f"  {name:16s} file {f:8.2f}  table {t:8.2f}  {unit}  (table/file {t / f:.2f})")


if __name__ == "__main__":
    main()
