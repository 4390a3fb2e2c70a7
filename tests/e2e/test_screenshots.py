"""The pages a referee and a player use most, at a desktop's width (1280 px) and a phone's (390 px): each answers,
shows its heading and fits the width (nothing to scroll sideways). Each is photographed on the way: into
test-artifacts/screens/ normally, into docs/screenshots/ (shown in the README) with `make screenshots`, which sets
ARBITER_SCREENSHOTS.

The game is El Royale's worked example 4 with names (as in tests/e2e/test_browser.py, whose server and browser this
module shares), part played, with a refused attempt and a dispute so that the replay and the audit show them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.test_browser import ARTIFACTS, EX4_MOVES, chromium, people, server  # noqa: F401

WIDTHS = {"1280": (1280, 800), "390": (390, 844)}


def screens_dir() -> Path:
    where = Path(os.environ.get("ARBITER_SCREENSHOTS") or ARTIFACTS / "screens")
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.fixture(scope="module")
def studied_game(server):
    """A named four-seat game five moves in (still being played), with a refused attempt and a dispute filed by a seat."""
    game = server.create_stacked()
    for seat, name in enumerate(["Ana", "Ben", "Cleo", "Dev"]):
        server.ok("POST", f"/api/v1/games/{game.id}/name", {"name": name}, game.tokens[seat])
    versions = [game.move(seat, kind, cards) for seat, kind, cards in EX4_MOVES[:5]]
    view = game.referee_view()
    idle = next(s for s in range(4) if s not in view["table"].get("to_act_seats", [view["table"].get("to_act")]))
    status, _ = server.call("POST", f"/api/v1/games/{game.id}/moves", {"type": "take", "cards": []}, game.tokens[idle])
    assert status in (409, 422), status
    server.ok("POST", f"/api/v1/games/{game.id}/disputes", {"version": versions[2], "claim": "that card was not mine"},
              game.tokens[1])
    return game, versions


def pages(game, versions) -> dict[str, tuple[str, str | None]]:
    """name -> (path, the identity that opens it: a seat's or the referee's link first, or None for anyone)."""
    return {
        "lobby": ("/", None),
        "table": (f"/games/{game.id}", game.join_url(0)),
        "audit": (f"/games/{game.id}/audit", game.join_url()),
        "desk": ("/desk", None),
        "tournaments": ("/tournaments", None),
    }


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("name", ["lobby", "table", "audit", "desk", "tournaments"])
def test_each_main_page_answers_shows_its_heading_and_fits_a_desktop_and_a_phone(people, studied_game, name, width):
    game, versions = studied_game
    path, identity = pages(game, versions)[name]
    w, h = WIDTHS[width]
    page = people.page(identity or path, width=w, height=h)
    if identity:
        answer = page.goto(path)
        assert answer.status == 200, f"{path} -> {answer.status}"
    page.locator("main h1, main h2").first.wait_for()
    assert page.locator("main").inner_text().strip(), f"{name}: an empty page"
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{name} at {width} px scrolls sideways by {overflow} px"
    page.screenshot(path=str(screens_dir() / f"{name}-{width}.png"), full_page=False)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_replay_viewer_stepped_to_mid_game_with_a_fold_open_fits_a_desktop_and_a_phone(people, server, width):
    """The replay of a finished bot game (El Royale, heuristic bots), stepped in the page to an engine's step in the
    middle of the game: its move's group in the list opened, the line highlighted, the board drawn by the browser."""
    from playwright.sync_api import expect

    from service.offline.simulation import make_plan, run

    doc, = run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "screens"), 1)
    gid = server.ok("POST", "/api/v1/records", doc)["id"]
    latest = server.ok("GET", f"/api/v1/games/{gid}")["version"]
    w, h = WIDTHS[width]
    page = people.page(f"/games/{gid}/replay?version={latest // 2}", width=w, height=h)
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    target = next(v for v, kind, under, _ in page.evaluate("window.arbiterReplay.lines()")
                  if under is not None and v > latest // 2 and kind == "event")
    page.evaluate(f"window.arbiterReplay.go({target - 1})")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-shown", str(target))
    expect(page.locator(f"#v{target}.current")).to_be_visible()
    assert page.locator("#moves button.fold[aria-expanded=true]").count()
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the replay at {width} px scrolls sideways by {overflow} px"
    page.wait_for_timeout(300)  # the list's highlight and scroll follow the board's paint
    page.screenshot(path=str(screens_dir() / f"replay-{width}.png"), full_page=width == "390")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_replay_with_a_computer_analysis_shown_fits_a_desktop_and_a_phone(people, server, width):
    """The replay of a finished Small Battle game (a record imported), as its seat 0, with that seat's analysis asked
    from the page: the graph, the marks in the move list and the candidates at a marked decision (or the middle one)."""
    import json

    from playwright.sync_api import expect

    from tests.e2e.test_browser import Game

    record = Path(__file__).resolve().parent.parent / "records" / "small-battle" / "selfplay-00-2p.json"
    game = Game(server, server.ok("POST", "/api/v1/records", json.loads(record.read_text())))
    w, h = WIDTHS[width]
    page = people.page(game.join_url(0), width=w, height=h)
    page.goto(f"/games/{game.id}/replay?version=1")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    page.fill("#analysis-samples", "200")
    page.locator("#analysis-start").click()
    expect(page.locator("#analysis")).to_have_attribute("data-state", "done", timeout=90_000)
    job = page.locator("#analysis").get_attribute("data-job")
    lines = server.ok("GET", f"/api/v1/games/{game.id}/analysis/{job}", token=game.tokens[0])["lines"]
    target = next((line for line in lines if line["mark"]), lines[len(lines) // 2])
    page.locator(f"#analysis-svg g.point[data-version='{target['version']}']").click()
    expect(page.locator("#replay")).to_have_attribute("data-shown", str(target["version"]))
    expect(page.locator("#analysis-table tr.played")).to_have_count(1)
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the replay with its analysis at {width} px scrolls sideways by {overflow} px"
    page.wait_for_timeout(300)  # the list's highlight and scroll follow the board's paint
    page.screenshot(path=str(screens_dir() / f"analysis-{width}.png"), full_page=True)


@pytest.fixture(scope="module")
def screened_tournament(server):
    """A Small Battle round-robin of two played out by the bots (tests/e2e/test_browser_fairplay.py)."""
    from tests.e2e.test_browser_fairplay import played_match

    return played_match(server, "Club night")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_fair_play_report_fits_a_desktop_and_a_phone(people, screened_tournament, width):
    """The director's fair-play report once its job is done: the per-player table and the reasons in words."""
    from playwright.sync_api import expect

    tid, token = screened_tournament
    w, h = WIDTHS[width]
    page = people.page(f"/tournaments/{tid}/director/{token}", width=w, height=h)
    page.goto(f"/tournaments/{tid}/fairplay")
    expect(page.locator("table#fairplay")).to_be_visible(timeout=120_000)
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the fair-play report at {width} px scrolls sideways by {overflow} px"
    page.screenshot(path=str(screens_dir() / f"fairplay-{width}.png"), full_page=width == "390")
