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


def test_the_lobby_offers_a_seat_row_for_each_seat_the_picked_game_can_have(people, server):
    """Not 8 rows for a 2-player game: the picked game's most seats (its spec), the fewest of them required; the rows
    follow the game picked."""
    from domain.games import SPECS

    page = people.page("/", width=390, height=844)
    for game in ("small-battle", "el-royale", "batallion", "four-virtues"):
        page.select_option("select[name=game]", game)
        rows = page.locator(".player-row").evaluate_all("rows => rows.filter(r => r.offsetParent).length")
        required = page.locator(".player-row input[name=name][required]").count()
        assert (rows, required) == (SPECS[game].max_players, SPECS[game].min_players), game


WORDS_BROKEN = """sel => [...document.querySelectorAll(sel)].flatMap(cell => {
  const out = [], walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange(); range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(m[0]);
    }
  }
  return out;
})"""


def test_the_lobby_on_a_phone_names_each_game_by_its_title_and_breaks_no_word(people, server):
    """At 390 px the games list read "in progre/ss", "wat/ch" and "el-royale · revised"."""
    server.ok("POST", "/api/v1/games", {"game": "el-royale", "options": {"edition": "revised"},
                                         "players": [{"name": "Annabelle-Marie"}, {"name": "Bartholomew"}, {"name": "Cy"}]})
    server.ok("POST", "/api/v1/games", {"game": "four-virtues", "players": [{"name": "Ann"}, {"name": "Bob"}]})
    page = people.page("/", width=390, height=844)
    names = page.locator("#games td.game-name").all_inner_texts()
    assert any(n.startswith("El Royale") for n in names) and any(n.startswith("The Four Virtues") for n in names), names
    assert not any(n.startswith(("el-royale", "four-virtues")) for n in names), names
    broken = page.evaluate(WORDS_BROKEN, "#games td")
    assert not broken, broken
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
