"""What the duty loop (service/duty.py) costs with many games whose seats bots play, on one store.

One host seats a bot at each of N small-battle games (the other seat a person who never moves). Then, on a fresh
host (an Arbiter with an empty duty loop): its first round (reading the bot seats' events by topic, taking the N
leases, playing each bot's first move); 20 rounds with nothing new (the median, wall and CPU); and a second fresh
host's round that tries all N leases while the first holds them (one query).

Usage:  python -m bench.duty [--store sqlite|postgres] [--games N]
        (postgres: ARBITER_TEST_POSTGRES_URL, a schema of its own, dropped after)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
import uuid
from service.play.new_games import CreateGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    from service.facade import Arbiter

    folder = tempfile.mkdtemp(prefix="arbiter-bench-duty-")
    base = os.environ.get("ARBITER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
    schema = f"arbiter_bench_duty_{uuid.uuid4().hex[:8]}"
    url = f"{base}?schema={schema}" if args.store == "postgres" else f"sqlite:///{folder}/duty.db"
    host = lambda: Arbiter(url, f"{folder}/key", f"{folder}/checkpoints.log")  # noqa: E731
    seating = host()
    for _ in range(args.games):
        created = seating.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": "P"}, {"name": "B"}]}))
        seating.play.bot_seats.hand_over(created["id"], created["seats"][1]["token"], "random")
    first = host()
    t0 = time.perf_counter()
    first.play.duty.tick()
    print(f"{args.store}, {args.games} games with a bot: a fresh host's first round {time.perf_counter() - t0:.2f} s "
          f"({len(first.play.duty.leases.held)} leases taken, {first.play.bot_duty.moves} bot moves)")
    first.play.duty.tick()
    wall, cpu = [], []
    for _ in range(20):
        c0, w0 = time.process_time(), time.perf_counter()
        first.play.duty.tick()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    print(f"a round with nothing new: median {statistics.median(wall):.2f} ms wall, {statistics.median(cpu):.2f} ms CPU")
    second = host()
    second.play.duty.tick()  # its first round: the scan, and its first try of every lease
    second.play.duty.claim_now()
    t0 = time.perf_counter()
    second.play.duty.tick()
    print(f"a second host trying all {args.games} leases held by the first: {(time.perf_counter() - t0) * 1000:.1f} ms")
    for h in (seating, first, second):
        h.play.duty.stop()
        h.app.close()
    if args.store == "postgres":
        import psycopg
        from psycopg import sql

        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
