"""The Four Virtues in real browsers: two seats draw, meld with a hearts face card, answer the forced discard on the
page that must answer it, meld and add; the melds are explained line by line; a spectator never sees a hidden card."""

from __future__ import annotations

import re

from tests.e2e.test_browser import chromium, people, server, shot, spoken, wait_for_version  # noqa: F401 (fixtures)

NORTH = "4H 5H 6H JH AC 2C 3C 9C TC 7C"
SOUTH = "AD 2D 3D 4D 5D 6D 7D 8H 9D KD"


def stacked_deck() -> list[str]:
    """FV-1.3 R with South dealing: North (the non-dealer) gets positions 0, 2, .., South 1, 3, ..; KS turned up;
    the stock begins 8C, 5S."""
    order = [c for pair in zip(NORTH.split(), SOUTH.split()) for c in pair] + ["KS", "8C", "5S"]
    return order + [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in order]


def pick(page, *cards: str) -> None:
    for c in cards:
        page.locator(f'#hand label.card.pick:has(input[value="{c}"])').click()


def hidden(view: dict) -> set[str]:
    t = view["table"]
    public = set(t["discard"]) | {c for m in t["melds"] for c in m["cards"] + ([m["face"]] if m["face"] else [])}
    held = {c for s in t["seats"] for c in s["hand"]} | set(t["stock"])
    return {spoken(c) for c in held - public}


def spectator_cards(page) -> set[str]:
    return set(page.locator("#panel .card").evaluate_all("els => els.map(c => c.getAttribute('aria-label'))"))


def test_two_seats_meld_force_and_add_in_browsers_and_the_spectator_never_sees_a_hidden_card(people, server):
    from playwright.sync_api import expect

    doc = server.ok("POST", "/api/v1/games", {"game": "four-virtues", "options": {"target": 100}, "seed": "f4f4",
                                               "players": [{"name": "North"}, {"name": "South"}],
                                               "deck": stacked_deck(), "dealer": 1})
    gid, tokens, referee = doc["id"], [s["token"] for s in doc["seats"]], doc["referee_token"]

    def view() -> dict:
        return server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)

    pages = []
    for seat in (0, 1):
        page = people.page(f"/join/{gid}/{tokens[seat]}")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        pages.append(page)
    north, south = pages
    watcher = people.page(f"/games/{gid}")

    # North draws one, lays 4-5-6 of hearts with the jack of hearts and forces two discards
    north.locator("#controls button.act-draw", has_text="1 from the stock").click()
    expect(north.locator("#controls button.act-meld")).to_be_visible()
    pick(north, "4H", "5H", "6H")
    north.locator("#meld-face label.pick:has(input[value='JH'])").click()
    north.locator("#controls input[name='move.force']").fill("2")
    north.locator("#controls button.act-meld").click()
    expect(north.locator("#melds .meld[data-meld='0']")).to_contain_text("hearts")

    # South's page says what it owes; North can do nothing meanwhile
    wait_for_version(south, view()["version"])
    expect(south.locator("#owed")).to_contain_text("discard 2 cards")
    pick(south, "9D", "KD")
    south.locator("#controls button.act-forced_discard").click()
    expect(south.locator("#owed")).to_have_count(0)
    wait_for_version(watcher, view()["version"])
    assert not spectator_cards(watcher) & hidden(view()), "the spectator sees a hidden card"

    # North lays 7-8-9-10 of clubs and discards the ace; South draws, lays A-2-3-4 of diamonds, adds 5-6 and discards
    wait_for_version(north, view()["version"])
    pick(north, "7C", "8C", "9C", "TC")
    north.locator("#controls button.act-meld").click()
    expect(north.locator("#melds .meld[data-meld='1']")).to_be_visible()
    pick(north, "AC")
    north.locator("#controls button.act-discard").click()
    wait_for_version(south, view()["version"])
    south.locator("#controls button.act-draw", has_text="1 from the stock").click()
    expect(south.locator("#controls button.act-meld")).to_be_visible()
    pick(south, "AD", "2D", "3D", "4D")
    south.locator("#controls button.act-meld").click()
    expect(south.locator("#melds .meld[data-meld='2']")).to_be_visible()
    wait_for_version(south, view()["version"])
    pick(south, "5D", "6D")
    south.locator("#controls select[name='move.meld']").select_option("2")
    south.locator("#controls button.act-add").click()
    expect(south.locator("#melds .meld[data-meld='2'] .meld-lines li")).to_have_count(6)
    expect(south.locator("#melds .meld[data-meld='2'] .meld-lines li").last).to_contain_text("added by South: 6")
    pick(south, "8H")
    south.locator("#controls button.act-discard").click()
    expect(south.locator("#controls button.act-discard")).to_have_count(0)
    wait_for_version(watcher, view()["version"])
    lines = watcher.locator("#melds .meld[data-meld='0'] .meld-lines li")
    expect(lines).to_have_count(3)
    expect(lines.first).to_contain_text("laid by North")
    expect(watcher.locator("#rounds")).to_contain_text("no round finished yet")
    assert not spectator_cards(watcher) & hidden(view()), "the spectator sees a hidden card"
    shot(watcher, "four-virtues-spectator")
    shot(south, "four-virtues-seat")


def test_the_meld_form_shows_card_faces_not_codes(people, server):
    """The meld form listed raw codes ("JC", "9H") in its selects: its face and its lowered card are chosen among card
    faces drawn as the rest of the table draws them, on a phone too."""
    from playwright.sync_api import expect

    doc = server.ok("POST", "/api/v1/games", {"game": "four-virtues", "options": {"target": 100}, "seed": "f4f5",
                                               "players": [{"name": "North"}, {"name": "South"}],
                                               "deck": stacked_deck(), "dealer": 1})
    north = people.page(f"/join/{doc['id']}/{doc['seats'][0]['token']}", width=390, height=844)
    north.locator("#controls button.act-draw", has_text="1 from the stock").click()
    form = north.locator("#controls .meld-form")
    expect(form).to_be_visible()
    codes = form.evaluate("f => [...f.querySelectorAll('option, label')].map(e => e.textContent.trim())"
                          ".filter(t => /^[A2-9TJQK][CDHS]$/.test(t))")
    assert not codes, f"raw card codes in the meld form: {codes}"
    face = north.locator("#meld-face label.card.pick:has(input[value='JH'])")
    expect(face).to_have_attribute("title", "jack of hearts")
    assert face.inner_text().replace("\ufe0e", "").split() == ["J", "♥"] or face.inner_text().replace("\ufe0e", "").replace("\n", "") == "J♥"
    lowered = north.locator("#meld-lowered label.card.pick input").evaluate_all("els => els.map(e => e.value)")
    assert "AC" in lowered and not any(c[0] in "JQK" for c in lowered), lowered
    box = face.bounding_box()
    assert box["x"] + box["width"] <= 390
    face.click()
    assert north.locator("#meld-face input[value='JH']").is_checked()
