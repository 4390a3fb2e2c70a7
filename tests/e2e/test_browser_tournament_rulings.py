"""Rounds that respect rulings, in a real browser (issue 35): "Start round 2" over an open dispute asks the director
to confirm, listing it, and the round then shows its games at once; a ruling that rewinds a finished round-1 game
reopens it on the page (the round's "1 game reopened", the game's mark, its result provisional in the standings)
and flags round 2's Swiss pairings until the director keeps them; the standings' legend is the order applied."""

from __future__ import annotations

import random
import re

from bots import SeatView, make_bot
from domain.games import spec_for
from tests.e2e.test_browser import chromium, people, server, shot  # noqa: F401 (fixtures)
from tests.e2e.test_browser_tournament import _wait_round_over


def _play_over_http(server, game_id: str, tokens: list[str]) -> None:
    """The seats of one game played to its end by this test (heuristic bots on its side: no bot seated on the server,
    so nothing plays the game again once a ruling reopens it)."""
    rng = random.Random(7)
    bots = {}
    for _ in range(2000):
        views = [server.ok("GET", f"/api/v1/games/{game_id}/view", token=t) for t in tokens]
        if views[0]["status"] == "finished":
            return
        seat = next(s for s, v in enumerate(views) if v["table"].get("legal_moves"))
        bot = bots.setdefault(seat, make_bot("heuristic", "small-battle", seat, random.Random(rng.random()),
                                                     spec_for("small-battle").bot))
        move = {k: v for k, v in bot.choose(SeatView.from_http(views[seat])).items() if k != "seat"}
        server.ok("POST", f"/api/v1/games/{game_id}/moves", {**move, "expected_version": views[seat]["version"]},
                  token=tokens[seat])
    raise AssertionError("the game did not end")


def _dispute_a_move(server, game_id: str, token: str) -> int:
    """A seat disputes the last move of the game's line (the first version that is a move's is accepted)."""
    events = server.ok("GET", f"/api/v1/games/{game_id}/events", token=token)
    versions = [e["version"] for e in events if (e.get("actor") or "").startswith("seat:") and e["type"] not in (
        "dispute_filed", "player_named", "move_rejected")]
    for version in reversed(versions):
        status, body = server.call("POST", f"/api/v1/games/{game_id}/disputes", {"version": version, "claim": "not legal"},
                                   token=token)
        if status == 201:
            return body["number"]
    raise AssertionError("no move of the game could be disputed")


def test_a_round_over_an_open_dispute_is_confirmed_and_a_rewind_reopens_a_game_the_next_round_was_paired_on(people, server):
    from playwright.sync_api import expect

    created = server.ok("POST", "/api/v1/tournaments", {"name": "Rulings", "game": "small-battle", "format": "swiss",
                                                         "players": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")],
                                                         "rounds": 3})
    tid, token = created["id"], created["director_token"]
    page = people.page(created["director_url"])
    page.wait_for_url(re.compile(rf"/tournaments/{tid}$"))
    expect(page.locator("#standings-legend")).to_have_text("(ranked by points; tie-breaks: Buchholz, head-to-head, score)")
    page.click("#start-round button")
    expect(page.locator(".round[data-round='1'] tr.game")).to_have_count(2)
    links = server.ok("GET", f"/api/v1/tournaments/{tid}/links", token=token)["games"]
    first = next(g for g in links if g["round"] == 1 and g["table"] == 0)
    second = next(g for g in links if g["round"] == 1 and g["table"] == 1)
    for seat in second["seats"]:
        server.ok("POST", f"/api/v1/games/{second['game_id']}/bot", {"bot": "heuristic"}, token=seat["token"])
    _play_over_http(server, first["game_id"], [s["token"] for s in first["seats"]])
    _wait_round_over(server, tid, 1)
    number = _dispute_a_move(server, first["game_id"], first["seats"][0]["token"])

    page.reload()
    page.click("#start-round button")  # refused: the confirmation step lists the open dispute
    confirm = page.locator("#confirm-round")
    expect(confirm).to_be_visible()
    expect(confirm.locator(".open-disputes li")).to_have_text(f"round 1, table 1: dispute {number}")
    expect(page.locator(".round[data-round='2']")).to_have_count(0)
    confirm.locator("input[name=note]").fill("ruled after the round")
    confirm.locator("button").click()
    expect(page.locator(".round[data-round='2'] tr.game")).to_have_count(2)
    expect(page.locator("#room")).to_contain_text("Round 2: 2 of 2 games being played")  # no "0 of 0" until a reload
    expect(page.locator(".round[data-round='2'] .confirmed-open-disputes")).to_contain_text("“ruled after the round”")

    status, _ = server.call("POST", f"/api/v1/games/{first['game_id']}/disputes/{number}/ruling",
                            {"decision": "upheld", "remedy": "rewind", "note": "that move was not legal"},
                            token=first["referee_token"])
    assert status == 200
    page.reload()
    expect(page.locator("#room .reopened-count")).to_have_text("1 game reopened")
    expect(page.locator(".round[data-round='1'] summary .reopened-count")).to_have_text("1 game reopened")
    row = page.locator(f"#room tr.game[data-game='{first['game_id']}']")  # in this round's room until it ends again
    expect(row.locator(".badge.reopened")).to_be_visible()
    expect(row.locator(".badge.provisional")).to_be_visible()
    expect(row.locator(".to-act")).to_contain_text("to act:")  # someone can move it: the table's seats, again
    expect(page.locator("#provisional-results")).to_contain_text("round 1 table 1")
    expect(page.locator("#standings abbr.provisional")).to_have_count(2)
    review = page.locator("#pairings-review .flagged-round[data-round='2']")
    expect(review).to_contain_text("Round 2 was paired on a result a ruling reopened")
    shot(page, "tournament-reopened")
    review.locator("input[name=note]").fill("the score groups are unchanged")
    review.locator("button[value=repair]").click()  # refused while the game is played again: said, the note kept
    review = page.locator("#pairings-review .flagged-round[data-round='2']")
    expect(review.locator(".review-refused")).to_contain_text("is being played again")
    expect(review.locator("input[name=note]")).to_have_value("the score groups are unchanged")
    review.locator("button[value=keep]").click()
    expect(page.locator("#pairings-review")).to_have_count(0)
    assert server.ok("GET", f"/api/v1/tournaments/{tid}")["pairings_reviewed"][0]["note"] == "the score groups are unchanged"
