"""The table page's clocks in Chromium (through `arbiter serve`, whose watcher flags seats out of time): the
running seat's clock runs on in the page, and a seat that lets its move time run out
is flagged by the server without anyone moving — the page shows the flag and the open entry for the referee."""

from __future__ import annotations

import re
import time

from tests.e2e.test_browser import Game, chromium, people, server  # noqa: F401


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def seconds(text: str) -> int:
    minutes, secs = re.search(r"(\d+):(\d\d)", text).groups()
    return int(minutes) * 60 + int(secs)


def test_the_table_shows_each_seat_s_clock_running_and_the_server_s_flag_when_time_runs_out(people, server):
    game = Game(server, server.ok("POST", "/api/v1/games", {"game": "el-royale", "players": [{"name": "Ann"}, {"name": "Bob"}],
                                                            "time_control": {"move_seconds": 8}}))
    view = game.referee_view()  # 8 s: the page's first reading plus 2.2 s stays within the move on a loaded machine
    mover = view["clock"]["running"][0]
    page = people.table(game)  # a spectator
    clock = page.locator(f"#clocks .clock[data-seat='{mover}']")
    expect(clock).to_have_class(re.compile(r"\brunning\b"))
    first = seconds(clock.locator(".used").inner_text())
    time.sleep(2.2)
    assert seconds(clock.locator(".used").inner_text()) >= first + 2, "the running clock runs on in the page"
    expect(page.locator("#clocks h2")).to_contain_text("0:08 a move")
    expect(clock.locator(".flag")).to_contain_text("out of time", timeout=15000)  # flagged by the server's watcher
    expect(page.locator(".open-disputes")).to_contain_text("1 open dispute")
    disputes = server.ok("GET", f"/api/v1/games/{game.id}")["disputes"]
    assert len(disputes) == 1 and disputes[0]["seat"] == mover and disputes[0]["time_expired"]["control"] == "move"
