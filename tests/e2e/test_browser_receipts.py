"""The seat's page keeps the receipts the server signs for its moves: in the browser, across a reload, as a download
that the server verifies (docs/evidence.md)."""

from __future__ import annotations

import json

from tests.e2e.test_browser import EX4_MOVES, chromium, people, play, server, shot, wait_for_version  # noqa: F401

RECEIPT_FIELDS = {"format", "game", "version", "head", "at", "key", "signature", "promise"}


def test_a_seat_page_keeps_the_receipts_of_its_moves_across_a_reload_and_offers_them_as_a_download(people, server):
    from playwright.sync_api import expect

    game = server.create_stacked()
    page = people.table(game, 0)
    assert page.locator("#receipts").is_hidden(), "no receipt before the seat's first move"
    versions = []
    for seat, kind, cards in EX4_MOVES[:4]:  # seat 0 attacks, 2 throws in, 3 passes, 0 passes
        if seat == 0:
            play(page, kind, cards)
            versions.append(game.version())
        else:
            game.move(seat, kind, cards)
        wait_for_version(page, game.version())
    expect(page.locator("#receipts .receipt-count")).to_have_text("2")
    expect(page.locator("#receipts .receipt-version")).to_have_text(str(versions[-1]))
    shot(page, "table-seat-receipts")

    page.reload()
    page.locator("#panel").wait_for()
    expect(page.locator("#receipts .receipt-count")).to_have_text("2")
    download = page.locator("#receipts .receipt-download")
    assert download.get_attribute("download").startswith(f"receipts-{game.id}-seat0")
    kept = json.loads(page.evaluate("href => fetch(href).then(r => r.text())", download.get_attribute("href")))

    assert [r["version"] for r in kept] == versions
    key = server.ok("GET", "/api/v1/keys")["key_id"]
    for receipt in kept:
        assert set(receipt) == RECEIPT_FIELDS and receipt["game"] == game.id and receipt["key"] == key
        assert server.ok("POST", "/api/v1/receipts/verify", receipt)["status"] == "intact"
    other = people.table(game, 1)
    assert other.locator("#receipts").is_hidden(), "another seat's page holds only its own receipts"
