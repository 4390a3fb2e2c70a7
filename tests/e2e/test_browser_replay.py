"""The replay viewer in Chromium: the move list beside the table, arrow keys and clicks moving the version, the
permalink, an audit row's link landing on its version, refused attempts in the list, and the upload of a legal and
an illegal record (the first illegal move highlighted), at 1280 and 390 px.

Games are El Royale's worked example 4 (stacked through the API, seats P0..P3), as in tests/e2e/test_browser.py, whose
server, browser and helpers this module shares.
"""

from __future__ import annotations

import json
import re

from tests.e2e.test_browser import EX4_MOVES, card_names, chromium, people, server, shot, spoken  # noqa: F401


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def refuse(game, seat: int, kind: str, cards) -> dict:
    status, problem = game.server.call("POST", f"/api/v1/games/{game.id}/moves", {"type": kind, "cards": list(cards)},
                                       game.tokens[seat])
    assert status == 422, problem
    return problem


def current_version(page) -> int:
    return int(page.locator("#moves li.current").get_attribute("data-version"))


def in_view_of_the_list(page) -> bool:
    """Whether the highlighted entry lies inside the move list's visible box."""
    return page.evaluate("""() => {
        const box = document.getElementById('move-scroll').getBoundingClientRect();
        const here = document.querySelector('#moves li.current').getBoundingClientRect();
        return here.top >= box.top - 1 && here.bottom <= box.bottom + 1; }""")


def no_sideways_scroll(page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1] + 1, widths


def test_the_move_list_follows_arrow_keys_home_end_and_clicks_and_a_permalink_opens_that_version(people, server):
    """The referee's replay lists every event (names, card faces, clauses; the refusal with its reason); ←/→, Home and
    End move the version one page at a time, the entry shown highlighted and in sight; a click on an entry opens its
    version; the permalink opens the same version in another browser once the game is over."""
    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    problem = refuse(game, 2, "throw_in", ["KC"])
    refused_at = game.version()
    for seat, kind, cards in EX4_MOVES[1:]:
        game.move(seat, kind, cards)
    latest = game.version()
    log = game.server.ok("GET", f"/api/v1/games/{game.id}/events", token=game.referee)

    page = people.page(game.join_url(), width=1280, height=800)
    page.goto(f"/games/{game.id}/replay?version=3")
    entries = page.locator("#moves li.move")
    expect(entries).to_have_count(len(log))
    assert current_version(page) == 3 and in_view_of_the_list(page)
    attack = page.locator("#moves li.type-attacked")
    expect(attack).to_contain_text("P0")
    assert spoken("8H") in card_names(page, "#moves li.type-attacked")
    expect(attack.locator(".clause")).to_have_text("ER-3.1")
    refusal = page.locator("#moves li.kind-refusal")
    expect(refusal).to_have_count(1)
    expect(refusal).to_contain_text(problem["detail"])
    expect(refusal).to_contain_text("P2")
    expect(refusal.locator(".clause")).to_have_text(problem["rule"])
    assert refusal.get_attribute("data-version") == str(refused_at)
    shot(page, "replay-move-list")

    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"version=4$"))
    assert current_version(page) == 4
    expect(page.locator("#version")).to_have_text("4")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"version=3$"))
    page.keyboard.press("End")
    page.wait_for_url(re.compile(rf"version={latest}$"))
    assert current_version(page) == latest and in_view_of_the_list(page)
    page.keyboard.press("Home")
    page.wait_for_url(re.compile(r"version=1$"))
    assert current_version(page) == 1

    beat = page.locator("#moves li.type-beaten a.goto, #moves li.type-beat a.goto").first
    target = int(beat.locator("xpath=..").get_attribute("data-version"))
    beat.click()
    page.wait_for_url(re.compile(rf"version={target}$"))
    assert current_version(page) == target and in_view_of_the_list(page)
    assert page.locator("#moves li.current").get_attribute("aria-current") == "step"

    permalink = page.locator("#permalink").get_attribute("href")
    assert permalink.endswith(f"/games/{game.id}/replay?version={target}#v{target}")
    stranger = people.page(permalink)  # the game is over: anyone may open its replay
    expect(stranger.locator("#version")).to_have_text(str(target))
    assert current_version(stranger) == target
    assert stranger.evaluate("() => document.querySelector(':target').id") == f"v{target}"


def test_an_audit_row_s_link_lands_on_the_replay_at_that_version(people, server):
    game = server.create_stacked()
    versions = [game.move(seat, kind, cards) for seat, kind, cards in EX4_MOVES[:4]]
    page = people.page(game.join_url())
    page.goto(f"/games/{game.id}/audit")
    target = versions[1]
    page.locator(f'tr.entry[data-version="{target}"] a.to-replay').click()
    page.wait_for_url(re.compile(rf"/replay\?version={target}#v{target}$"))
    expect(page.locator("#version")).to_have_text(str(target))
    assert current_version(page) == target
    expect(page.locator("#moves li.current")).to_contain_text("P2")

    page.goto(f"/games/{game.id}/disputes")  # and a dispute's link
    status, _ = game.server.call("POST", f"/api/v1/games/{game.id}/disputes", {"version": target, "claim": "late"},
                                 game.tokens[1])
    assert status in (200, 201)
    page.reload()
    page.locator("tr.dispute a.to-replay").click()
    page.wait_for_url(re.compile(rf"/replay\?version={target}#v{target}$"))
    expect(page.locator("#moves li.current .disputed-note")).to_contain_text("late")


def upload(page, doc: dict, name: str) -> None:
    page.goto("/records/upload")
    page.set_input_files("input[name=record]", files=[{"name": name, "mimeType": "application/json",
                                                       "buffer": json.dumps(doc).encode()}])
    page.locator("form.upload-form button[type=submit]").click()
    page.wait_for_load_state()


def test_uploading_a_legal_and_an_illegal_record_shows_the_verdicts_and_the_first_illegal_move(people, server):
    game = server.create_stacked()
    for seat, kind, cards in EX4_MOVES:
        game.move(seat, kind, cards)
    doc = server.ok("GET", f"/api/v1/games/{game.id}/record", token=game.referee)

    page = people.page("/records/upload", width=1280, height=900)
    upload(page, doc, "example-4.json")
    expect(page.locator("#verdict")).to_have_attribute("data-status", "finished")
    expect(page.locator("#verdict")).to_contain_text("Every move is legal")
    expect(page.locator("#moves li.type-attacked")).to_have_count(1)
    expect(page.locator("#moves li.illegal")).to_have_count(0)

    bad = dict(doc, moves=doc["moves"][:3] + [{"seat": 1, "type": "beat", "cards": ["2D"]}] + doc["moves"][3:])
    upload(page, bad, "example-4-bad.json")
    expect(page.locator("#verdict")).to_have_attribute("data-status", "illegal")
    expect(page.locator("#verdict")).to_contain_text("record move 4")
    illegal = page.locator("#moves li.illegal")
    expect(illegal).to_have_count(1)
    expect(illegal).to_contain_text("first illegal move")
    expect(illegal).to_contain_text("P1")
    rule = page.locator("#verdict .clause").inner_text()
    expect(illegal.locator(".clause")).to_have_text(rule)
    expect(illegal).to_contain_text(page.locator("#verdict .reason").inner_text())
    assert card_names(page, "#moves li.illegal") == [spoken("2D")]
    shot(page, "record-upload-illegal")

    page.locator("#open-replay").click()  # this browser is the imported game's referee
    expect(page.locator("#moves li.illegal, #moves li.kind-refusal")).to_have_count(1)

    page.goto("/records/upload")
    page.set_input_files("input[name=record]", files=[{"name": "notes.txt", "mimeType": "text/plain",
                                                       "buffer": b"not a record"}])
    page.locator("form.upload-form button[type=submit]").click()
    expect(page.locator("#upload-error")).to_contain_text("not JSON")


def test_at_390_px_the_replay_and_a_verdict_show_the_move_list_without_sideways_scrolling(people, server):
    game = server.create_stacked()
    for seat, kind, cards in EX4_MOVES:
        game.move(seat, kind, cards)
    phone = people.page(game.join_url(), width=390, height=844)
    phone.goto(f"/games/{game.id}/replay?version=4")
    expect(phone.locator("#moves li.current")).to_be_visible()
    no_sideways_scroll(phone)
    phone.locator("#moves li.current").scroll_into_view_if_needed()
    shot(phone, "replay-390", full_page=False)
    doc = server.ok("GET", f"/api/v1/games/{game.id}/record", token=game.referee)
    bad = dict(doc, moves=doc["moves"][:1] + [{"seat": 3, "type": "beat", "cards": ["9C"]}])
    upload(phone, bad, "short.json")
    expect(phone.locator("#moves li.illegal")).to_be_visible()
    no_sideways_scroll(phone)
