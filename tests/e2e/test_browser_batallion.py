"""Batallion in real browsers: seats play through the pages (draw, discard, bid, attack with the target picker,
defend), the table shows chips, the discard pile, the bids and the attack; a spectator never sees a hidden card."""

from __future__ import annotations

import re

from tests.e2e.test_browser import chromium, people, server, shot, spoken, wait_for_version  # noqa: F401 (fixtures)

HANDS = ["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C 8D 8D 5H 5H 2S JS JS TC", "5C 6C 7C 8C 3D 4D AS QS QS KS"]


def stacked_deck(hands: list[str], dealer: int = 0) -> list[str]:
    """Two packs: the hands dealt one at a time from the dealer's left, the up-card 2H, then the rest in pack order."""
    from collections import Counter

    want = [h.split() for h in hands]
    n, order, taken = len(want), [], [0] * len(want)
    for i in range(10 * n):
        seat = (dealer + 1 + i) % n
        order.append(want[seat][taken[seat]])
        taken[seat] += 1
    order.append("2H")
    pack = [r + s for s in "CDHS" for r in "A23456789TJQK"] * 2
    rest = Counter(pack)
    rest.subtract(Counter(order))
    tail = []
    for c in pack:
        if rest[c] > 0:
            tail.append(c)
            rest[c] -= 1
    return order + tail


class Game:
    def __init__(self, server):
        self.server = server
        doc = server.ok("POST", "/api/v1/games", {"game": "batallion", "options": {"variants": []}, "seed": "ba77",
                                                  "players": [{"name": n} for n in ("North", "East", "South")],
                                                  "deck": stacked_deck(HANDS), "dealer": 0})
        self.id, self.tokens, self.referee = doc["id"], [s["token"] for s in doc["seats"]], doc["referee_token"]

    def view(self) -> dict:
        return self.server.ok("GET", f"/api/v1/games/{self.id}/view", token=self.referee)

    def move(self, seat: int, body: dict) -> None:
        self.server.ok("POST", f"/api/v1/games/{self.id}/moves", body, token=self.tokens[seat])


def hidden(view: dict) -> set[str]:
    """Cards held or in the stock that are not also face up somewhere: what a spectator must never see."""
    t = view["table"]
    public = set(t["discard"]) | set((t["battle"] or {}).get("cards", []))
    held = {c for s in t["seats"] for c in s["hand"]} | set(t["stock"])
    return {spoken(c) for c in held - public}


def spectator_cards(page) -> set[str]:
    return set(page.locator("#panel .card").evaluate_all("els => els.map(c => c.getAttribute('aria-label'))"))


def test_three_seats_play_batallion_in_browsers_and_the_spectator_never_sees_a_hidden_card(people, server):
    from playwright.sync_api import expect

    game = Game(server)
    east = people.page(f"/join/{game.id}/{game.tokens[1]}")
    east.wait_for_url(re.compile(rf"/games/{game.id}$"))
    watcher = people.page(f"/games/{game.id}")
    expect(east.locator("#panel .seat .chips").first).to_contain_text("10 chips")

    # acquisition: East draws the up-card through the page and throws it back
    east.locator("#controls button.act-draw", has_text="discard pile").click()
    expect(east.locator("#controls button.act-discard")).to_be_visible()
    east.locator('#hand label.card.pick:has(input[value="2H"])').click()
    east.locator("#controls button.act-discard").click()
    expect(east.locator("#controls button.act-discard")).to_have_count(0)  # answered: the turn moved on
    wait_for_version(watcher, game.view()["version"])
    assert not spectator_cards(watcher) & hidden(game.view()), "the spectator sees a hidden card"
    for _ in range(8):  # the other turns by API
        seat = game.view()["table"]["to_act"]
        game.move(seat, {"type": "draw", "source": "discard"})
        game.move(seat, {"type": "discard", "cards": ["2H"]})

    # bidding: East bids 4 in its page, the others pass
    wait_for_version(east, game.view()["version"])
    east.locator("#controls input[name='move.amount']").fill("4")
    east.locator("#controls button.act-bid").click()
    expect(east.locator("#panel .bids")).to_contain_text("East 4")
    game.move(2, {"type": "pass"})
    game.move(0, {"type": "pass"})

    # East attacks South with its twin jacks, choosing the target in the picker
    wait_for_version(east, game.view()["version"])
    east.locator('#hand label.card.pick:has(input[value="JS"])').first.click()
    east.locator('#hand label.card.pick:has(input[value="JS"])').nth(1).click()
    east.locator("#target").select_option("2")
    east.locator("#controls button.act-attack").click()
    expect(watcher.locator("#battle")).to_contain_text("worth 4")
    assert not spectator_cards(watcher) & hidden(game.view()), "the spectator sees a hidden card"
    shot(watcher, "batallion-spectator-attack")

    south = people.page(f"/join/{game.id}/{game.tokens[2]}")
    south.wait_for_url(re.compile(rf"/games/{game.id}$"))
    south.locator("#controls button.act-defend").click()  # nothing selected: a surrender
    expect(south.locator("#controls button.act-defend")).to_have_count(0)
    wait_for_version(watcher, game.view()["version"])
    expect(watcher.locator("#panel .seat[data-seat='2'] .chips")).to_contain_text("6 chips")
    assert not spectator_cards(watcher) & hidden(game.view()), "the spectator sees a hidden card"
    shot(south, "batallion-after-the-battle")


def checked_cards(page) -> list[str]:
    """The values of the hand's ticked card boxes, in hand order (two equal cards are two boxes)."""
    return page.locator("#hand input[name=cards]").evaluate_all("els => els.filter(e => e.checked).map(e => e.value)")


def test_two_equal_cards_are_two_boxes_and_a_refused_move_keeps_exactly_the_boxes_that_were_ticked(people, server):
    """East holds two 9♣ and two 5♥ (two packs). It ticks one 9♣ and one 5♥ and discards: refused (one card only),
    and the panel comes back with those two boxes ticked, not every box of the same value; a live refresh keeps them
    too; unticking the 5♥ and discarding again is accepted (the seat is never stuck)."""
    from playwright.sync_api import expect

    game = Game(server)
    east = people.page(f"/join/{game.id}/{game.tokens[1]}")
    east.wait_for_url(re.compile(rf"/games/{game.id}$"))
    east.locator("#controls button.act-draw", has_text="discard pile").click()
    expect(east.locator("#controls button.act-discard")).to_be_visible()
    nines = east.locator('#hand label.card.pick:has(input[value="9C"])')
    fives = east.locator('#hand label.card.pick:has(input[value="5H"])')
    assert nines.count() == 2 and fives.count() == 2
    nines.nth(1).click()
    fives.first.click()
    east.locator("#controls button.act-discard").click()
    expect(east.locator("#error")).to_be_visible()
    assert checked_cards(east) == ["9C", "5H"], "the refused move's selection came back wrong"
    assert east.locator('#hand input[value="9C"]').nth(1).is_checked() and east.locator('#hand input[value="5H"]').first.is_checked()

    game.move(0, {"type": "say", "text": "hurry up"})  # an event: the panel is swapped live
    expect(east.locator("#panel .version")).to_have_text(str(game.view()["version"]))
    assert checked_cards(east) == ["9C", "5H"], "a live refresh changed the selection"

    fives.first.click()
    east.locator("#controls button.act-discard").click()
    expect(east.locator("#controls button.act-discard")).to_have_count(0)  # accepted: the turn moved on
    assert "9C" in [c for c in game.view()["table"]["discard"]]


def test_a_refused_move_is_shown_in_place_numbered_for_the_seat_and_logs_no_console_error(people, server):
    """Another seat's refusals first (game-wide attempts 1 and 2), then East discards two cards: refused (BA-2.2).
    East's page shows the refusal beside its controls as its own attempt 1, tells it in the story, and the browser
    logs nothing in the console (the page's fetch gets the refusal without an error status). Before any attack, the
    table shows no empty "On the table" heading."""
    from playwright.sync_api import expect

    game = Game(server)
    for _ in range(2):
        status, _doc = server.call("POST", f"/api/v1/games/{game.id}/moves", {"type": "pass"}, token=game.tokens[2])
        assert status == 422
    east = people.page(f"/join/{game.id}/{game.tokens[1]}")
    errors = []
    east.on("console", lambda m: m.type == "error" and errors.append(m.text))
    east.wait_for_url(re.compile(rf"/games/{game.id}$"))
    assert east.locator("#panel h2", has_text="On the table").count() == 0
    east.locator("#controls button.act-draw", has_text="stock").click()
    expect(east.locator("#controls button.act-discard")).to_be_visible()
    east.locator("#hand label.card.pick").nth(0).click()
    east.locator("#hand label.card.pick").nth(1).click()
    east.locator("#controls button.act-discard").click()
    expect(east.locator("#error")).to_contain_text("BA-2.2")
    expect(east.locator("#error")).to_contain_text("(attempt 1)")
    expect(east.locator("#story .story-line.type-move_rejected")).to_have_count(1)
    expect(east.locator("#story .story-line.type-move_rejected")).to_contain_text("attempt 1")
    east.wait_for_timeout(200)  # a console message comes after the answer
    assert not errors, errors
