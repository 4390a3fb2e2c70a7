"""The lobby in a real browser: each game's own options only, the links page's copy buttons and QR codes on a
phone, and open seats: the referee lists a seat, a stranger takes it from the lobby and plays it, and nobody is
handed another seat's link."""

from __future__ import annotations

import re

from tests.e2e.test_browser import chromium, people, server, shot  # noqa: F401 (fixtures)
from tests.e2e.test_browser_pages import expect, lobby_create


def test_the_lobby_shows_only_the_picked_games_options(people, server):
    page = people.page("/")
    for game in ("small-battle", "el-royale", "four-virtues"):
        page.select_option("select[name=game]", game)
        for fieldset in page.locator("fieldset.options[data-game]").all():
            mine = fieldset.get_attribute("data-game") == game
            assert fieldset.is_visible() == mine, (game, fieldset.get_attribute("data-game"))


def test_seat_links_copy_and_scan_on_a_phone_and_an_open_seat_is_taken_once_from_the_lobby(people, server):
    referee = people.page("/", width=390, height=844)
    referee.context.grant_permissions(["clipboard-read", "clipboard-write"])
    referee.select_option("select[name=game]", "small-battle")
    lobby_create(referee, ["Ann", "Guest"])
    referee.wait_for_url(re.compile(r"/games/[0-9a-f-]+/links$"))
    gid = re.search(r"/games/([0-9a-f-]+)/links", referee.url).group(1)
    assert referee.evaluate("() => document.documentElement.scrollWidth") <= 390  # long links wrap
    seat_links = [a.get_attribute("href") for a in referee.locator("a.seat-link").all()]
    guest = referee.locator("li.seat-entry[data-seat='1']")
    guest.locator("button.copy").click()
    expect(guest.locator("button.copy")).to_have_text("Copied")
    assert referee.evaluate("() => navigator.clipboard.readText()") == seat_links[1]
    guest.locator("details.qr-code summary").click()
    expect(guest.locator("details.qr-code svg.qr")).to_be_visible()
    assert guest.locator("svg.qr").bounding_box()["width"] <= 390
    shot(referee, "links-phone")

    stranger = people.page("/")
    expect(stranger.locator("#open-seats li")).to_have_count(0)
    guest.locator(".offer-form button").click()
    expect(referee.locator("li.seat-entry[data-seat='1'] .offered")).to_be_visible()

    stranger.reload()
    offered = stranger.locator(f"#open-seats li[data-game='{gid}']")
    expect(offered).to_have_count(1)
    expect(offered).to_contain_text("Guest")
    html = stranger.content()
    assert not any(link.rsplit(".", 1)[1] in html for link in seat_links), "the lobby shows a seat's token"
    late = people.page("/")  # someone else had the lobby open too
    offered.locator("button").click()
    stranger.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(stranger.locator(".who")).to_contain_text("You are Guest")

    late.locator(f"#open-seats li[data-game='{gid}'] button").click()  # too late: taken
    assert late.locator(".who").count() == 0 or "You are" not in late.locator(".who").inner_text()
    expect(late.locator("[role=alert]")).to_contain_text("not offered")
    late.goto("/")
    expect(late.locator(f"#open-seats li[data-game='{gid}']")).to_have_count(0)
