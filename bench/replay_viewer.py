"""The replay viewer in Chromium (issue 27): first paint, positions loaded, and a step's time on a 5,000-event game,
beside the full-page step (one page load a version, as every step was before) measured the same way on the same game.

Builds a SQLite store with one El Royale game of random bots (4 seats, battle limit 1,000, played on until it has
`--events` events), starts `arbiter serve` on it and drives the system Chromium (/usr/bin/chromium) through Playwright
as the game's referee (every hand: the largest positions):

  first paint        navigation start to the first contentful paint of /games/{id}/replay?version=N (the board,
                     drawn by the server), and to the positions and the move list's lines loaded (the page steps in
                     place from then on)
  step (→)           a key press (keydown on the page) to the next frame painted with the new version's board:
                     `--steps` presses of the right arrow from the middle of the game; p50, p95, max
  jump               the same for a jump to a random version (the slider, Home/End: the nearest checkpoint patched
                     forward): `--steps` jumps
  full-page step     the reference: the same page without its script (each step a page of its own), navigation
                     start to load, `--pages` versions
  positions          the document's size for the referee, a seat and a spectator: JSON and gzip'd, and the
                     server's time to build it (in process, best of 3)

Usage:  python -m bench.replay_viewer [--events N] [--steps N] [--pages N] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from service.play.new_games import ImportRecord

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
STEP_JS = """async ([key, n, jumps]) => {
  const bar = document.getElementById('replay'), latest = Number(bar.dataset.latest), out = [];
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    if (jumps) window.arbiterReplay.go(jumps[i]);
    else document.body.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
    await frame();
    out.push(performance.now() - t0);
  }
  return [out, Number(bar.dataset.shown)];
}"""
PAINT_JS = """() => { const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {fcp: fcp ? fcp.startTime : null, load: nav.loadEventEnd, bytes: nav.transferSize}; }"""

FETCHED_JS = """() => Object.fromEntries(performance.getEntriesByType('resource').filter(r => /\\.json$/.test(new URL(r.name).pathname))
  .map(r => [new URL(r.name).pathname.split('/').pop(), {kb: r.decodedBodySize / 1024, sent_kb: r.transferSize / 1024,
                                                         ms: r.responseEnd - r.startTime}]))"""


def build(url: str, events: int) -> tuple:
    """A store holding one El Royale game of random bots with at least `events` events; (facade, game, version)."""
    from service.facade import Arbiter
    from service.offline.simulation import make_plan, run

    facade = Arbiter(url)
    moves = int(events * 0.76)
    while True:
        doc, = run(make_plan("el-royale", 4, 1, ("random",), {"edition": "revised", "battle_limit": 1000},
                             "bench-replay", max_moves=moves), 1)
        game = facade.play.import_record(ImportRecord.from_body(doc))
        version = facade.views.public(game["id"])["version"]
        if version >= events:
            return facade, game, version
        moves += max(1, (events - version))


def positions_sizes(facade, game: dict) -> dict:
    out = {}
    for name, token in (("referee", game["referee_token"]), ("seat 0", game["seats"][0]["token"]), ("spectator", None)):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            doc = facade.views.positions(game["id"], token) if token else facade.views.public_positions(game["id"])
            body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
            zipped = gzip.compress(body, compresslevel=6)
            best = min(best, time.perf_counter() - start)
        out[name] = {"json_kb": len(body) / 1024, "gzip_kb": len(zipped) / 1024, "build_ms": best * 1000}
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db: Path, workdir: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    arbiter = Path(sys.executable).with_name("arbiter")
    process = subprocess.Popen([str(arbiter), "serve", "--port", str(port), "--database-url", f"sqlite:///{db}",
                                "--workers", "1", "--threads", "8"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, cwd=workdir)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/v1/health", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("arbiter serve did not start")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(base: str, game: dict, version: int, steps: int, pages: int) -> dict:
    from playwright.sync_api import sync_playwright

    rng = random.Random(7)
    middle = version // 2
    out: dict = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(f"/join/{game['id']}/{game['referee_token']}")
            paints, ready = [], []
            for _ in range(3):
                started = time.perf_counter()
                page.goto(f"/games/{game['id']}/replay?version={middle}")
                page.wait_for_selector("#replay[data-ready=true]", timeout=60_000)
                ready.append((time.perf_counter() - started) * 1000)
                paints.append(page.evaluate(PAINT_JS))
            out["first_paint_ms"] = statistics.median(p["fcp"] for p in paints)
            out["page_kb"] = paints[-1]["bytes"] / 1024
            out["positions_loaded_ms"] = statistics.median(ready)
            out["fetched"] = page.evaluate(FETCHED_JS)
            page.evaluate(STEP_JS, ["ArrowRight", 10, None])  # warm-up
            times, shown = page.evaluate(STEP_JS, ["ArrowRight", steps, None])
            assert shown == min(version, middle + 10 + steps), shown
            out["step"] = times
            jumps = [rng.randint(1, version) for _ in range(steps)]
            times, shown = page.evaluate(STEP_JS, [None, steps, jumps])
            assert shown == jumps[-1]
            out["jump"] = times
            out["nodes"] = page.evaluate("() => [document.getElementsByTagName('*').length, "
                                         "document.querySelectorAll('#moves li.move').length]")
            context.close()

            context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900},
                                          java_script_enabled=False)
            page = context.new_page()
            page.goto(f"/join/{game['id']}/{game['referee_token']}")
            loads = []
            for v in range(middle, middle + pages):
                started = time.perf_counter()
                page.goto(f"/games/{game['id']}/replay?version={v}", wait_until="load")
                loads.append((time.perf_counter() - started) * 1000)
            out["full_page_step"] = loads
            out["full_page_kb"] = page.evaluate(PAINT_JS)["bytes"] / 1024
            context.close()
        finally:
            browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} is not installed (Debian package `chromium`)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "replay.db"
        facade, game, version = build(f"sqlite:///{db}", args.events)
        sizes = positions_sizes(facade, game)
        process, base = serve(db, Path(tmp))
        try:
            result = measure(base, game, version, args.steps, args.pages)
        finally:
            process.terminate()
            process.wait(10)
    result |= {"events": version, "positions": sizes}
    if args.json:
        print(json.dumps(result))
        return
    print(f"replay viewer, El Royale, {version} events, the referee's view (Chromium {CHROMIUM})")
    print(f"  first paint                 {result['first_paint_ms']:8.0f} ms   (page {result['page_kb']:.0f} KB as sent)"
          f"   target <= 1000 ms")
    print(f"  positions loaded            {result['positions_loaded_ms']:8.0f} ms   (navigation to stepping in place)")
    for name, f in result["fetched"].items():
        print(f"    {name:<24}  {f['kb']:8.0f} KB ({f['sent_kb']:.0f} KB sent), {f['ms']:.0f} ms from request to answer")
    for name, key in (("step (arrow key)", "step"), ("jump (random version)", "jump")):
        t = result[key]
        print(f"  {name:<26}  p50 {pct(t, .5):6.1f} ms  p95 {pct(t, .95):6.1f} ms  max {max(t):6.1f} ms"
              f"   ({len(t)} steps; target p95 <= 50 ms)")
    print(f"  page after the jumps         {result['nodes'][0]:8d} elements, {result['nodes'][1]} lines of the move list "
          f"drawn")
    t = result["full_page_step"]
    print(f"  reference: full-page step   p50 {pct(t, .5):6.0f} ms  max {max(t):6.0f} ms   ({len(t)} pages of "
          f"{result['full_page_kb']:.0f} KB: one page load a version, the page without its script)")
    for name, s in sizes.items():
        print(f"  positions, {name:<10}      {s['json_kb']:7.0f} KB JSON, {s['gzip_kb']:6.0f} KB gzip'd, built in "
              f"{s['build_ms']:5.0f} ms")


if __name__ == "__main__":
    main()
