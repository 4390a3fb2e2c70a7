"""The maximum merge delay, measured: how long an acknowledged move or refusal waits for a published checkpoint that
covers it, under 16 clients, and what the promise and the cover cost per move, each beside its reference.

    .venv/bin/python -m bench.merge_delay [--clients 16] [--seconds 12] [--games 16] [--moves 400] [--repeat 3]

Delay: `--clients` threads each play their own El Royale game through the facade on a SQLite file (a refused attempt
every tenth action), while the process's duty loop runs as a server's does (ARBITER_LOG_PUBLISH_SECONDS and
ARBITER_LOG_MMD at their defaults, or as set). Every acknowledgement's promise is kept; after the run, each is held
against the stored lines and the published checkpoints: its delay is the time from `acknowledged` to the publication
of the first checkpoint that covers it. Reference, in the same run: the same clients with the duty's cover left out
(publishing only: the cadence of issue 12 alone), where what is acknowledged between a game's checkpoints waits for
the game's next one, or forever.

Cost per move: moves/s of the same prepared move sequences through the facade (as bench.receipts), the process's duty
loop running beside the moves as a server's does, with receipts but no promise and a duty that only publishes (the
server before the maximum merge delay: the reference), and with the promise on every receipt and the duty covering
before it publishes; best of --repeat, alternately first. Each run plays some 6,000 moves (16 games of up to 400),
several seconds: long enough for the duty's publishing rounds to fall inside it (a run of 240 moves lasted a quarter
of a second, shorter than one round, and swung by a third between runs on a loaded machine).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

from bench.receipts import create_tables, play_interleaved, prepare
from service.errors import IllegalMove, ServiceError
from service.evidence import promises
from service.evidence.publish_duty import PublishDuty
from service.facade import Arbiter
from service.play.commands import PlayMove
from service.play.new_games import CreateGame
from tests.integration.service_support import pick, raw_move


def client(arbiter: Arbiter, index: int, until: float, kept: list, lock: threading.Lock) -> None:
    """One client: its own game, played by random legal moves (a refused attempt every tenth action) until `until`
    (a new game when one ends); every promise kept in `kept`."""
    rng = random.Random(index)
    mine = []
    while time.monotonic() < until:
        created = arbiter.play.create_game(CreateGame.from_body({
            "game": "el-royale", "options": {"edition": "revised"}, "players": [{"name": f"P{i}"} for i in range(4)]}))
        gid, tokens = UUID(created["id"]), [s["token"] for s in created["seats"]]
        mine.append(created["receipt"]["promise"])
        step = 0
        while time.monotonic() < until:
            game = arbiter.app.game(gid)
            if game.outcome.is_over:
                break
            step += 1
            if step % 10 == 0:  # a refused attempt, by a seat in turn (within the bound on kept refusals)
                bystander = (game.state.to_act + 1 + step // 10 % 3) % 4
                try:
                    arbiter.play.move(tokens[bystander], PlayMove.from_body(str(gid), {"type": "pass"}))
                except IllegalMove as refusal:
                    if getattr(refusal, "promise", None):
                        mine.append(refusal.promise)
                except ServiceError:  # over the bound: answered, not kept, nothing promised
                    pass
                continue
            move = pick(game, rng)
            mine.append(arbiter.play.move(tokens[move["seat"]], PlayMove.from_body(str(gid), raw_move(move)))
                        ["receipt"]["promise"])
    with lock:
        kept.extend(mine)


def delays(arbiter: Arbiter, notes: list[str]) -> tuple[list[float], int]:
    """(seconds from acknowledgement to the first published checkpoint covering it, for each promise covered; how
    many no published checkpoint covers)."""
    lines = arbiter.evidence.log.storage.read().split(b"\n")[:-1]
    heads = arbiter.evidence.transparency.tree.heads.all()
    verifier = arbiter.evidence.transparency.verifier()
    out, missing = [], 0
    far = datetime.max.replace(tzinfo=timezone.utc)
    for note in notes:
        promise = promises.read(note, verifier)
        done = promises.held(promise, lines, heads, now=far)
        if done["published_at"] is None:
            missing += 1
        else:
            out.append((datetime.fromisoformat(done["published_at"]) - promise.acknowledged).total_seconds())
    return out, missing


def delay_run(directory: Path, name: str, clients: int, seconds: float, cover: bool) -> dict:
    arbiter = Arbiter(f"sqlite:///{directory / name}.db")
    duty = next(p for p in arbiter.play.duty.parts if isinstance(p, PublishDuty))
    spent: list[tuple[float, int]] = []  # each cover round: (seconds, lines written)
    if not cover:
        duty.cover = None
    else:
        run = duty.cover.run

        def timed() -> int:
            start = time.perf_counter()
            lines = run()
            spent.append((time.perf_counter() - start, lines))
            return lines

        duty.cover.run = timed
    arbiter.play.duty.start()
    kept: list[str] = []
    lock = threading.Lock()
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=client, args=(arbiter, i, until, kept, lock)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(arbiter.evidence.mmd + 0.5)  # every promise's time is up: the duty's rounds go on meanwhile
    arbiter.play.duty.stop()
    measured, missing = delays(arbiter, kept)
    arbiter.close()
    return {"acks": len(kept), "delays": measured, "missing": missing, "mmd": arbiter.evidence.mmd,
            "interval": duty.seconds, "cover_rounds": spent}


def cost_run(directory: Path, name: str, sequences, promise: bool) -> float:
    """Moves per second of the prepared sequences, the duty loop running: with promises and the cover, or neither."""
    arbiter = Arbiter(f"sqlite:///{directory / name}.db")
    if not promise:
        arbiter.evidence.promise = lambda *a, **k: None
        next(p for p in arbiter.play.duty.parts if isinstance(p, PublishDuty)).cover = None
    arbiter.play.duty.start()
    tables = create_tables(arbiter, len(sequences))
    gc.collect()
    count, elapsed = play_interleaved(arbiter, tables, sequences)
    arbiter.play.duty.stop()
    arbiter.close()
    return count / elapsed


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sequences = prepare(args.games, args.moves)
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-mmd-") as tmp:
        runs = {"with the cover": delay_run(Path(tmp), "cover", args.clients, args.seconds, True),
                "cadence only (reference)": delay_run(Path(tmp), "cadence", args.clients, args.seconds, False)}
        best = {"no promise, duty publishing only (reference)": 0.0, "promise + duty covering, then publishing": 0.0}
        for r in range(args.repeat):
            order = list(best) if r % 2 == 0 else list(reversed(best))
            for name in order:
                rate = cost_run(Path(tmp), f"cost-{r}-{name.split()[0]}", sequences, name.startswith("promise"))
                best[name] = max(best[name], rate)
    mmd, interval = runs["with the cover"]["mmd"], runs["with the cover"]["interval"]
    print(f"maximum merge delay {mmd:g} s, cover and publish every {interval:g} s; {args.clients} clients, "
          f"{args.seconds:g} s, SQLite file (ARBITER_LOG_PUBLISH_SECONDS={os.environ.get('ARBITER_LOG_PUBLISH_SECONDS', '5')})")
    for name, run in runs.items():
        d = run["delays"]
        print(f"  {name:26s} {run['acks']:6d} acknowledgements: delay p50 {percentile(d, 50):5.2f} s, p99 "
              f"{percentile(d, 99):5.2f} s, max {max(d) if d else float('nan'):5.2f} s; never covered "
              f"{run['missing']} ({run['missing'] / max(1, run['acks']):.0%}); past the MMD "
              f"{sum(1 for x in d if x > mmd) + run['missing']}")
    total = sum(len(s) for s in sequences)
    reference = best["no promise, duty publishing only (reference)"]
    print(f"cost per move: {args.games} games, {total} moves, best of {args.repeat}")
    for name, rate in best.items():
        print(f"  {name:42s} {rate:8.0f} moves/s  ({rate / reference:.0%} of the reference)")
    cover = runs["with the cover"]
    rounds = cover["cover_rounds"]
    cover_s = sum(s for s, _ in rounds)
    per_ack = cover_s / max(1, cover["acks"])
    print(f"  the cover: {len(rounds)} rounds, {sum(n for _, n in rounds)} lines, {cover_s * 1e3:.1f} ms in all "
          f"(at most {max((s for s, _ in rounds), default=0) * 1e3:.1f} ms a round): {per_ack * 1e6:.0f} µs per "
          f"acknowledgement, {per_ack * reference:.1%} of a move at the reference's rate")
    print(f"target: p99 within the MMD ({'met' if percentile(cover['delays'], 99) <= mmd and not cover['missing'] else 'MISSED'}), "
          f"cost at most 10% of a move ({'met' if best['promise + duty covering, then publishing'] >= 0.9 * reference else 'MISSED'}); "
          f"the log's delay statistics: {statistics.fmean(cover['delays']) if cover['delays'] else float('nan'):.2f} s mean")


if __name__ == "__main__":
    main()
