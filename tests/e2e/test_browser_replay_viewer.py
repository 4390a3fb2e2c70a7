"""The replay viewer in Chromium (issue 27): one page load, then the arrow keys step in the browser (no reload); the
board the browser draws from the positions is the board the server draws, for every game; a permalink opens at its
version; a past position shows no "Your turn" and no running clock; the move list is one line a move, the engine's
steps folded under it; a card's rank and suit never overlap (10♠ must not read 10♣), at 1280 and 390 px.

Finished games are bot games (service.offline.simulation, heuristic bots) imported through POST /api/v1/records, so
everyone may replay them; the running game is El Royale's worked example 4 (tests/e2e/test_browser.py).
"""

from __future__ import annotations

import re

import pytest

from domain.games import DECIDERS
from tests.e2e.test_browser import EX4_MOVES, chromium, people, server, shot  # noqa: F401
from tests.e2e.test_browser_replay import refuse

OPTIONS = {"el-royale": (4, {"edition": "revised"}), "batallion": (4, {"variants": []}),
           "four-virtues": (2, {"target": 100}), "small-battle": (2, {})}


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def imported(server, game: str) -> str:
    from service.offline.simulation import make_plan, run

    players, options = OPTIONS[game]
    doc, = run(make_plan(game, players, 1, ("heuristic",), options, "e2e-viewer"), 1)
    return server.ok("POST", "/api/v1/records", doc)["id"]


def ready(page) -> None:
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")


def shown(page, version: int) -> None:
    expect(page.locator("#replay")).to_have_attribute("data-shown", str(version))


BOARD = """html => { const box = document.createElement('div'); box.innerHTML = html; box.querySelectorAll('style').forEach(s => s.remove());
    return [box.textContent.replace(/\\s+/g, ''), [...box.querySelectorAll('[data-card]')].map(c => c.dataset.card),
            [...box.querySelectorAll('[aria-label]')].map(c => c.getAttribute('aria-label'))]; }"""


@pytest.mark.parametrize("game", sorted(DECIDERS))
def test_the_browser_draws_every_game_s_board_as_the_server_does(people, server, game):
    """The server's board at a version (the page as loaded) and the browser's from the positions, same words, same
    cards, same names for screen readers: the two drawings of a game's look are held alike."""
    if game not in OPTIONS:
        pytest.skip(f"no bot options for {game}")
    gid = imported(server, game)
    latest = server.ok("GET", f"/api/v1/games/{gid}")["version"]
    for version in sorted({latest // 2, latest}):
        page = people.page(f"/games/{gid}/replay?version={version}")
        ready(page)
        by_server = page.evaluate(BOARD, page.locator("#board").inner_html())
        by_browser = page.evaluate(BOARD, page.evaluate(f"window.arbiterReplay.render({version})"))
        assert by_browser == by_server, f"{game} at version {version}"
        assert by_server[1], "no card on the board: nothing compared"
        page.context.close()


def test_arrow_keys_step_in_the_page_and_a_permalink_opens_that_version(people, server):
    gid = imported(server, "el-royale")
    latest = server.ok("GET", f"/api/v1/games/{gid}")["version"]
    page = people.page(f"/games/{gid}/replay?version=5", width=1280, height=800)
    ready(page)
    page.evaluate("window.__loadedOnce = true")  # gone if the page ever reloads
    board_at_5 = page.locator("#board").inner_text()
    page.keyboard.press("ArrowRight")
    shown(page, 6)
    assert page.locator("#version").inner_text() == "6" and page.locator("#board").inner_text() != board_at_5
    page.wait_for_url(re.compile(r"version=6$"))  # the address and the list's highlight follow once painted
    expect(page.locator("#moves li.current")).to_have_attribute("data-version", "6")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    shown(page, 9)
    page.keyboard.press("ArrowLeft")
    shown(page, 8)
    page.keyboard.press("End")
    shown(page, latest)
    expect(page.locator("#result")).to_contain_text("Game over")
    page.keyboard.press("Home")
    shown(page, 1)
    page.locator("#slider").fill(str(latest // 2))
    shown(page, latest // 2)
    assert page.evaluate("window.__loadedOnce") is True, "a step reloaded the page"

    page.keyboard.press("ArrowRight")
    shown(page, latest // 2 + 1)
    target = latest // 2 + 1
    permalink = page.locator("#permalink").get_attribute("href")
    assert permalink.endswith(f"/games/{gid}/replay?version={target}#v{target}")
    page.wait_for_url(re.compile(rf"version={target}$"))
    other = people.page(permalink)
    expect(other.locator("#version")).to_have_text(str(target))
    assert other.locator("#moves li.current").get_attribute("data-version") == str(target)
    assert other.locator("#board").inner_text() == page.locator("#board").inner_text()


def test_a_past_position_shows_no_your_turn_and_no_running_clock(people, server):
    game = server.create_stacked()
    for seat, kind, cards in EX4_MOVES[:3]:
        game.move(seat, kind, cards)
    page = people.page(game.join_url(2))
    page.goto(f"/games/{game.id}/replay?version=2")
    ready(page)
    banners = 0
    for step in range(3):
        turn = page.locator("#turn")
        if turn.count():  # who is to act, named: never "Your turn" in the past
            banners += 1
            expect(turn).not_to_contain_text("Your turn")
            assert "mine" not in (turn.get_attribute("class") or "")
        expect(page.locator("#board .running-mark")).to_have_count(0)
        expect(page.locator("#board .clock.running")).to_have_count(0)
        assert page.locator("#clocks").get_attribute("data-frozen") is not None
        page.keyboard.press("ArrowRight")
        shown(page, 3 + step)
    assert banners, "nobody was to act in any position shown: the banner was not put to the test"
    expect(page.locator("#board .mine h2")).to_have_text("Your hand then")


def test_the_refusals_above_the_board_follow_the_version_shown(people, server):
    """A refused attempt is said above the board at its version (the referee's replay): a step away takes it away, a
    step back brings it back, as the server draws it."""
    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    problem = refuse(game, 2, "throw_in", ["KC"])
    refused_at = game.version()
    seat, kind, cards = EX4_MOVES[1]
    game.move(seat, kind, cards)
    page = people.page(game.join_url(), width=1280, height=800)
    page.goto(f"/games/{game.id}/replay?version={refused_at}")
    ready(page)
    above = page.locator("#replay p.event.refusal")
    expect(above).to_have_count(1)
    by_server = above.inner_html()
    assert problem["detail"] in above.inner_text()
    page.keyboard.press("ArrowRight")
    shown(page, refused_at + 1)
    expect(above).to_have_count(0)
    page.keyboard.press("ArrowLeft")
    shown(page, refused_at)
    expect(above).to_have_count(1)
    assert above.inner_html() == by_server


def test_the_move_list_is_one_line_a_move_with_the_engine_s_steps_folded_under_it(people, server):
    gid = imported(server, "el-royale")
    log = server.ok("GET", f"/api/v1/games/{gid}/events")
    page = people.page(f"/games/{gid}/replay?version=2", width=1280, height=800)
    ready(page)
    # every entry keeps its line and anchor (audit and dispute links); a list this long is drawn in part
    assert page.evaluate("window.arbiterReplay.lines().length") == len(log) > 300
    decisions = sum(1 for e in log if str(e.get("actor") or "").startswith("seat:"))
    unfolded = [line for line in page.evaluate("window.arbiterReplay.lines()") if line[2] is None]
    assert decisions <= len(unfolded) < len(log)
    visible = page.locator("#moves li.move:visible")
    assert 0 < visible.count() <= len(unfolded)
    lines = visible.evaluate_all("""els => els.map(li => [li.className, li.querySelector('a.goto').textContent.replace(/\\s+/g, ' ').trim()])""")
    for classes, words in lines:  # said once: each name once in its line (the narration names who moved)
        if "decision" in classes:
            assert len(re.findall(r"heuristic-\d", words)) <= 1 or "attacks" in words, words
    folded = page.locator("#moves li.decision button.fold").first
    under = folded.locator("xpath=..").get_attribute("data-version")
    hidden = page.locator(f'#moves li.folded[data-under="{under}"]')
    expect(hidden.first).to_be_hidden()
    folded.click()
    expect(hidden.first).to_be_visible()
    assert folded.get_attribute("aria-expanded") == "true"
    dealt = page.locator("#moves li.type-dealt").first  # the version shown opens its group
    page.goto(f"/games/{gid}/replay?version={dealt.get_attribute('data-version')}")
    expect(page.locator("#moves li.type-dealt").first).to_be_visible()
    shot(page, "replay-viewer-move-list")


IN_SIGHT = """id => { const li = document.getElementById(id), box = document.getElementById('move-scroll');
    if (!li) return false; const a = li.getBoundingClientRect(), b = box.getBoundingClientRect();
    return a.height > 0 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1; }"""


def test_a_long_list_draws_only_the_lines_near_its_scroll_and_a_link_to_any_entry_lands_on_it(people, server):
    """A list longer than a few hundred lines is drawn in blocks: those near the list's scroll, never the whole list;
    scrolling, a step to a far version and a link to an entry's anchor draw the block it is in."""
    gid = imported(server, "el-royale")
    log = server.ok("GET", f"/api/v1/games/{gid}/events")
    last = log[-1]["version"]
    page = people.page(f"/games/{gid}/replay?version=2", width=1280, height=800)
    ready(page)
    drawn = page.locator("#moves li.move")
    assert 0 < drawn.count() < len(log) and page.locator(f"#v{last}").count() == 0
    page.locator("#move-scroll").evaluate("box => { box.scrollTop = box.scrollHeight; }")
    expect(page.locator(f"#v{last}")).to_have_count(1)
    expect(page.locator("#v1")).to_have_count(0)  # dropped once far from sight
    assert drawn.count() < len(log)
    page.keyboard.press("Home")
    shown(page, 1)
    expect(page.locator("#v1.current")).to_have_count(1)
    assert page.evaluate(IN_SIGHT, "v1")
    page.keyboard.press("End")
    shown(page, last)
    expect(page.locator(f"#v{last}.current")).to_have_count(1)
    page.wait_for_function(IN_SIGHT, arg=f"v{last}")

    middle = log[len(log) // 2]["version"]
    other = people.page(f"/games/{gid}/replay?version=2#v{middle}")
    ready(other)
    other.wait_for_function(IN_SIGHT, arg=f"v{middle}")
    other.goto(f"/games/{gid}/replay?version={middle}#v{middle}")
    other.wait_for_function(IN_SIGHT, arg=f"v{middle}")
    expect(other.locator(f"#v{middle}.current")).to_have_count(1)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_card_s_rank_and_suit_never_overlap_on_the_board_or_in_the_move_list(people, server, width):
    gid = imported(server, "el-royale")
    page = people.page(f"/games/{gid}/replay?version=40", width=width, height=900)
    ready(page)
    page.locator("#moves li.folded").evaluate_all("els => els.forEach(li => li.classList.add('open'))")
    overlaps = page.evaluate("""() => [...document.querySelectorAll('.card')].filter(c => c.offsetParent).flatMap(c => {
        const r = c.querySelector('.rank'), s = c.querySelector('.suit');
        if (!r || !s) return [];
        const a = r.getBoundingClientRect(), b = s.getBoundingClientRect();
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left), y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        return x > 1 && y > 1 ? [c.dataset.card + ' in ' + (c.closest('#moves') ? 'the list' : 'the board')] : []; })""")
    assert page.locator("#moves .card:visible").count() and page.locator("#board .card:visible").count()
    assert not overlaps, overlaps
    shot(page, f"replay-viewer-{width}")
