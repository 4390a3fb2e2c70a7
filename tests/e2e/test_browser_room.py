"""The room at a glance (issue 35): the tournament page opens on this round's tables (who is to act, the clocks with
the time left, running, open disputes), standings and crosstable below; filters switch the tables without a reload;
the counts follow the room without a reload; print gives this round's pairings and the standings.

Two tournaments of Small Battle with a game time control whose clocks start at creation: `room` in its first
round (table 1 played to the end by bots, table 2 untouched, its clocks running; table 3 with a refused attempt
disputed), `later` in its second round (the first played by bots)."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from tests.e2e.test_browser import WAIT_MS, chromium, server, shot  # noqa: F401 (fixtures)

GAME_SECONDS = 1200
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def _create(server, names: list[str], auto_rounds: bool) -> dict:
    t = server.ok("POST", "/api/v1/tournaments", {
        "name": "Room", "game": "small-battle", "format": "round-robin", "players": [{"name": n} for n in names],
        "auto_rounds": auto_rounds, "time_control": {"game_seconds": GAME_SECONDS, "start": "created"}})
    server.ok("POST", f"/api/v1/tournaments/{t['id']}/rounds", {}, token=t["director_token"])
    return t


def _links(server, t: dict, number: int) -> list[dict]:
    games = server.ok("GET", f"/api/v1/tournaments/{t['id']}/links", token=t["director_token"])["games"]
    return [g for g in games if g["round"] == number]


def _bots(server, game: dict) -> None:
    for seat in game["seats"]:
        server.ok("POST", f"/api/v1/games/{game['game_id']}/bot", {"bot": "heuristic"}, token=seat["token"])


def _until(what, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError("waited in vain")


def _games(server, tid: str, number: int) -> list[dict]:
    return [g for table in server.ok("GET", f"/api/v1/tournaments/{tid}")["rounds"][number - 1]["tables"] for g in table["games"]]


def _dispute_a_refusal(server, game: dict, claim: str) -> None:
    token = game["seats"][0]["token"]
    status, refused = server.call("POST", f"/api/v1/games/{game['game_id']}/moves", {"type": "strike", "position": 99}, token=token)
    assert status == 422 and refused.get("attempt"), refused
    server.ok("POST", f"/api/v1/games/{game['game_id']}/disputes", {"attempt": refused["attempt"], "claim": claim}, token=token)


@pytest.fixture(scope="module")
def room(server):
    """Round 1 of six players: table 1 over, table 2 untouched (clocks running), table 3 with an open dispute."""
    t = _create(server, NAMES, auto_rounds=False)
    games = sorted(_links(server, t, 1), key=lambda g: g["table"])
    _bots(server, games[0])
    _until(lambda: _games(server, t["id"], 1)[0]["status"] == "finished")
    _dispute_a_refusal(server, games[2], "the strike was refused wrongly")
    return {"t": t, "games": games}


@pytest.fixture(scope="module")
def later(server):
    """Four players in round 2 (round 1 played to the end by bots; the next round starts by itself)."""
    t = _create(server, NAMES[:4], auto_rounds=True)
    for game in _links(server, t, 1):
        _bots(server, game)
    _until(lambda: len(server.ok("GET", f"/api/v1/tournaments/{t['id']}")["rounds"]) == 2)
    return t


def _page(chromium, server, path: str, width: int, height: int = 844):
    context = chromium.new_context(base_url=server.base, viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(path)
    return page


def _top(page, selector: str) -> float:
    return page.locator(selector).first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_tournament_page_opens_on_this_rounds_tables_with_standings_and_crosstable_below(chromium, server, room, width):
    page = _page(chromium, server, f"/tournaments/{room['t']['id']}", width)
    first = page.locator("#room tr.game").first
    box = first.bounding_box()
    assert box and box["y"] < 844, f"this round's first table starts {box and box['y']} px down at {width} px"
    assert _top(page, "#room") < _top(page, "#standings") < _top(page, "#crosstable")
    assert page.locator("#room tr.game").count() == 3
    assert page.locator("#tournament .game-title").inner_text() == "Small Battle"  # the game's title, not its id
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    shot(page, f"room-{width}", full_page=False)
    page.context.close()


def _left_seconds(text: str) -> int:
    minutes, seconds = text.split(" ")[0].split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_running_clock_shows_the_time_left_as_the_table_does_and_runs_on(chromium, server, room):
    """The defect: "Player36 0:00 (thinking)" while the table showed 2:26 used and 17:33 left."""
    game = room["games"][1]
    page = _page(chromium, server, f"/tournaments/{room['t']['id']}", 1280)
    row = page.locator(f"#room tr.game[data-game='{game['game_id']}']")
    clocks = server.ok("GET", f"/api/v1/games/{game['game_id']}")
    view = server.ok("GET", f"/api/v1/games/{game['game_id']}/view", token=game["referee_token"])["clock"]
    running = [c for c in view["seats"] if c["running"]]
    assert running, clocks
    seat = running[0]
    since = datetime.fromisoformat(seat["since"]).timestamp()
    shown = row.locator(f".glance-clock[data-seat='{seat['seat']}'] .time").inner_text()
    assert shown.endswith("left"), shown
    expected = GAME_SECONDS - seat["used_ms"] / 1000 - (time.time() - since)
    assert abs(_left_seconds(shown) - expected) <= 3, (shown, expected)
    assert expected < GAME_SECONDS - 2  # the fixture's bots took their time: a clock stuck at its start would fail
    time.sleep(2.2)
    later = row.locator(f".glance-clock[data-seat='{seat['seat']}'] .time").inner_text()
    assert _left_seconds(later) < _left_seconds(shown), (shown, later)
    page.context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_filters_show_playing_finished_or_disputed_tables_without_a_reload(chromium, server, room, width):
    page = _page(chromium, server, f"/tournaments/{room['t']['id']}", width)
    page.evaluate("() => { window.__stayed = true; }")
    games = _games(server, room["t"]["id"], 1)
    expected = {"finished": {g["game_id"] for g in games if g["status"] == "finished"},
                "playing": {g["game_id"] for g in games if g["status"] != "finished"},
                "disputes": {g["game_id"] for g in games if g["open_disputes"]}}
    assert all(expected.values()), expected
    for show, ids in expected.items():
        page.locator(f"#room-filter a[data-show='{show}']").click()
        visible = page.locator("#room tr.game").evaluate_all("rows => rows.filter(r => r.offsetParent).map(r => r.dataset.game)")
        assert set(visible) == ids, (show, visible, ids)
        assert f"show={show}" in page.url
        assert page.locator(f"#room-filter a[data-show='{show}']").get_attribute("aria-current") == "true"
    assert page.evaluate("() => window.__stayed") is True, "the filter reloaded the page"
    page.context.close()


def test_the_rooms_counts_follow_a_new_dispute_without_a_reload(chromium, server, room):
    from playwright.sync_api import expect

    page = _page(chromium, server, f"/tournaments/{room['t']['id']}", 390)
    page.evaluate("() => { window.__stayed = true; }")
    before = sum(g["open_disputes"] for g in _games(server, room["t"]["id"], 1))
    _dispute_a_refusal(server, room["games"][1], "again")
    expect(page.locator("#room-summary .count-disputes")).to_have_text(f"{before + 1} open disputes", timeout=15_000)
    expect(page.locator(f"#room tr.game[data-game='{room['games'][1]['game_id']}'] .disputes-open")).to_be_visible()
    assert page.evaluate("() => window.__stayed") is True, "the page was reloaded"
    page.context.close()


def test_print_gives_this_rounds_pairings_and_the_standings_not_the_crosstable_or_earlier_rounds(chromium, server, later):
    from playwright.sync_api import expect

    page = _page(chromium, server, f"/tournaments/{later['id']}?show=finished", 800, 1100)
    assert page.locator("#room").get_attribute("data-round") == "2"
    page.emulate_media(media="print")
    expect(page.locator("#room table.tables")).to_be_visible()
    assert page.locator("#room tr.game").evaluate_all("rows => rows.filter(r => r.offsetParent).length") == 2  # every table
    expect(page.locator("#standings")).to_be_visible()
    expect(page.locator("#crosstable")).to_be_hidden()
    expect(page.locator("#earlier")).to_be_hidden()
    expect(page.locator("header.top")).to_be_hidden()
    shot(page, "room-print")
    page.emulate_media(media="screen")
    page.evaluate("() => { window.print = () => { window.__printed = (window.__printed || 0) + 1; }; }")
    page.click("#print-pairings")
    page.emulate_media(media="print")
    expect(page.locator("#room table.tables")).to_be_visible()
    expect(page.locator("#standings")).to_be_hidden()
    page.evaluate("() => window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    page.click("#print-standings")
    page.emulate_media(media="print")
    expect(page.locator("#standings")).to_be_visible()
    expect(page.locator("#room")).to_be_hidden()
    assert page.evaluate("() => window.__printed") == 2
    page.context.close()
