"""Every page of every game at 1280 and 390 px in Chromium: none is wider than the window, no character falls back
to an empty box, no page logs a console error; and the pages' own defects of issue 28 that only a browser shows.

One server and one browser for the module (tests/e2e/test_browser.py's fixtures). The room: a game of each game
played a few moves by the bots through the API (with a time control), a refused attempt, a dispute ruled with a
rewind and one left open, and an uploaded record. Each page is loaded once per identity and measured at 1280 px,
then resized to 390 px and measured again (the media queries apply on resize).

A glyph with no font: the character drawn on a canvas in the page's font gives the same pixels as U+10FFFD (no
character: the font's empty box), which is what a missing glyph draws.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bots import SeatView, make_bot
from domain.games import SPECS
from tests.e2e.test_browser import ROOT, chromium, server  # noqa: F401 (fixtures)

WIDTHS = (1280, 390)
NAMES = ["Ann", "Ben", "Cat", "Dan"]
ERROR_PAGES = ("/games/00000000-0000-4000-8000-000000000000", "/rules/no-such-game")  # 404 pages (their own status is logged)
MEASURE = """() => {
  const width = window.innerWidth, wide = document.documentElement.scrollWidth;
  const culprits = wide <= width ? [] : [...document.querySelectorAll('body *')].filter(e => {
      const r = e.getBoundingClientRect(); return r.right > width + 1 && r.width > 0; })
    .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > width + 1))
    .slice(0, 5).map(e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} "${(e.textContent || '').trim().slice(0, 40)}"`);
  // a box that scrolls sideways inside the page is as bad on a phone as a page that does
  const scrollers = [...document.querySelectorAll('body *')].filter(e => !/^(INPUT|SELECT|TEXTAREA)$/.test(e.tagName)
      && /auto|scroll|hidden/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    .slice(0, 5).map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} (${e.scrollWidth}px in ${e.clientWidth}px)`);
  const chars = [...new Set([...document.body.innerText].filter(ch => ch.codePointAt(0) > 0x7f && !/\\s/.test(ch)
                                                              && !/[\\uFE00-\\uFE0F\\u200B-\\u200D]/u.test(ch)))];
  const canvas = document.createElement('canvas'); canvas.width = 48; canvas.height = 48;
  const pen = canvas.getContext('2d'), font = getComputedStyle(document.body).font;
  const draw = ch => { pen.clearRect(0, 0, 48, 48); pen.font = font; pen.textBaseline = 'top'; pen.fillText(ch, 4, 4);
                       return pen.getImageData(0, 0, 48, 48).data.join(','); };
  const box = draw('\\u{10FFFD}');
  return { width, wide, culprits, scrollers, boxes: chars.filter(ch => draw(ch) === box) };
}"""


def sample_record(game: str) -> dict:
    path = sorted((ROOT / "tests" / "records" / game).glob("*.json"))
    return json.loads(next(p for p in path if not p.name.endswith(".expected.json")).read_text())


def play(server, game: str, seats: list[str], referee: str, gid: str, moves: int, rng: random.Random) -> list[int]:
    """`moves` moves chosen by the random bots from each seat's own view (through the API); the version each began."""
    bots = [make_bot("random", game, s, rng) for s in range(len(seats))]
    versions = []
    for _ in range(moves):
        view = server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)
        if view["status"] == "finished":
            break
        seat = view["table"].get("to_act")
        if seat is None:  # a simultaneous phase: whoever has moves
            seat = next((s for s, t in enumerate(seats)
                         if server.ok("GET", f"/api/v1/games/{gid}/view", token=t)["table"].get("legal_moves")), None)
        if seat is None:
            break
        mine = server.ok("GET", f"/api/v1/games/{gid}/view", token=seats[seat])
        move = {k: v for k, v in bots[seat].choose(SeatView.from_http(mine)).items() if k != "seat"}
        versions.append(server.ok("POST", f"/api/v1/games/{gid}/moves", move, token=seats[seat])["events"][0]["version"])
    return versions


@pytest.fixture(scope="module")
def room(server):
    """A game of each game a few moves in (clocks running), with a refusal, disputes and an uploaded record."""
    rng = random.Random("layout")
    games = {}
    for game in sorted(SPECS):
        spec = SPECS[game]
        for n in (4, 3, 2):
            status, created = server.call("POST", "/api/v1/games", {
                "game": game, "options": spec.example_options[0], "seed": f"{rng.getrandbits(32):08x}",
                "players": [{"name": NAMES[i]} for i in range(n)], "time_control": {"game_seconds": 600}})
            if status == 201:
                break
        gid, referee = created["id"], created["referee_token"]
        seats = [s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
        played = play(server, game, seats, referee, gid, 4, rng)
        view = server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)
        idle = next((s for s in range(len(seats)) if s != view["table"].get("to_act")), 0)
        server.call("POST", f"/api/v1/games/{gid}/moves", {"type": "pass"}, token=seats[idle])  # refused, most likely
        first = server.ok("POST", f"/api/v1/games/{gid}/disputes", {"version": played[-1], "claim": "that was out of turn"},
                          token=seats[idle])
        server.ok("POST", f"/api/v1/games/{gid}/disputes/{first['number']}/ruling",
                  {"decision": "upheld", "remedy": "rewind", "note": "played again from before it"}, token=referee)
        server.ok("POST", f"/api/v1/games/{gid}/disputes", {"version": played[0], "claim": "a card was shown"},
                  token=seats[idle])
        games[game] = {"id": gid, "referee": referee, "seats": seats, "idle": idle}
    imported = server.ok("POST", "/api/v1/records", sample_record(sorted(SPECS)[0]))
    tournament = server.ok("POST", "/api/v1/tournaments", {
        "name": "Club night", "game": "el-royale", "players": [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")],
        "format": "round-robin", "time_control": {"game_seconds": 600}})
    server.ok("POST", f"/api/v1/tournaments/{tournament['id']}/rounds", {}, token=tournament["director_token"])
    return {"games": games, "imported": imported["id"], "tournament": tournament}


@pytest.fixture(scope="module")
def pages_seen(chromium, server, room):
    """Every page as each identity sees it, measured at both widths: {(who, path, width): measure}; console errors."""
    seen, errors = {}, []

    def visit(context, who: str, paths: list[str]) -> None:
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and errors.append((who, page.url, m.text)))
        for path in paths:
            page.set_viewport_size({"width": WIDTHS[0], "height": 900})
            page.goto(path)
            page.wait_for_load_state("load")
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                seen[(who, path, width)] = page.evaluate(MEASURE)
        page.close()

    anyone = chromium.new_context(base_url=server.base)
    t = room["tournament"]
    everyone = ["/", "/tournaments", f"/tournaments/{t['id']}", "/rules", *(f"/rules/{g}" for g in sorted(SPECS)), "/desk", "/records/upload",
                f"/games/{room['imported']}", f"/games/{room['imported']}/replay", f"/games/{room['imported']}/audit",
                *ERROR_PAGES]
    everyone += [f"/games/{g['id']}" for g in room["games"].values()]  # a spectator's table (the rest: below)
    visit(anyone, "anyone", everyone)
    anyone.close()
    director = chromium.new_context(base_url=server.base)
    director.new_page().goto(f"/tournaments/{t['id']}/director/{t['director_token']}")
    visit(director, "the director", [f"/tournaments/{t['id']}"])
    director.close()
    for game, g in room["games"].items():
        for who, token in (("referee", g["referee"]), ("seat", g["seats"][g["idle"]])):
            context = chromium.new_context(base_url=server.base)
            context.new_page().goto(f"/join/{g['id']}/{token}")
            base = f"/games/{g['id']}"
            paths = [base, f"{base}/audit", f"{base}/disputes"] + ([f"{base}/replay", f"{base}/links"] if who == "referee" else [])
            visit(context, f"{who} of {game}", paths)
            context.close()
    return seen, errors


def test_no_page_of_any_game_is_wider_than_the_window_at_1280_or_390_px(pages_seen):
    seen, _ = pages_seen
    wide = {f"{who} {path} at {width}px: {m['wide']}px wide ({'; '.join(m['culprits'])})"
            for (who, path, width), m in seen.items() if m["wide"] > m["width"]}
    wide |= {f"{who} {path} at {width}px scrolls sideways inside: {'; '.join(m['scrollers'])}"
             for (who, path, width), m in seen.items() if m["scrollers"]}
    assert not wide, "\n".join(sorted(wide))


def test_no_character_on_any_page_falls_back_to_an_empty_box(pages_seen):
    seen, _ = pages_seen
    boxes = {f"{path}: {' '.join(f'{ch} U+{ord(ch):04X}' for ch in m['boxes'])}" for (who, path, width), m in seen.items()
             if m["boxes"]}
    assert not boxes, "\n".join(sorted(boxes))


def test_no_page_logs_a_console_error(pages_seen):
    _, errors = pages_seen
    errors = [(who, url, text) for who, url, text in errors if not any(url.endswith(path) for path in ERROR_PAGES)]
    assert not errors, "\n".join(f"{who} {url}: {text}" for who, url, text in errors)


# -- what only a browser shows, one page load each ---------------------------------------------------------------------


def test_a_rulebook_has_contents_one_edition_at_a_time_and_its_clauses_read_as_text_with_a_plain_rules_link(chromium, server):
    """/rules/el-royale: a contents list links every numbered section; a clause reads as text (not code on pink),
    and the one a link points at is highlighted; "classic only" hides the revised texts and keeps the classic ones;
    the header's "Rules" link is no bolder than the others."""
    context = chromium.new_context(base_url=server.base, viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto("/rules/el-royale#ER-3.4")
    toc = page.locator("#contents .toc a")
    assert toc.count() >= 7 and toc.first.get_attribute("href") == "#ER-1"
    style = page.locator("li.clause#ER-3\\.4").evaluate(
        "e => { const s = getComputedStyle(e); return [s.fontFamily, s.backgroundColor]; }")
    assert "monospace" not in style[0] and style[1] != "rgb(253, 226, 226)", style
    assert style[1] == "rgb(255, 244, 204)", f"the clause a link points at is not highlighted: {style}"
    weights = page.locator("header.top a:not(.brand)").evaluate_all("els => els.map(e => getComputedStyle(e).fontWeight)")
    assert len(set(weights)) == 1, weights
    page.locator("#editions a", has_text="classic only").click()
    page.wait_for_url(re.compile(r"edition=classic"))
    assert page.locator("li.edition[data-edition=revised]").evaluate_all("els => els.filter(e => e.offsetParent).length") == 0
    assert page.locator("li.edition[data-edition=classic]").evaluate_all("els => els.filter(e => e.offsetParent).length") >= 3
    context.close()


def test_the_audit_links_its_clauses_filters_by_who_and_kind_and_the_disputes_ask_for_a_decision(chromium, server, room):
    """The referee's audit: every clause cell is a link to its rule, the filter keeps one seat's entries only, the
    "table at version N" panel says what it shows. The referee's disputes page: the open dispute's decision is not
    chosen in advance, and each dispute names the move it is against in words."""
    g = room["games"]["el-royale"]
    context = chromium.new_context(base_url=server.base, viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"/join/{g['id']}/{g['referee']}")
    page.goto(f"/games/{g['id']}/audit")
    cells = page.locator("td.clause-cell")
    filled = cells.evaluate_all("els => els.filter(e => e.textContent.trim()).map(e => !!e.querySelector('a.clause[href*=\"/rules/\"]'))")
    assert filled and all(filled), filled
    assert page.locator("#table-now p").count() >= 1
    page.locator("#audit-filter select[name=who]").select_option(f"seat:{g['idle']}")
    page.locator("#audit-filter select[name=kind]").select_option(index=0)
    page.locator("#audit-filter button").click()
    page.wait_for_url(re.compile(r"who=seat"))
    who = page.locator("table.audit-log tr.entry td[data-label=who]").evaluate_all("els => els.map(e => e.textContent.trim())")
    assert who and set(who) == {NAMES[g["idle"]]}, who
    page.goto(f"/games/{g['id']}/disputes")
    open_form = page.locator("form.ruling")
    assert open_form.count() == 1 and open_form.locator("select[name=decision]").input_value() == ""
    words = page.locator(".disputed-move").evaluate_all("els => els.map(e => e.textContent.trim())")
    assert len(words) == 2 and all(words), words
    context.close()


def test_simultaneous_turns_are_named_and_the_notification_offer_sits_in_a_panel(chromium, server):
    """Small Battle while formations are set: the status says whose turn it is (both seats) and the phase; the
    "Notify me" offer (when the browser may still ask) is inside a panel."""
    created = server.ok("POST", "/api/v1/games", {"game": "small-battle", "players": [{"name": "Ann"}, {"name": "Ben"}]})
    context = chromium.new_context(base_url=server.base, viewport={"width": 390, "height": 900})
    # a browser that may still ask (headless Chromium answers "denied" by itself)
    context.add_init_script("Object.defineProperty(Notification, 'permission', { get: () => 'default' })")
    page = context.new_page()
    page.goto(f"/join/{created['id']}/{created['seats'][0]['token']}")
    turn = page.locator("#turn")
    assert turn.count() == 1 and "Your turn" in turn.inner_text() and "Ben" in turn.inner_text(), turn.all_inner_texts()
    assert "formation" in turn.inner_text()
    spectator = context.new_page()
    spectator.goto(f"/leave/{created['id']}")
    assert "Ann and Ben to act" in spectator.locator("#turn").inner_text()
    offers = page.locator(".notify-turn").evaluate_all("els => els.map(e => !!e.closest('.panel'))")
    assert offers == [True], offers
    context.close()
