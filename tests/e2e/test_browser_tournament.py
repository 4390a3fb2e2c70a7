"""A small tournament in a real browser: the director creates it on the page, enters a player, starts each round;
bots play the games (seated through the API with the seat links the director holds); the page ends with the final
standings, and every game's table, replay and audit are a click away."""

from __future__ import annotations

import re
import time

from tests.e2e.test_browser import chromium, people, server, shot  # noqa: F401 (fixtures)


def _wait_round_over(server, tid: str, number: int, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t = server.ok("GET", f"/api/v1/tournaments/{tid}")
        r = t["rounds"][number - 1]
        games = [g for table in r["tables"] for g in table["games"]]
        if games and all(g["status"] == "finished" for g in games):
            return t
        time.sleep(0.5)
    raise AssertionError(f"round {number} did not end")


def test_a_round_robin_from_creation_to_final_standings_in_the_browser(people, server):
    from playwright.sync_api import expect

    page = people.page("/tournaments")
    page.fill("input[name=name]", "Friday club")
    page.select_option("select[name=game]", "small-battle")
    page.select_option("select[name=format]", "round-robin")
    page.fill("textarea[name=players]", "Ann\nBob\nCy")
    page.click("#new-tournament button[type=submit]")
    page.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]+\?created=1$"))
    link = page.locator("#director-link code").inner_text()
    tid, token = re.search(r"/tournaments/([0-9a-f-]+)/director/(\S+)$", link).groups()
    expect(page.locator("#status")).to_have_text("entering")

    page.fill("#enter-player input[name=name]", "Di")
    page.click("#enter-player button")
    expect(page.locator("#players")).to_contain_text("Di")

    spectator = people.page(f"/tournaments/{tid}")
    expect(spectator.locator("#start-round")).to_have_count(0)  # no director controls without the director's link

    for number in (1, 2, 3):
        page.click("#start-round button")
        expect(page.locator(f".round[data-round='{number}'] tr.game")).to_have_count(2)  # two tables in parallel
        links = server.ok("GET", f"/api/v1/tournaments/{tid}/links", token=token)
        for g in links["games"]:
            if g["round"] == number:
                for seat in g["seats"]:
                    server.ok("POST", f"/api/v1/games/{g['game_id']}/bot", {"bot": "heuristic"}, token=seat["token"])
        _wait_round_over(server, tid, number)
        page.reload()

    expect(page.locator("#status")).to_have_text("finished")
    rows = page.locator("#standings tr.standing")
    expect(rows).to_have_count(4)
    played = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(4)]
    points = [float(rows.nth(i).locator("td.points").inner_text()) for i in range(4)]
    assert played == [3, 3, 3, 3] and sum(points) == 6  # everyone met everyone once; one point a game
    api = server.ok("GET", f"/api/v1/tournaments/{tid}/standings")
    assert [r["name"] for r in api["players"]] == [rows.nth(i).locator("td.name").inner_text() for i in range(4)]
    shot(page, "tournament-final-standings")

    spectator.reload()
    spectator.locator("tr.game a", has_text="replay").first.click()
    spectator.wait_for_url(re.compile(r"/games/[0-9a-f-]+/replay"))
    expect(spectator.locator("main")).to_contain_text("Small Battle")
