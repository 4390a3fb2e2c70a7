"""Small Battle in real browsers: two seats set their formations in the editor and strike; the spectator sees the
drawn card and the revealed values only, never a face-down card."""

from __future__ import annotations

import re

from tests.e2e.test_browser import chromium, people, server, shot, wait_for_version  # noqa: F401 (fixtures)


def test_two_seats_arrange_and_strike_in_browsers_and_the_spectator_sees_no_face_down_card(people, server):
    from playwright.sync_api import expect

    doc = server.ok("POST", "/api/v1/games", {"game": "small-battle", "options": {}, "seed": "5b5b", "starter": 0,
                                               "players": [{"name": "Ann"}, {"name": "Bob"}]})
    gid, tokens, referee = doc["id"], [s["token"] for s in doc["seats"]], doc["referee_token"]
    pages = []
    for seat in (0, 1):
        page = people.page(f"/join/{gid}/{tokens[seat]}")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        pages.append(page)
    watcher = people.page(f"/games/{gid}")

    # Ann sets 9..2 with the editor (position p gets rank 9 - p); Bob keeps the editor's 2..9
    for p in range(8):
        pages[0].locator("#formation-editor select").nth(p).select_option(str(9 - p))
    pages[0].locator("#controls button.act-arrange").click()
    expect(pages[0].locator(".battlefield[data-seat='0'] .formation li").first).to_contain_text("9")
    wait_for_version(pages[1], server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)["version"])
    pages[1].locator("#controls button.act-arrange").click()
    expect(pages[1].locator(".battlefield[data-seat='1'] .formation li").first).to_contain_text("2")
    view = server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)
    wait_for_version(watcher, view["version"])
    expect(watcher.locator("#drawn .card")).to_have_count(1)

    for _ in range(4):  # Ann strikes while it is her turn, then Bob
        view = server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)
        if view["status"] == "finished":
            break
        striker = pages[view["table"]["to_act"]]
        wait_for_version(striker, view["version"])
        striker.locator("#controls button.act-strike").first.click()
        striker.wait_for_function("v => Number(document.querySelector('#panel .version').textContent) > v",
                                  arg=view["version"])  # answered
        wait_for_version(watcher, server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)["version"])
        view = server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)
        shown = set(watcher.locator("#panel .card").evaluate_all("els => els.map(c => c.getAttribute('aria-label'))"))
        for b in view["table"]["battlefields"]:
            for p in b["positions"]:
                if not p["revealed"]:
                    suit = "clubs" if b["seat"] == 0 else "spades"
                    assert f"{p['rank']} of {suit}" not in shown, f"the spectator sees the face-down {p['card']}"
    shot(watcher, "small-battle-spectator")
    shot(pages[0], "small-battle-seat")
