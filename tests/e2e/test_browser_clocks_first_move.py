"""Clocks that wait for the game's first move, in Chromium (docs/clocks.md `start`): the table says so and no clock
runs on in the page (clocks.js) while Small Battle's two seats set their formations; Ann's formation starts Bob's
clock alone, live, and hers never ran."""

from __future__ import annotations

import re
import time

from tests.e2e.test_browser import chromium, people, server, wait_for_version  # noqa: F401 (fixtures)
from tests.e2e.test_browser_clocks import expect, seconds


def test_waiting_clocks_stand_still_in_the_page_until_the_first_formation_then_only_the_other_seat_s_runs(people, server):
    doc = server.ok("POST", "/api/v1/games", {"game": "small-battle", "options": {}, "seed": "5b5b", "starter": 0,
                                               "players": [{"name": "Ann"}, {"name": "Bob"}],
                                               "time_control": {"start": "first_move", "game_seconds": 600}})
    gid, tokens, referee = doc["id"], [s["token"] for s in doc["seats"]], doc["referee_token"]
    pages = []
    for seat in (0, 1):
        page = people.page(f"/join/{gid}/{tokens[seat]}")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        pages.append(page)
    bob = pages[1]
    expect(bob.locator("#clocks-waiting")).to_contain_text("wait for the first move")
    expect(bob.locator("#clocks .clock.running")).to_have_count(0)
    expect(bob.locator("#turn")).to_contain_text("Your turn (with Ann)")
    time.sleep(1.6)
    assert [seconds(t) for t in bob.locator("#clocks .clock .used").all_inner_texts()] == [0, 0]
    assert [seconds(t) for t in bob.locator("#clocks .clock .left").all_inner_texts()] == [600, 600]

    pages[0].locator("#controls button.act-arrange").click()  # Ann's formation: the game's first move
    wait_for_version(bob, server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)["version"])
    expect(bob.locator("#clocks-waiting")).to_have_count(0)
    running = bob.locator("#clocks .clock.running")
    expect(running).to_have_count(1)
    expect(running).to_have_attribute("data-seat", "1")
    # the page ticks once a second; a loaded machine may delay a tick, so the clock is given 10 s to pass 2 s (a
    # clock standing still never does)
    deadline = time.monotonic() + 10
    while seconds(running.locator(".used").inner_text()) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert seconds(running.locator(".used").inner_text()) >= 2, "Bob's clock runs on in the page"
    assert seconds(bob.locator("#clocks .clock[data-seat='0'] .used").inner_text()) == 0, "Ann's wait was not counted"
