"""A study in Chromium (issue 27 parts 3 and 5, issue 36 part 7, docs/studies.md), at 1280 and 390 px: seat 2 opens
its study of a finished El Royale game and meets the table's own board (status, hand, controls); a move the rules
refuse is refused in place with its clause; a legal move is played from the board (the bots answer, the address
becomes the node's permalink); another move at the same position starts a branch that the tree lists; a comment
shows under its node; a node's permalink opens the study there; a spectator sees the study but no comment form; on a
phone the hand and controls come right after the status and nothing scrolls sideways. Shares test_browser's server;
its pictures go to docs/screenshots with `make screenshots` (tests/e2e/test_screenshots.screens_dir)."""

from __future__ import annotations

import re

import pytest

from service.offline.simulation import make_plan, run
from tests.e2e.test_browser import Game, chromium, people, server  # noqa: F401
from tests.e2e.test_screenshots import WIDTHS, screens_dir

DOC = list(run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "studies-e2e"), 1))[0]


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def _top(page, selector: str) -> float:
    return page.locator(selector).first.bounding_box()["y"]


def _play_from_the_board(page, move: dict) -> None:
    """Tick the move's cards in the hand (or the take's offer) and press its button."""
    for card in move.get("cards", []):
        box = page.locator(f"#controls input[name=cards][value='{card}']:not(:checked)").first
        box.check()
    page.locator(f"#controls button[name=type][value='{move['type']}']").click()


def _simple(moves: list[dict]) -> list[dict]:
    """The legal moves a board plays by its cards and a button (a take's summary entry aside)."""
    return [m for m in moves if set(m) <= {"type", "cards", "seat"} and m["type"] != "take"]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_seat_studies_on_the_real_board_branches_comments_and_a_spectator_reads(people, server, width):
    w, h = WIDTHS[width]
    game = Game(server, server.ok("POST", "/api/v1/records", DOC))
    study = server.ok("POST", f"/api/v1/games/{game.id}/studies", {"version": 44, "seat": 2, "seed": "e2e1280"},
                      game.tokens[2])
    recorded = game.version()
    start = study["node"]  # the bots may have answered up to seat 2's turn
    legal = _simple(study["view"]["table"]["legal_moves"])
    assert len(legal) >= 2, legal
    page = people.page(game.join_url(2), width=w, height=h)  # this browser holds seat 2's link
    page.goto(study["permalink"])
    expect(page.locator("#variation-label")).to_contain_text("not part of the recorded game")
    expect(page.locator("#controls #hand")).to_be_visible()  # the table's own hand and controls
    assert page.locator("input[name=move]").count() == 0  # no JSON box
    assert page.evaluate("document.scrollingElement.scrollHeight") < 6000
    if width == "390":  # as at the table: the hand and controls right after the status
        assert _top(page, "#panel > .status") < _top(page, "#panel > .mine") < _top(page, "#battle-pile")
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the study at {width} px scrolls sideways by {overflow} px"

    # refused in place: a card move with no card ticked, its clause linked, the page the same
    kind = next(m["type"] for m in legal if m.get("cards"))
    page.locator(f"#controls button[name=type][value='{kind}']").click()
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error a.clause")).to_have_count(1)
    assert page.url.endswith(study["permalink"]) and "Back to the lobby" not in page.content()

    # a legal move from the board: the bots answer, the address is the node reached
    page.evaluate("window.__stayed = true")
    _play_from_the_board(page, legal[0])
    page.wait_for_url(re.compile(r"/nodes/\d+$"))
    first_line = int(page.url.rsplit("/", 1)[1])
    assert page.evaluate("window.__stayed === true")  # swapped in place, as the table does, not reloaded
    expect(page.locator(f"#node-{first_line}")).to_have_attribute("aria-current", "location")

    # a branch: back to the position where seat 2 chose, another move there
    at_start = f"{study['permalink']}/nodes/{start}"
    page.goto(at_start)
    _play_from_the_board(page, legal[1])
    page.wait_for_url(lambda url: re.search(r"/nodes/\d+$", url) and not url.endswith(at_start))
    branch = int(page.url.rsplit("/", 1)[1])
    tree = server.ok("GET", f"/api/v1/studies/{study['id']}", token=game.tokens[2])
    assert len(tree["nodes"][start]["children"]) == 2
    expect(page.locator("#study-tree .tree-row.starts")).to_have_count(1)
    assert branch != first_line

    # a comment on the branch's node shows beside the board and in the tree
    page.fill("#study-comment-text", "<i>what if</i> I had kept the ace?")
    page.locator("#study-comment-form button").click()
    expect(page.locator("#study-comments .comment")).to_contain_text("<i>what if</i> I had kept the ace?")
    expect(page.locator(f"#row-{branch} .tree-comment .author")).to_have_text("seat 2")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    page.screenshot(path=str(screens_dir() / f"study-{width}.png"), full_page=width == "390")

    # a permalink opens the study at its node (the first line's), from the tree's link
    page.goto(f"{study['permalink']}/nodes/{first_line}")
    expect(page.locator(f"#node-{first_line}")).to_have_attribute("aria-current", "location")
    expect(page.locator("#node-permalink")).to_have_attribute("href", f"{study['permalink']}/nodes/{first_line}")

    # a spectator reads the study and sees no comment form (a comment is signed by a seat or the referee)
    watcher = people.page(f"{study['permalink']}/nodes/{branch}", width=w, height=h)
    expect(watcher.locator("#study-comments .comment")).to_contain_text("what if")
    expect(watcher.locator("#study-comment-form")).to_have_count(0)
    expect(watcher.locator("#comment-who")).to_be_visible()
    assert game.version() == recorded  # the recorded game never moved
