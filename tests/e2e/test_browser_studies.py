"""A study in Chromium (issue 27 parts 3 and 5, docs/studies.md): a seat opens its study's permalink, sees the
variation label and its own view of the sandbox, plays a move through the form (the bots answer), comments on it, and
the comment shows in the move list; at 1280 and 390 px with no sideways scroll. Shares test_browser's server."""

from __future__ import annotations

from service.offline.simulation import make_plan, run
from tests.e2e.test_browser import Game, chromium, people, server, shot  # noqa: F401


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def test_a_seat_plays_a_variation_and_comments_in_its_study_at_1280_and_390_px(people, server):
    doc = list(run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "studies-e2e"), 1))[0]
    game = Game(server, server.ok("POST", "/api/v1/records", doc))
    study = server.ok("POST", f"/api/v1/games/{game.id}/studies", {"version": 30, "seat": 2, "seed": "e2e"},
                      game.tokens[2])
    before = len(study["positions"])
    recorded = game.version()
    page = people.page(game.join_url(2), width=1280, height=900)  # this browser holds seat 2's link
    page.goto(study["permalink"])
    expect(page.locator("#variation-label")).to_contain_text("not part of the recorded game")
    expect(page.locator("#study-moves li")).to_have_count(before)
    page.locator("#study-move-form button").click()  # the first legal move is offered
    page.wait_for_url(f"**{study['permalink']}")
    after = page.locator("#study-moves li").count()
    assert after > before
    expect(page.locator(f"#position-{before}")).to_contain_text(f"{study['players'][2]}:")  # a name, not "seat 2"
    assert "seat 2:" not in page.locator(f"#position-{before}").inner_text()
    page.select_option("#study-comment-at", str(before))
    page.fill("#study-comment-text", "<i>what if</i> I had kept the ace?")
    page.locator("#study-comment-form button").click()
    expect(page.locator(f"#position-{before} .comment")).to_contain_text("<i>what if</i> I had kept the ace?")
    expect(page.locator(f"#position-{before} .comment .author")).to_have_text("seat 2")
    shot(page, "study-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1] + 1, widths
    shot(page, "study-390")
    assert game.version() == recorded  # the recorded game never moved
