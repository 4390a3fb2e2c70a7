"""The audit page of a long game (issue 35: 5.3 s for a 1,107-event game while every other page took < 1.3 s).

Builds a SQLite store with one El Royale game of random bots (4 seats, revised, battle limit 1,000, played on until
it has `--events` events: bench.replay_viewer.build), then times GET /games/{id}/audit in process (the Flask app,
its test client: no network) for the referee (the link's cookie), unfiltered and filtered by one seat; best and
median of `--runs`. `--live`: the same moves played one by one on a game created with a time control (as a
tournament's table is: clocks, snapshots, a receipt a move), not imported in one go. `--profile FILE` writes a cProfile
of one referee page (read it with `python -m pstats FILE`).

`--browser`: also the page in Chromium (`arbiter serve` on the store; the system Chromium or Playwright's) at 1280 and
390 px, the referee's: navigation start to the load event, and the page's height.

Usage:  python -m bench.audit_page [--events N] [--runs N] [--live] [--browser] [--profile FILE] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import statistics
import tempfile
import time
from pathlib import Path


def timed(client, path: str, runs: int) -> dict:
    """Best and median seconds of `runs` GETs of `path` (each must answer 200)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = client.get(path)
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200, (path, answer.status_code)
    return {"best_s": round(min(times), 3), "median_s": round(statistics.median(times), 3),
            "bytes": len(answer.get_data())}


def live(url: str, events: int) -> tuple:
    """The moves of bench.replay_viewer.build's game played one by one through PlayFacade on a game created from the
    same setup with a game clock (the clocks start at creation): (game, version)."""
    from service.facade import Arbiter
    from service.offline.simulation import make_plan, run
    from service.play.moves import PlayMove
    from service.play.new_games import CreateGame

    doc, = run(make_plan("el-royale", 4, 1, ("random",), {"edition": "revised", "battle_limit": 1000},
                         "bench-replay", max_moves=int(events * 0.76)), 1)
    facade = Arbiter(url)
    game = facade.play.create_game(CreateGame.from_body(
        {"game": doc["game"], "options": doc["options"], "players": doc["players"], "seed": doc["seed"],
         "time_control": {"game_seconds": 36000, "start": "created"}}))
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    for move in doc["moves"]:
        body = {k: v for k, v in move.items() if k != "seat"}
        facade.play.move(tokens[move["seat"]], PlayMove.from_body(game["id"], body))
    version = facade.views.public(game["id"])["version"]
    facade.close()
    return game, version


def in_browser(db: Path, game: dict, runs: int) -> dict:
    """Navigation start to load of the referee's audit page in Chromium, best of `runs`, at 1280 and 390 px."""
    from playwright.sync_api import sync_playwright

    from bench.replay_viewer import CHROMIUM, CHROMIUM_FLAGS, serve

    process, base = serve(db, db.parent)
    out = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else None, args=CHROMIUM_FLAGS)
            for width in (1280, 390):
                context = browser.new_context(base_url=base, viewport={"width": width, "height": 844})
                page = context.new_page()
                page.goto(f"/join/{game['id']}/{game['referee_token']}")
                loads = []
                for _ in range(runs):
                    page.goto(f"/games/{game['id']}/audit", wait_until="load")
                    loads.append(page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd"))
                out[f"{width} px"] = {"load_s": round(min(loads) / 1000, 3),
                                      "height_px": page.evaluate("() => document.documentElement.scrollHeight")}
                context.close()
            browser.close()
    finally:
        process.terminate()
        process.wait(10)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--live", action="store_true")
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from api.app import create_app
    from bench.replay_viewer import build

    workdir = Path(tempfile.mkdtemp(prefix="bench-audit-"))
    url = f"sqlite:///{workdir / 'audit.db'}"
    if args.live:
        game, version = live(url, args.events)
    else:
        facade, game, version = build(url, args.events)
        facade.close()
    app = create_app({"DATABASE_URL": url})
    client = app.test_client()
    client.get(f"/join/{game['id']}/{game['referee_token']}")
    path = f"/games/{game['id']}/audit"
    client.get(path)  # warm: templates compiled, the game loaded once
    result = {"events": version, "referee": timed(client, path, args.runs),
              "referee, one seat's entries": timed(client, path + "?who=seat:1", args.runs)}
    spectator = app.test_client()
    result["spectator"] = timed(spectator, path, args.runs)
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        client.get(path)
        profile.disable()
        profile.dump_stats(args.profile)
    if args.browser:
        result["chromium"] = in_browser(workdir / "audit.db", game, args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"audit page of a {version}-event El Royale game ({'played live' if args.live else 'imported'}), in process, "
              f"best / median of {args.runs}:")
        for who, r in result.items():
            if who == "chromium":
                for width, r in result["chromium"].items():
                    print(f"  Chromium at {width:<21} {r['load_s']:.3f} s to load, {r['height_px']} px tall")
            elif who != "events":
                print(f"  {who:<30} {r['best_s']:.3f} s / {r['median_s']:.3f} s  ({r['bytes'] // 1024} KB)")


if __name__ == "__main__":
    main()
