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
    page.uncheck("input[name=auto_rounds]")  # the director starts each round here
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
        if number < 3:  # the round reads over, not still being played, beside the button that starts the next
            expect(page.locator("#status")).to_have_text(f"round {number} over: round {number + 1} not started yet")

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


def _width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def _seat_bots(server, tid: str, token: str, number: int) -> None:
    for g in server.ok("GET", f"/api/v1/tournaments/{tid}/links", token=token)["games"]:
        if g["round"] == number:
            for seat in g["seats"]:
                server.ok("POST", f"/api/v1/games/{g['game_id']}/bot", {"bot": "heuristic"}, token=seat["token"])


def test_the_directors_page_on_a_phone_form_without_json_next_round_by_itself_crosstable_and_print(people, server):
    """At 390 px: /tournaments is linked from the header, the lobby and the desk; the form shows the picked game's
    own options (no JSON) and is not wider than the screen; a round-robin of three whose round 1 ends starts round 2
    by itself (no "Start round 2" beside a round still said to be playing); the page shows a crosstable, who is to
    act at each table, stays within the screen, and prints only this round's pairings and the standings."""
    from playwright.sync_api import expect

    phone = people.page("/", width=390, height=844)
    expect(phone.locator("#lobby-tournaments")).to_have_attribute("href", "/tournaments")
    phone.goto("/desk")
    expect(phone.locator("#desk-tournaments")).to_have_attribute("href", "/tournaments")
    phone.locator("header.top a.tournaments-link").click()
    phone.wait_for_url(re.compile(r"/tournaments$"))
    assert _width(phone) <= 390
    expect(phone.locator("input[name=options]")).to_have_count(0)
    phone.select_option("select[name=game]", "four-virtues")
    expect(phone.locator("fieldset.options[data-game='four-virtues']")).to_be_visible()
    expect(phone.locator("fieldset.options[data-game='el-royale']")).to_be_hidden()
    phone.fill("input[name='four-virtues.target']", "150")
    phone.fill("textarea[name=players]", "Ann\nBob")
    phone.click("#new-tournament button[type=submit]")
    phone.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]+\?created=1$"))
    tid = re.search(r"/tournaments/([0-9a-f-]+)", phone.url).group(1)
    assert server.ok("GET", f"/api/v1/tournaments/{tid}")["options"] == {"target": 150}

    phone.goto("/tournaments")
    phone.select_option("select[name=game]", "small-battle")
    phone.select_option("select[name=format]", "round-robin")
    phone.fill("input[name=name]", "Phone club")
    phone.fill("textarea[name=players]", "Ann\nBob\nCy")
    expect(phone.locator("input[name=auto_rounds]")).to_be_checked()
    phone.click("#new-tournament button[type=submit]")
    phone.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]+\?created=1$"))
    link = phone.locator("#director-link code").inner_text()
    tid, token = re.search(r"/tournaments/([0-9a-f-]+)/director/(\S+)$", link).groups()
    phone.click("#start-round button")
    expect(phone.locator(".round[data-round='1'] tr.game")).to_have_count(1)
    expect(phone.locator(".round[data-round='1'] .to-act")).to_contain_text("to act:")
    _seat_bots(server, tid, token, 1)
    _wait_round_over(server, tid, 1)
    phone.reload()
    expect(phone.locator(".round[data-round='2'] tr.game")).to_have_count(1)  # round 2 started by itself
    expect(phone.locator("#status")).to_have_text("playing")
    expect(phone.locator("#start-round")).to_have_count(0)
    second = next(g for g in server.ok("GET", f"/api/v1/tournaments/{tid}/links", token=token)["games"] if g["round"] == 2)
    seat = second["seats"][0]["token"]
    status, refused = server.call("POST", f"/api/v1/games/{second['game_id']}/moves", {"type": "strike", "position": 99},
                                  token=seat)
    assert status == 422 and refused.get("attempt"), refused
    server.ok("POST", f"/api/v1/games/{second['game_id']}/disputes", {"attempt": refused["attempt"], "claim": "why?"},
              token=seat)
    phone.reload()
    expect(phone.locator("#room")).to_contain_text("Round 2: 1 of 1 game being played")
    expect(phone.locator("#room a.disputed-table")).to_have_text("table 1")
    expect(phone.locator(".round[data-round='2'] .disputes-open")).to_have_text("1 open dispute")
    cells = phone.locator("#crosstable td.result")
    expect(cells).not_to_have_count(0)
    assert sorted(cells.all_inner_texts()).count("·") == 2  # round 2's game, from both sides
    assert _width(phone) <= 390, _width(phone)
    # no sideways scroll inside a table either
    for table in ("#standings-table", "#crosstable table", ".round[data-round='2'] table.tables"):
        box = phone.locator(table).evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert box[0] <= box[1], (table, box)
    shot(phone, "tournament-phone")

    phone.emulate_media(media="print")
    expect(phone.locator("header.top")).to_be_hidden()
    expect(phone.locator("#start-round, .director").first).to_be_hidden()
    expect(phone.locator("#standings")).to_be_visible()
    expect(phone.locator("#room[data-round='2'] table.tables")).to_be_visible()  # this round's pairings
    expect(phone.locator(".round[data-round='1'] table.tables")).to_be_hidden()  # not every earlier round's
    expect(phone.locator("#crosstable")).to_be_hidden()
    phone.set_viewport_size({"width": 800, "height": 1100})
    shot(phone, "tournament-print")
