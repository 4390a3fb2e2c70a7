"""The referee's desk: how long its filters take on the catalogue, beside what verifying each game would cost.

Builds a SQLite store of `--games` El Royale games (2 to 6 seats, names from a pool of 40, a dispute open on one
game in 20 after a first move), reads the catalogue once (timed: the table is built from the events), verifies
one game in 10 (`Arbiter.verify`, which records the verdict the `tampered` filter reads), then times one page (50
rows) of `Arbiter.catalogue` per filter: `--repeat` timed calls after a warm-up, median and best in milliseconds.
The last line is what the desk would cost if it verified every listed game instead (the median of the verification
runs above, times 50).

Usage:  python -m bench.desk [--games N] [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from service.play.commands import FileDispute, PlayMove
from service.play.new_games import CreateGame

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Ola", "Pia",
         "Quin", "Rosa", "Sven", "Tia", "Uma", "Vic", "Wes", "Xan", "Yves", "Zoe", "Amir", "Bea", "Cato", "Dina",
         "Emil", "Faye", "Gert", "Hugo", "Ines", "Jens", "Kai", "Lena", "Mira", "Nils"]
FILTERS = {
    "desk order, no filter": {"order": "desk"},
    "player (part of a name)": {"order": "desk", "player": "ros"},
    "open disputes": {"order": "desk", "open_disputes": True},
    "tampered": {"order": "desk", "tampered": True},
    "game + status": {"order": "desk", "game": "el-royale", "status": "in_progress"},
    "creation order (GET /games)": {},
}


def build(url: str, games: int, seed: int):
    from service.facade import Arbiter

    facade = Arbiter(url)
    rng = random.Random(seed)
    created = []
    for i in range(games):
        names = rng.sample(NAMES, rng.randint(2, 6))
        g = facade.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"},
                                "players": [{"name": n} for n in names], "seed": f"{seed:04x}{i:08x}"}))
        created.append(g)
        if i % 20 == 0:
            seat = next(s for s in g["seats"] if facade.views.view(g["id"], s["token"])["table"].get("legal_moves"))
            move = dict(facade.views.view(g["id"], seat["token"])["table"]["legal_moves"][0])
            move.pop("seat", None)
            version = facade.play.move(seat["token"], PlayMove.from_body(g["id"], move))["events"][0]["version"]
            other = next(s for s in g["seats"] if s["seat"] != seat["seat"])
            facade.play.file_dispute(other["token"], FileDispute.from_body(g["id"], {"version": version, "claim": "bench"}))
    return facade, created


def timed(call, repeat: int) -> list[float]:
    call()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'desk.db'}"
        started = time.perf_counter()
        facade, created = build(url, args.games, 7)
        built = time.perf_counter() - started
        started = time.perf_counter()
        facade.lobby.catalogue(limit=1)  # the first read: the catalogue table is built from every game's events
        catch_up = time.perf_counter() - started
        verify = [ms for g in created[::10] for ms in timed(lambda g=g: facade.verification.verify(g["id"]), 1)]
        results = {}
        for label, filters in FILTERS.items():
            runs = timed(lambda f=filters: facade.lobby.catalogue(limit=50, **f), args.repeat)
            results[label] = {"median_ms": round(statistics.median(runs), 2), "best_ms": round(min(runs), 2),
                              "rows": len(facade.lobby.catalogue(limit=50, **filters))}
        out = {"games": args.games, "build_s": round(built, 1), "catalogue_build_s": round(catch_up, 2),
               "verify_median_ms": round(statistics.median(verify), 1), "verified": len(verify), "filters": results,
               "verify_50_rows_ms": round(statistics.median(verify) * 50)}
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['games']} games (built in {out['build_s']} s); catalogue built from the events in "
          f"{out['catalogue_build_s']} s; one verification: median {out['verify_median_ms']} ms ({out['verified']} runs)")
    print(f"{'filter (one page of 50)':32} {'median ms':>10} {'best ms':>8} {'rows':>5}")
    for label, r in results.items():
        print(f"{label:32} {r['median_ms']:>10} {r['best_ms']:>8} {r['rows']:>5}")
    print(f"{'verifying 50 rows instead':32} {out['verify_50_rows_ms']:>10}")


if __name__ == "__main__":
    main()
