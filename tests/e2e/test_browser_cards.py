"""Card faces in Chromium at a desktop's and a phone's width: ranks and suit symbols in the suit's colour, jokers,
face-down backs and piles whose depth shows, all from the one card component (templates/macros.html, cards.css).

Screenshots go to test-artifacts/ (cards-*.png).
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_browser import chromium, people, server, shot  # noqa: F401 (fixtures)

RED, BLACK, PURPLE = "rgb(192, 24, 43)", "rgb(17, 17, 17)", "rgb(107, 47, 160)"
WIDTHS = [1280, 390]


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def style(locator, prop: str) -> str:
    return locator.evaluate(f"(el, p) => getComputedStyle(el).getPropertyValue(p)", prop)


def joined(people, url: str, width: int, gid: str):
    page = people.page(url, width=width, height=900)
    page.wait_for_url(re.compile(rf"/games/{gid}(\?.*)?$"))
    page.locator("#panel").wait_for()
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_a_seat_s_hand_is_drawn_as_faces_in_their_suit_s_colours_beside_piles_of_backs_that_show_their_depth(
        people, server, width):
    game = server.create_stacked()  # El Royale, worked example 4: seat 0 holds 8H 2C 3C 4C
    page = joined(people, game.join_url(0), width, game.id)
    view = game.referee_view()

    hand = page.locator("#hand label.card")
    expect(hand).to_have_count(4)
    for i in range(4):
        face = hand.nth(i)
        code = face.get_attribute("data-card")
        assert style(face, "color") == (RED if code[1] in "DH" else BLACK), code
        box = face.bounding_box()
        assert box["width"] >= 30 and box["height"] > box["width"] * 1.2, (width, code, box)  # card-shaped, readable
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{code} is off the screen at {width} px"
        suit = face.locator(".suit")
        assert suit.inner_text().startswith("♥♦♣♠"["HDCS".index(code[1])])
        assert suit.bounding_box()["width"] > 5, "the suit symbol has no glyph"
        assert float(style(suit, "font-size").removesuffix("px")) >= 20
    assert {hand.nth(i).get_attribute("data-card") for i in range(4)} == {"8H", "2C", "3C", "4C"}

    others = page.locator(".seat-list .pile-stack")  # every seat's hand in the list: backs, the size on them, no card
    expect(others).to_have_count(4)
    for i in range(4):
        stack = others.nth(i)
        back = stack.locator(".card-back")
        expect(back).to_be_visible()
        assert "gradient" in style(back, "background-image")
        assert stack.locator(".pile-count").inner_text() == "4"
        assert stack.locator(".card").count() == 0
    assert page.locator(".seat-list .card").count() == 0, "a seat sees another seat's card"

    deck = page.locator(".pile-stack:has(#deck-count)")
    count = view["table"]["deck_count"]
    assert page.locator("#deck-count").inner_text() == str(count) and count == 36
    assert "depth-4" in deck.get_attribute("class").split()
    shadow = style(deck.locator(".card-back"), "box-shadow")
    assert "8px 8px" in shadow, shadow  # the thickest stack: four edges under the top card
    discard = page.locator(".pile-stack:has(#discard-count)")
    assert "empty" in discard.get_attribute("class").split()
    shot(page, f"cards-table-{width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_joker_is_drawn_as_a_joker_face(people, server, width):
    """Batallion with jokers: the referee's table shows every hand; a hand holding JK shows the joker's face."""
    for n in range(40):
        doc = server.ok("POST", "/api/v1/games", {"game": "batallion", "options": {"variants": ["jokers"]},
                                                   "seed": f"{n:04x}", "players": [{"name": f"P{i}"} for i in range(3)]})
        hands = [s.get("hand", []) for s in
                 server.ok("GET", f"/api/v1/games/{doc['id']}/view", token=doc["referee_token"])["table"]["seats"]]
        if any("JK" in h for h in hands):
            break
    else:
        pytest.fail("no seed of 40 dealt a joker into a hand")
    page = joined(people, f"/join/{doc['id']}/{doc['referee_token']}", width, doc["id"])
    joker = page.locator(".seat-list .card.joker").first
    expect(joker).to_be_visible()
    assert joker.get_attribute("aria-label") == "joker" and style(joker, "color") == PURPLE
    assert joker.locator(".suit").inner_text().startswith("★")
    assert joker.bounding_box()["x"] + joker.bounding_box()["width"] <= width
    shot(page, f"cards-joker-{width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_formation_s_face_down_cards_are_drawn_as_backs_for_a_spectator(people, server, width):
    doc = server.ok("POST", "/api/v1/games", {"game": "small-battle", "options": {}, "seed": "5b5b", "starter": 0,
                                               "players": [{"name": "Ann"}, {"name": "Bob"}]})
    for seat in doc["seats"]:
        server.ok("POST", f"/api/v1/games/{doc['id']}/moves",
                  {"type": "arrange", "formation": [str(r) for r in range(2, 10)]}, seat["token"])
    page = people.page(f"/games/{doc['id']}", width=width)
    backs = page.locator(".formation .card-back")
    expect(backs).to_have_count(16)
    assert page.locator(".formation .card").count() == 0, "the spectator sees a face-down card"
    first = backs.first.bounding_box()
    assert first["width"] >= 30 and first["height"] > first["width"]
    pile = page.locator(".pile-stack:has(#pile-count)")
    assert int(pile.get_attribute("data-count")) == int(page.locator("#pile-count").inner_text()) > 0
    shot(page, f"cards-small-battle-{width}")
