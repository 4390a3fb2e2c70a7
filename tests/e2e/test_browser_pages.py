"""The generic pages in Chromium: the links page of a new game, several identities in one browser, error pages,
the audit as a seat sees it, refusals and rulings in the audit and the replay, names, and a phone's width.

Games are El Royale's worked example 4 (stacked through the API; seats P0..P3, teams A = 0, 2 and B = 1, 3), as in
tests/e2e/test_browser.py, whose server, browser and helpers this module shares.
"""

from __future__ import annotations

import re
import urllib.request

import pytest

from tests.e2e.test_browser import (EX4_MOVES, card_names, chromium, people, play, server, shot, spoken,  # noqa: F401
                                    wait_for_version)


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def cards_on(page) -> set[str]:
    """Every card the page shows by name: drawn cards and cards written inside narration."""
    inline = page.locator("main .card-inline").evaluate_all("els => els.map(e => e.getAttribute('title'))")
    return set(card_names(page, "main")) | set(inline)


def catalogue_size(server) -> int:
    return len(server.ok("GET", "/api/v1/games?limit=200"))


def lobby_create(page, names, teams=None) -> None:
    for i, name in enumerate(names):
        page.locator("input[name=name]").nth(i).fill(name)
        if teams:
            page.locator("input[name=team]").nth(i).fill(teams[i])
    page.locator("form.create button[type=submit]").click()


# -- the created game's links: an address of their own ------------------------------------------------------------------


def test_creating_from_the_lobby_leads_to_a_links_page_of_its_own_that_a_reload_shows_again_without_a_second_game(
        people, server):
    """POST/redirect/GET: the lobby's form lands on /games/{id}/links; reloading it shows the same links and creates
    nothing; the page opens in the creating (referee's) browser only: a seat's browser gets an error page there."""
    page = people.page("/")
    lobby_create(page, ["Ann", "Bob", "Cy"])
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]+/links$"))
    expect(page.locator("h1")).to_have_text("Game created")
    links = [a.get_attribute("href") for a in page.locator("a.seat-link").all()] + \
        [page.locator("a.referee-link").get_attribute("href")]
    assert len(links) == 4
    count = catalogue_size(server)
    page.reload()
    expect(page.locator("h1")).to_have_text("Game created")
    assert [a.get_attribute("href") for a in page.locator("a.seat-link").all()] + \
        [page.locator("a.referee-link").get_attribute("href")] == links
    assert catalogue_size(server) == count, "a reload created another game"
    links_url = page.url

    bob = people.page(links[1])
    expect(bob.locator(".who")).to_contain_text("You are Bob")
    answer = bob.goto(links_url)
    assert answer.status == 403 and answer.headers["content-type"].startswith("text/html")
    assert bob.locator("a.seat-link").count() == 0 and bob.locator("a.referee-link").count() == 0
    expect(bob.locator("[role=alert]")).to_contain_text("referee")

    referee_elsewhere = people.page(links[3])  # the referee's link in another browser opens the links again
    referee_elsewhere.goto(links_url)
    assert [a.get_attribute("href") for a in referee_elsewhere.locator("a.seat-link").all()] == links[:3]


# -- errors in the browser ---------------------------------------------------------------------------------------------------


def test_a_refused_creation_shows_its_reason_on_the_lobby_and_keeps_every_field_entered(people, server):
    """One player is too few (ER-1.1): the lobby comes back with the message, the name, the chosen game, and the
    game's own options (the edition and the battle limit) as they were entered."""
    page = people.page("/")
    page.locator("select[name=game]").select_option("el-royale")
    page.locator("select[name='el-royale.edition']").select_option("classic")
    page.locator("input[name='el-royale.battle_limit']").fill("7")
    page.locator("input[name=name]").nth(0).fill("Ann")
    page.locator("input[name=team]").nth(0).fill("red")
    page.locator("input[name=name]").nth(1).evaluate("el => el.removeAttribute('required')")
    page.locator("form.create button[type=submit]").click()
    expect(page.locator("#error")).to_contain_text("ER-1.1")
    # the game's own fields are put back by lobby.js (a deferred script): wait for it, as a person would see it
    expect(page.locator("input[name=name]").nth(0)).to_have_value("Ann")
    expect(page.locator("input[name=team]").nth(0)).to_have_value("red")
    expect(page.locator("select[name=game]")).to_have_value("el-royale")
    expect(page.locator("select[name='el-royale.edition']")).to_have_value("classic")
    expect(page.locator("input[name='el-royale.battle_limit']")).to_have_value("7")
    assert "problem+json" not in page.content()


@pytest.mark.parametrize("path, status, back", [
    ("/games/{id}/replay?version=abc", 400, "table"),  # a malformed version
    ("/games/{id}?as=3", 403, "table"),  # an identity this browser does not hold
    ("/games/00000000-0000-0000-0000-000000000000", 404, "lobby"),  # no such game
    ("/no/such/page", 404, "lobby"),
])
def test_an_error_in_the_browser_is_an_html_page_with_its_message_and_a_way_back(people, server, path, status, back):
    game = server.create_stacked()
    page = people.page("/")
    answer = page.goto(path.replace("{id}", game.id))
    assert answer.status == status
    assert answer.headers["content-type"].startswith("text/html"), answer.headers["content-type"]
    expect(page.locator("h1")).not_to_be_empty()
    expect(page.locator("[role=alert]")).not_to_be_empty()
    assert "Traceback" not in page.content() and '"status":' not in page.content()
    link = page.locator(f"#back-to-{back}")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_load_state()
    assert page.locator("[role=alert]").count() == 0 or back == "lobby"


def test_favicon_ico_is_an_icon_not_a_404(server):
    with urllib.request.urlopen(server.base + "/favicon.ico", timeout=5) as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("image/svg+xml")


# -- the audit page for a seat ---------------------------------------------------------------------------------------------


def test_a_seat_following_the_audit_link_sees_the_log_as_it_may_see_it_and_no_card_it_may_not_see(people, server):
    """While the game runs, seat 1 clicks Audit: no Forbidden, the chain's status and the log as seat 1 may see it,
    said to be partial; every card on the page is seat 1's own, on the table, or shown to all."""
    game = server.create_stacked()
    for seat, kind, cards in EX4_MOVES[:3]:
        game.move(seat, kind, cards)
    refuse(game, 0, "throw_in", ["2C"])  # a refused attempt: the referee's only while the game runs
    seat1 = people.table(game, 1)
    seat1.locator("nav.game-nav a", has_text="Audit").click()
    seat1.wait_for_url(re.compile(rf"/games/{game.id}/audit$"))
    expect(seat1.locator("h1")).to_have_text("Audit")
    expect(seat1.locator("#chain-status")).to_contain_text("verified")
    expect(seat1.locator("#partial-audit")).to_be_visible()
    assert seat1.locator("table.audit-log tr.entry").count() > 0
    view = game.referee_view()
    allowed = set(view["table"]["seats"][1]["hand"]) | set(view["table"]["battle_pile"]) | {"8H", "8S"}
    shown = cards_on(seat1)
    assert shown <= {spoken(c) for c in allowed}, shown - {spoken(c) for c in allowed}
    assert seat1.locator("tr.type-move_rejected").count() == 0

    spectator = people.page(f"/games/{game.id}/audit")
    expect(spectator.locator("#partial-audit")).to_be_visible()
    public = {spoken(c) for c in set(view["table"]["battle_pile"]) | {"8H", "8S"}}
    assert cards_on(spectator) <= public, cards_on(spectator) - public


# -- several identities in one browser -------------------------------------------------------------------------------------


def test_one_browser_holds_the_referee_and_two_seats_and_its_two_tabs_play_the_two_seats(people, server):
    """A referee tries out seats 0 and 2 in one browser: each join adds an identity; tab A acts as seat 0 and tab B as
    seat 2 side by side (live updates keep each tab's seat); the switcher lists them and switches."""
    game = server.create_stacked()
    referee = people.page(game.join_url())
    context = referee.context
    tab_a = context.new_page()
    tab_a.goto(game.join_url(0))
    expect(tab_a.locator(".who")).to_contain_text("You are P0")
    tab_b = context.new_page()
    tab_b.goto(game.join_url(2))
    expect(tab_b.locator(".who")).to_contain_text("You are P2")
    tab_a.wait_for_timeout(300)

    play(tab_a, "attack", ["8H"])  # tab A still acts as seat 0, although seat 2 joined last
    wait_for_version(tab_b, game.version())
    expect(tab_a.locator(".who")).to_contain_text("You are P0")
    expect(tab_b.locator("#turn")).to_have_class(re.compile(r"\bmine\b"))
    play(tab_b, "throw_in", ["8S"])
    assert game.referee_view()["table"]["battle_pile"] == ["8H", "8S"]
    wait_for_version(tab_a, game.version())
    expect(tab_a.locator(".who")).to_contain_text("You are P0")

    switcher = tab_b.locator("nav.identities a.identity")
    assert {switcher.nth(i).get_attribute("data-as") for i in range(switcher.count())} == {"0", "2", "referee", "spectator"}
    tab_b.locator("nav.identities a[data-as=referee]").click()
    expect(tab_b.locator(".who")).to_contain_text("Referee")
    tab_b.locator("nav.identities a[data-as=spectator]").click()
    expect(tab_b.locator(".who")).to_contain_text("Spectator")


# -- refusals, rulings and rewinds in the audit and the replay --------------------------------------------------------------


def refuse(game, seat: int, kind: str, cards) -> dict:
    status, problem = game.server.call("POST", f"/api/v1/games/{game.id}/moves", {"type": kind, "cards": list(cards)},
                                       game.tokens[seat])
    assert status == 422, problem
    return problem


def test_a_refused_move_shows_in_the_audit_with_its_move_cards_clause_and_reason_and_in_the_replay_at_its_version(
        people, server):
    """The referee's audit row of a refused attempt names the attempted move and its card, the clause and the reason
    (no stray ':'); the replay at that version shows the refusal with its reason."""
    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    problem = refuse(game, 2, "throw_in", ["KC"])
    version = game.version()
    referee = people.page(game.join_url())
    referee.goto(f"/games/{game.id}/audit")
    row = referee.locator("tr.type-move_rejected")
    expect(row).to_have_count(1)
    assert card_names(referee, "tr.type-move_rejected") == [spoken("KC")]
    expect(row.locator("td.clause-cell .clause")).to_have_text(problem["rule"])
    expect(row).to_contain_text(problem["detail"])
    expect(row).to_contain_text("throw in")
    expect(row).to_contain_text("P2")
    assert not re.search(r"(^|\s):\s", row.locator("td").last.inner_text()), row.locator("td").last.inner_text()

    referee.goto(f"/games/{game.id}/replay?version={version}")
    refusal = referee.locator(".refusal")
    expect(refusal).to_contain_text(problem["detail"])
    expect(refusal.locator(".clause")).to_have_text(problem["rule"])
    shot(referee, "replay-refusal")


def test_a_seat_disputes_the_refusal_of_its_own_move_from_the_table_and_the_referee_rules_with_a_note(people, server):
    """Seat 2's throw-in of KC is refused; the form beside the error files a dispute of that refusal; the disputes
    page shows it with its time; the referee's ruling note shows on the disputes page and in the audit."""
    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    seat2 = people.table(game, 2)
    wait_for_version(seat2, game.version())
    seat2.locator('#hand label.card.pick:has(input[value="KC"])').click()
    seat2.locator("#controls button.act-throw_in").click()
    expect(seat2.locator("#error .clause")).to_be_visible()
    form = seat2.locator("form.dispute-refusal")
    form.locator("input[name=claim]").fill("a king may join an eight")
    form.locator("button[type=submit]").click()
    seat2.wait_for_url(re.compile(rf"/games/{game.id}/disputes$"))
    row = seat2.locator("tr.dispute[data-number='1']")
    expect(row).to_contain_text("refusal of your attempt 1")
    expect(row).to_contain_text("a king may join an eight")
    expect(row.locator("time")).to_have_count(1)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$", row.locator("time").inner_text())

    referee = people.page(game.join_url())
    referee.goto(f"/games/{game.id}/disputes")
    ruling = referee.locator("tr.dispute[data-number='1'] form.ruling")
    ruling.locator("select[name=decision]").select_option("rejected")
    ruling.locator("input[name=note]").fill("ER-3.7: a throw-in matches a rank on the pile")
    ruling.locator("button[type=submit]").click()
    referee.wait_for_url(re.compile(rf"/games/{game.id}/disputes$"))
    expect(referee.locator("tr.dispute[data-number='1']")).to_contain_text("matches a rank on the pile")
    referee.goto(f"/games/{game.id}/audit")
    expect(referee.locator("tr.type-dispute_ruled")).to_contain_text("ER-3.7: a throw-in matches a rank on the pile")
    expect(referee.locator("tr.type-dispute_filed")).to_contain_text("refusal of attempt 1")


def test_the_rewind_row_of_the_audit_is_not_struck_through_but_the_moves_it_undid_are(people, server):
    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    disputed = game.move(2, "throw_in", ["8S"])
    server.ok("POST", f"/api/v1/games/{game.id}/disputes", {"version": disputed, "claim": "too early"}, game.tokens[1])
    server.ok("POST", f"/api/v1/games/{game.id}/disputes/1/ruling", {"decision": "upheld", "remedy": "rewind", "note": "n"},
              game.referee)
    referee = people.page(game.join_url())
    referee.goto(f"/games/{game.id}/audit")
    style = "el => getComputedStyle(el).textDecorationLine"
    rewind = referee.locator("tr.type-rewound td").first
    assert rewind.evaluate(style) == "none"
    undone = referee.locator(f"tr.entry[data-version='{disputed}'] td").first
    assert undone.evaluate(style) == "line-through"


# -- names, not seat numbers -----------------------------------------------------------------------------------------------


def test_players_are_named_in_the_audit_the_replay_and_the_lobby_never_shown_as_seat_numbers(people, server):
    game = server.create_stacked()
    for seat, kind, cards in EX4_MOVES:
        game.move(seat, kind, cards)
    page = people.page(f"/games/{game.id}/audit")  # the game is over: anyone's
    who = page.locator("table.audit-log tr.entry td:nth-child(3)").all_inner_texts()
    assert "P0" in who and "P2" in who
    assert not any(re.search(r"seat[: ]\d", w) for w in who), who
    assert "seat:" not in page.locator("ul.ledger").inner_text()
    page.goto(f"/games/{game.id}/replay?version={game.version() - 1}")
    assert "seat:" not in page.locator(".event").first.inner_text()
    page.goto("/")
    row = page.locator("table.catalogue tr", has=page.locator(f"a[href='/games/{game.id}']"))
    expect(row).to_contain_text("P0, P2 (team A)")
    assert not re.search(r"seat \d", row.inner_text())


def test_a_seat_gives_its_name_at_the_table_and_the_other_tables_show_it_live(people, server):
    """Seat 1 (P1) renames itself Boreas from its table; seat 0's open table shows Boreas without a reload."""
    game = server.create_stacked()
    other = people.table(game, 0)
    other.wait_for_timeout(500)  # let its live stream connect
    seat1 = people.table(game, 1)
    seat1.locator("#rename summary").click()
    seat1.locator("#rename input[name=name]").fill("Boreas")
    seat1.locator("#rename button[type=submit]").click()
    expect(seat1.locator(".who")).to_contain_text("You are Boreas")
    wait_for_version(other, game.version())
    expect(other.locator(".seat-list li[data-seat='1'] .name")).to_contain_text("Boreas")
    assert other.evaluate("window.__loadedOnce === true")


# -- a phone's width ---------------------------------------------------------------------------------------------------------


def test_at_390_px_every_column_of_the_lobby_disputes_and_audit_tables_is_shown_and_the_page_does_not_scroll_sideways(
        people, server):
    game = server.create_stacked()
    attacked = game.move(0, "attack", ["8H"])
    server.ok("POST", f"/api/v1/games/{game.id}/disputes", {"version": attacked, "claim": "too soon"}, game.tokens[1])
    phone = people.page(game.join_url(), width=390, height=844)  # the referee: the full audit
    for path, table in [("/", "table.catalogue"), (f"/games/{game.id}/disputes", "table.disputes"),
                        (f"/games/{game.id}/audit", "table.audit-log")]:
        phone.goto(path)
        headers = phone.locator(f"{table} th")
        assert headers.count() >= 5
        if phone.locator(f"{table}.stack").count():  # one block per row on a phone: every cell shown with its column's name
            names = headers.evaluate_all("els => els.map(e => e.textContent.trim())")
            cells = phone.locator(f"{table} tbody tr").first.locator("td")
            assert cells.evaluate_all("els => els.map(e => e.dataset.label)") == names
            for i in range(cells.count()):
                expect(cells.nth(i)).to_be_visible()
        else:
            for i in range(headers.count()):
                expect(headers.nth(i)).to_be_visible()
        widths = phone.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= 390 + 1, (path, widths)
    shot(phone, "audit-phone")
