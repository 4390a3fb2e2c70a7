"""A tournament that cannot start, in a real browser: a Batallion round-robin is refused on the creation form with
its reason; a Batallion Swiss of two players shows why round 1 cannot start on the tournament's own page (not a bare
error page), and its director edits the settings there, then deletes it."""

from __future__ import annotations

import re

from tests.e2e.test_browser import chromium, people, server, shot  # noqa: F401 (fixtures)


def _create(page, name: str, fmt: str, players: str) -> None:
    page.goto(page.url.split("/tournaments")[0] + "/tournaments")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", "batallion")
    page.select_option("select[name=format]", fmt)
    page.fill("textarea[name=players]", players)
    page.click("#new-tournament button[type=submit]")


def test_a_tournament_that_cannot_start_says_why_on_its_page_and_its_director_edits_or_deletes_it(people, server):
    from playwright.sync_api import expect

    page = people.page("/tournaments")
    _create(page, "Batallion evening", "round-robin", "Ann\nBob\nCy")
    expect(page.locator("#error")).to_contain_text("BA-1.1")  # refused at creation, with the reason
    expect(page.locator("#error")).to_contain_text("use swiss")

    _create(page, "Batallion evening", "swiss", "Ann\nBob")
    page.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]+\?created=1$"))
    tid = re.search(r"/tournaments/([0-9a-f-]+)", page.url).group(1)
    link = page.locator("#director-link code").inner_text()
    phone = people.page(re.search(r"(/tournaments/\S+)$", link).group(1), width=390, height=844)
    phone.locator("#tournament-setup summary").click()  # the director's settings fit a phone
    expect(phone.locator("#edit-tournament button")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#start-round button")
    expect(page.locator("#director-error")).to_contain_text("at least 3 players")  # on the tournament's page
    expect(page.locator("#status")).to_have_text("entering")
    expect(page.locator("#tournament-setup")).to_have_attribute("open", "")
    shot(page, "tournament-cannot-start")

    page.fill("#edit-tournament input[name=name]", "Small Battle evening")
    page.fill("#edit-tournament input[name=rounds]", "2")
    page.click("#edit-tournament button")
    expect(page.locator("h1")).to_have_text("Small Battle evening")
    assert server.ok("GET", f"/api/v1/tournaments/{tid}")["rounds_given"] == 2
    expect(page.locator("#edit-tournament input[name=rounds]")).to_have_value("2")

    page.locator("#tournament-setup summary").click()
    page.click("#delete-tournament button")  # the box is not ticked: the browser keeps the form
    expect(page.locator("#delete-tournament")).to_be_visible()
    page.check("#delete-tournament input[name=confirm]")
    page.click("#delete-tournament button")
    page.wait_for_url(re.compile(r"/tournaments\?deleted=1$"))
    expect(page.locator("#deleted")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Small Battle evening")
    assert server.call("GET", f"/api/v1/tournaments/{tid}")[0] == 404
