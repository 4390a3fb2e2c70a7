"""A finished game is closed, seen from a table page that did not hear the end (issue 38): its move controls and its
name form, used after the game ended elsewhere, show why they were refused, and nothing is stored.

The game is El Royale's worked example 4 (tests/e2e/test_browser.py, whose server, browser and helpers this module
shares): seat 2's throw-in of KC KD KH wins it. Seat 2's table is opened before that move with its live stream cut, so
it still offers the throw-in after the same move was made through the API.
"""

from __future__ import annotations

from tests.e2e.test_browser import EX4_MOVES, chromium, people, pick, server  # noqa: F401


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def stored(game) -> tuple[int, int]:
    """The version and the referee audit's length: what a seat's late move or name would grow."""
    audit = game.server.ok("GET", f"/api/v1/games/{game.id}/audit", token=game.referee)
    return game.version(), len(audit["entries"])


def test_a_table_that_missed_the_end_shows_why_its_move_and_its_new_name_are_refused_and_stores_nothing(people, server):
    game = server.create_stacked()
    *opening, (winner, kind, cards) = EX4_MOVES
    for seat, k, c in opening:
        game.move(seat, k, c)
    page = people.page("/", width=1100)
    page.route("**/live*", lambda route: route.abort())  # this table never hears the end
    page.goto(game.join_url(winner))
    page.locator("#panel").wait_for()
    expect(page.locator("#controls button.act-throw_in")).to_be_visible()

    game.move(winner, kind, cards)  # the same seat wins through the API (another tab, a bot)
    assert game.server.ok("GET", f"/api/v1/games/{game.id}")["status"] == "finished"
    before = stored(game)

    pick(page, cards)
    page.locator("#controls button.act-throw_in").click()
    error = page.locator("#error")
    expect(error.locator(".clause")).to_have_text("ER-4.5")
    expect(page.locator("#result")).to_contain_text("Game over")  # the answer's panel shows the game as it is
    assert stored(game) == before

    page.locator("#rename summary").click()
    page.locator("#rename input[name=name]").fill("Latecomer")
    page.locator("#rename button[type=submit]").click()
    expect(page.locator("body")).to_contain_text("the game is over")
    assert stored(game) == before
