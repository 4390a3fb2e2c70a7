"""The replay page's computer analysis in Chromium (issue 27, docs/analysis.md "On the replay page"): a seat of a
finished Small Battle game (a record imported through the API) asks for its analysis from the page, sees the
evaluation graph and the marks in the move list come, clicks a point of the graph and the viewer steps there (no
reload), reads the candidate moves at that version with the move played highlighted, and opens a study from the link.
Its page offers only its own seat, and the page's route refuses another seat's analysis. Shares test_browser's
server (the analysis runs on the server's own pool of workers, as deployed)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_browser import Game, chromium, people, server  # noqa: F401

RECORD = Path(__file__).resolve().parent.parent / "records" / "small-battle" / "selfplay-00-2p.json"
ANALYSIS_MS = 90_000  # a few seconds on an idle machine; the suite's machine is shared


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def imported(server) -> Game:
    return Game(server, server.ok("POST", "/api/v1/records", json.loads(RECORD.read_text())))


def analysed(page, samples: int = 16) -> None:
    """Ask for the analysis of the seat chosen in the page's control, and wait for its graph."""
    page.fill("#analysis-samples", str(samples))
    page.locator("#analysis-start").click()
    expect(page.locator("#analysis")).to_have_attribute("data-state", "done", timeout=ANALYSIS_MS)


def test_a_seat_analyses_its_game_on_the_replay_page_steps_from_the_graph_and_opens_a_study(people, server):
    game = imported(server)
    page = people.page(game.join_url(0), width=1280, height=900)  # this browser holds seat 0's link
    page.goto(f"/games/{game.id}/replay?version=1")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    assert page.locator("#analysis-seat option").evaluate_all("os => os.map(o => o.value)") == ["0"]
    page.evaluate("window.__loadedOnce = true")  # gone if the page ever reloads
    analysed(page)
    expect(page.locator("#analysis-status")).to_contain_text("decisions analysed")
    job = server.ok("GET", f"/api/v1/games/{game.id}/analysis/{page.locator('#analysis').get_attribute('data-job')}",
                    token=game.tokens[0])
    lines = job["lines"]
    expect(page.locator("#analysis-accuracy strong")).to_have_text(f"{job['accuracy']:.1f}%")  # the seat's, this game
    points = page.locator("#analysis-svg g.point")
    expect(points).to_have_count(len(lines))
    marks = page.locator("#moves .analysis-mark")
    assert marks.count() == len(lines)  # a short game's list is drawn whole: each analysed decision carries its mark
    for line in lines:
        sign = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", None: "✓"}[line["mark"]]
        expect(page.locator(f"#v{line['version']} .analysis-mark")).to_have_text(sign)

    target = lines[len(lines) // 2]
    page.locator(f"#analysis-svg g.point[data-version='{target['version']}']").click()
    expect(page.locator("#replay")).to_have_attribute("data-shown", str(target["version"]))
    expect(page.locator(f"#moves li.current")).to_have_attribute("data-version", str(target["version"]))
    table = page.locator("#analysis-table")
    expect(table.locator("tbody tr")).to_have_count(len(target["moves"]))
    expect(table.locator("tr.played")).to_have_count(1)
    expect(table.locator("tr.played")).to_contain_text("played")
    expect(page.locator("#analysis-verdict")).to_contain_text("Best:")
    name = server.ok("GET", f"/api/v1/games/{game.id}/view", token=game.tokens[0])["players"][0]["name"]
    expect(page.locator("#analysis-verdict")).to_contain_text(f"of {name}, version")  # the player, not "seat 0"
    assert page.evaluate("window.__loadedOnce") is True, "the graph's click reloaded the page"

    link = page.locator("#study-here")
    assert link.get_attribute("href").endswith(f"/studies/new?version={target['version']}&seat=0")
    link.click()
    expect(page.locator("#study-version")).to_have_value(str(target["version"]))
    expect(page.locator("#study-seat")).to_have_value("0")
    page.locator("#study-new-form button").click()
    expect(page.locator("#variation-label")).to_contain_text("not part of the recorded game")


def test_a_seat_s_page_offers_only_its_seat_and_its_route_refuses_another_seat(people, server):
    game = imported(server)
    page = people.page(game.join_url(1))
    page.goto(f"/games/{game.id}/replay")
    assert page.locator("#analysis-seat option").evaluate_all("os => os.map(o => o.value)") == ["1"]
    start = page.locator("#analysis").get_attribute("data-start")
    answer = page.evaluate("""async url => { const r = await fetch(url, {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({seat: 0, samples: 4})});
        return [r.status, (await r.json()).detail]; }""", start)
    assert answer == [403, "a seat may analyse only its own decisions: seat 1 asked for seat 0's"]


def test_a_visitor_sees_its_place_in_the_queue_and_an_estimate_then_cancels_its_analysis(people, server):
    """The server's two running places taken by the referee's long analyses (Batallion at 1000 samples a move): a
    spectator's analysis waits in the queue, the page says its place and an estimate, and its Cancel button cancels
    it (docs/analysis.md "Jobs")."""
    long_record = RECORD.parent.parent / "batallion" / "selfplay-01-3p.json"
    game = Game(server, server.ok("POST", "/api/v1/records", json.loads(long_record.read_text())))
    busy = [server.call("POST", f"/api/v1/games/{game.id}/analysis", {"seat": s, "samples": 1000, "seed": "busy"},
                        token=game.referee) for s in (1, 2)]
    assert [status for status, _ in busy] == [202, 202]
    busy = [job for _, job in busy]
    try:
        page = people.page(f"/games/{game.id}/replay", width=1280, height=900)  # a spectator: no link held
        expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
        page.select_option("#analysis-seat", "0")
        page.fill("#analysis-samples", "1000")
        page.locator("#analysis-start").click()
        expect(page.locator("#analysis")).to_have_attribute("data-state", "queued", timeout=20_000)
        expect(page.locator("#analysis-status")).to_contain_text("in the queue")
        expect(page.locator("#analysis-status")).to_contain_text("done in about")
        page.locator("#analysis-cancel").click()
        expect(page.locator("#analysis")).to_have_attribute("data-state", "cancelled", timeout=20_000)
        expect(page.locator("#analysis-status")).to_contain_text("was cancelled")
        expect(page.locator("#analysis-cancel")).to_be_hidden()
    finally:
        for job in busy:
            server.call("DELETE", f"/api/v1/games/{game.id}/analysis/{job['id']}", token=game.referee)
