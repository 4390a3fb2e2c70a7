"""One story on every page (issue 35), in Chromium: a refusal has one number for its seat on the table, the disputes
page, the replay and the audit; move texts name players, not seat numbers; a seat's banner lists every ruling since
it last looked; a seat a bot plays says so and the referee can take it back; a rulebook edition hides the other
edition's clauses and a refusal's clause link carries the game's edition.

Games are El Royale's worked example 4 (stacked through the API; seats P0..P3), on tests/e2e/test_browser.py's server
and browser.
"""

from __future__ import annotations

import re

from tests.e2e.test_browser import chromium, people, server, shot, wait_for_version  # noqa: F401


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def refuse(game, seat: int, kind: str, cards) -> dict:
    status, problem = game.server.call("POST", f"/api/v1/games/{game.id}/moves", {"type": kind, "cards": list(cards)},
                                       game.tokens[seat])
    assert status == 422, problem
    return problem


# -- one number for a refusal ------------------------------------------------------------------------------------------


def test_a_seats_third_refusal_is_attempt_3_on_the_table_the_disputes_page_the_replay_and_the_audit(people, server):
    """P2 is refused, then P1, then P2 twice more: P2's last refusal is the game's fourth, P2's third. Every page says
    "attempt 3" of it (and the API's answer gives both numbers); nowhere is it "attempt 4"."""
    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    first = refuse(game, 2, "throw_in", ["KC"])
    assert (first["attempt"], first["seat_attempt"]) == (1, 1)
    refuse(game, 1, "throw_in", ["2D"])
    assert refuse(game, 2, "throw_in", ["KD"])["seat_attempt"] == 2
    refused_at = game.version()
    seat2 = people.table(game, 2)
    wait_for_version(seat2, refused_at)
    seat2.locator('#hand label.card.pick:has(input[value="KH"])').click()
    seat2.locator("#controls button.act-throw_in").click()
    expect(seat2.locator("#error")).to_contain_text("(attempt 3)")
    expect(seat2.locator("#story")).to_contain_text("attempt 3")
    form = seat2.locator("form.dispute-refusal")
    form.locator("input[name=claim]").fill("a king may join")
    form.locator("button[type=submit]").click()
    seat2.wait_for_url(re.compile(rf"/games/{game.id}/disputes$"))
    row = seat2.locator("tr.dispute[data-number='1']")
    expect(row).to_contain_text("refusal of your attempt 3")
    expect(row.locator(".disputed-move")).to_contain_text("refused attempt 3")
    assert server.ok("GET", f"/api/v1/games/{game.id}/view", token=game.referee)["disputes"][0]["attempt"] == 4

    referee = people.page(game.join_url())
    referee.goto(f"/games/{game.id}/disputes")
    row = referee.locator("tr.dispute[data-number='1']")
    expect(row).to_contain_text("refusal of P2's attempt 3")
    expect(row.locator(".disputed-move")).to_contain_text("refused attempt 3")
    referee.goto(f"/games/{game.id}/audit")
    expect(referee.locator("tr.type-dispute_filed")).to_contain_text("refusal of attempt 3")
    refused = referee.locator("tr.type-move_rejected")
    expect(refused).to_have_count(4)
    assert [re.search(r"refused attempt (\d+)", t).group(1) for t in refused.all_inner_texts()] == ["1", "1", "2", "3"]
    referee.goto(f"/games/{game.id}/replay?version={refused_at}")
    expect(referee.locator(".refusal").last).to_contain_text("refused attempt 3")
    expect(referee.locator("li.type-dispute_filed")).to_contain_text("refusal of attempt 3")
    for page in (seat2, referee):
        assert "attempt 4" not in page.locator("main").inner_text()


# -- names, not seat numbers -------------------------------------------------------------------------------------------


def test_a_refused_batallion_attack_names_its_target_by_the_players_name_in_the_audit_and_the_replay(people, server):
    """East attacks North out of turn (the acquisition is on): the referee's audit and replay say "target North",
    never "target 0"."""
    from tests.e2e.test_browser_batallion import Game as Batallion

    game = Batallion(server)
    status, problem = server.call("POST", f"/api/v1/games/{game.id}/moves",
                                  {"type": "attack", "cards": ["9C"], "target": 0}, game.tokens[1])
    assert status == 422, problem
    referee = people.page(f"/join/{game.id}/{game.referee}")
    referee.goto(f"/games/{game.id}/audit")
    row = referee.locator("tr.type-move_rejected")
    expect(row).to_contain_text("attack")
    expect(row).to_contain_text("target North")
    assert "target 0" not in row.inner_text()
    referee.goto(f"/games/{game.id}/replay?version={game.view()['version']}")
    expect(referee.locator(".refusal")).to_contain_text("target North")


# -- a seat's banner: every ruling since it was last at the table -------------------------------------------------------


def test_a_seats_banner_lists_every_ruling_since_it_last_acted_the_earlier_rewind_included(people, server):
    """P3 disputes P2's join; the referee upholds it and rewinds; P2 joins again; P3 disputes the attack and is
    rejected. P1 has not acted since the deal: its banner lists both rulings, the rewind's first, live, without a
    reload. P2 acted after the first: its banner lists only the second."""
    game = server.create_stacked()
    attack = game.move(0, "attack", ["8H"])
    join = game.move(2, "throw_in", ["8S"])
    p1 = people.table(game, 1)
    p2 = people.table(game, 2)
    call = game.server.ok
    call("POST", f"/api/v1/games/{game.id}/disputes", {"version": join, "claim": "P2 joined too early"}, game.tokens[3])
    call("POST", f"/api/v1/games/{game.id}/disputes/1/ruling",
         {"decision": "upheld", "remedy": "rewind", "note": "join again"}, game.referee)
    game.move(2, "throw_in", ["8S"])
    call("POST", f"/api/v1/games/{game.id}/disputes", {"version": attack, "claim": "wrong attacker"}, game.tokens[3])
    call("POST", f"/api/v1/games/{game.id}/disputes/2/ruling", {"decision": "rejected", "remedy": "none", "note": "fine"},
         game.referee)
    wait_for_version(p1, game.version())
    rulings = p1.locator("#rulings-news li")
    expect(rulings).to_have_count(2)
    expect(rulings.nth(0)).to_contain_text(f"went back to version {join - 1}")
    expect(rulings.nth(0)).to_contain_text("join again")
    expect(rulings.nth(1)).to_contain_text("rejected")
    wait_for_version(p2, game.version())
    expect(p2.locator("#rulings-news li")).to_have_count(1)
    expect(p2.locator("#rulings-news li")).to_contain_text("dispute 2")
    assert p1.evaluate("window.__loadedOnce") is True, "the banner came with a reload"
    p1.set_viewport_size({"width": 390, "height": 844})
    shot(p1, "story-banner-390", full_page=False)


# -- bot seats ---------------------------------------------------------------------------------------------------------


def test_a_seat_handed_to_a_bot_says_so_on_the_links_page_and_the_table_and_the_referee_takes_it_back(people, server):
    """The referee lets a bot play Cy's seat from the links page: the links page then says "played by the heuristic
    bot" and offers no second bot for it but a way to take it back; every table says a bot plays Cy; the referee takes
    the seat back from the table, and the links page offers the bot again."""
    from tests.e2e.test_browser_pages import lobby_create

    page = people.page("/")
    lobby_create(page, ["Ann", "Bob", "Cy"])
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]+/links$"))
    game_id = page.url.rsplit("/", 2)[-2]
    cy = page.locator("li.seat-entry[data-seat='2']")
    with page.context.expect_page() as opened:  # the form opens the table in a new tab
        cy.locator("form.bot-form button[type=submit]").click()
    opened.value.wait_for_load_state()
    page.reload()
    cy = page.locator("li.seat-entry[data-seat='2']")
    expect(cy).to_contain_text("played by the heuristic bot")
    expect(cy.locator("form.bot-form")).to_have_count(0)
    expect(page.locator("li.seat-entry[data-seat='1'] form.bot-form")).to_have_count(1)
    expect(cy.locator("form.take-back-form")).to_have_count(1)

    watcher = people.page(f"/games/{game_id}")
    expect(watcher.locator("#bot-seats li[data-seat='2']")).to_contain_text("Cy is played by the heuristic bot")
    expect(watcher.locator("#bot-seats form")).to_have_count(0)
    page.goto(f"/games/{game_id}")
    shot(page, "story-bot-seats", full_page=False)
    page.goto(f"/games/{game_id}")
    page.locator("#bot-seats li[data-seat='2'] form.take-back-form button").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(page.locator("#bot-seats")).to_have_count(0)
    page.goto(f"/games/{game_id}/links")
    expect(page.locator("li.seat-entry[data-seat='2'] form.bot-form")).to_have_count(1)
    expect(page.locator("li.seat-entry[data-seat='2']")).not_to_contain_text("played by")


# -- rulebook editions -------------------------------------------------------------------------------------------------


def test_a_classic_games_refusal_opens_the_classic_rulebook_which_hides_every_revised_only_clause(people, server):
    """A refused throw-in at a classic table: its clause link opens the rulebook's classic edition, where ER-5.1
    ("eliminated immediately") and the whole of ER-6 are hidden and ER-5.3 ("no player is ever eliminated") shows."""
    game = server.create_stacked(edition="classic")
    game.move(0, "attack", ["8H"])
    seat2 = people.table(game, 2)
    wait_for_version(seat2, game.version())
    seat2.locator('#hand label.card.pick:has(input[value="KC"])').click()
    seat2.locator("#controls button.act-throw_in").click()
    link = seat2.locator("#error a.clause")
    expect(link).to_have_attribute("href", re.compile(r"^/rules/el-royale\?edition=classic#ER-"))
    link.click()
    seat2.wait_for_url(re.compile(r"/rules/el-royale\?edition=classic#ER-"))
    expect(seat2.locator("#editions strong[aria-current]")).to_have_text("classic only")
    expect(seat2.locator("li#ER-5\\.3")).to_be_visible()
    expect(seat2.locator("li#ER-5\\.3")).to_contain_text("no player is ever eliminated")
    for hidden in ("li#ER-5\\.1", "li#ER-5\\.2", "h2#ER-6", "li#ER-6\\.2"):
        expect(seat2.locator(hidden)).to_be_hidden()
    expect(seat2.locator("#contents a[href='#ER-6']")).to_have_count(0)
    seat2.locator("#editions a", has_text="revised only").click()
    expect(seat2.locator("li#ER-5\\.1")).to_be_visible()
    expect(seat2.locator("li#ER-5\\.3")).to_be_hidden()
