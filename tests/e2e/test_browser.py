"""The browser pages end to end: real Chromium (Playwright's sync API) against `arbiter serve` on SQLite.

One server for the module (`arbiter serve --workers 1` on a fresh SQLite file, a free port) and one
headless Chromium, the system's (/usr/bin/chromium, launched with `executable_path`; no `playwright
install`). Without it the module is skipped, unless ARBITER_REQUIRE_BROWSER=1 (then it fails).

Every browser context is one person: a seat opens its own private link `/join/<game>/<token>`, the
referee the referee link, a spectator the plain table link. Stacked games are created through the
API (the lobby form cannot stack a deck) with the hands and moves of the rulebook's worked example 4
(4 players, teams A = seats 0, 2 and B = seats 1, 3; team A wins on the seventh move, revised edition).

Screenshots of the main pages go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support import stacked_deck
from tests.unit.test_worked_examples import EX4_HANDS, EX4_OPEN, EX4_REINFORCE, TEAMS_4

ROOT = Path(__file__).resolve().parents[2]
ARBITER = ROOT / ".venv" / "bin" / "arbiter"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOOT_TIMEOUT = 30.0
WAIT_MS = 10_000
# Every open table holds one gunicorn thread in its live stream until a heartbeat write fails (every 2 s) or the
# stream's minute ends; the tests run their own server with plenty of threads.
THREADS = 32  # every wait for the page (a live update, a navigation) gives up after this

# Worked example 4 (revised): 0 attacks 8H, 2 joins with 8S, 3 0 2 pass, 1 beats with KS, 2 throws in KC KD KH and wins.
EX4_MOVES = [(m[0], m[1], list(m[2]) if len(m) > 2 and m[2] is not None else []) for m in EX4_OPEN + EX4_REINFORCE["revised"]]
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}


def spoken(card: str) -> str:
    """The accessible name the pages give a card ("8S" -> "8 of spades", "KC" -> "king of clubs")."""
    return f"{RANKS.get(card[0], card[0])} of {SUITS[card[1]]}"


# -- the server and the browser ----------------------------------------------------------------------------------------


class Server:
    """The running `arbiter serve` and JSON calls to its API (urllib only)."""

    def __init__(self, base: str):
        self.base = base

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def ok(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        status, doc = self.call(method, path, body, token)
        assert status in (200, 201), f"{method} {path} -> {status}: {doc}"
        return doc

    def create_stacked(self, hands=EX4_HANDS, teams=TEAMS_4, edition="revised") -> "Game":
        spec = {"game": "el-royale", "options": {"edition": edition},
                "players": [{"name": f"P{i}", "team": teams[i]} for i in range(len(hands))],
                "seed": "00ff", "deck": stacked_deck(hands), "dealer": 0, "starter": 0}
        return Game(self, self.ok("POST", "/api/v1/games", spec))


class Game:
    """A created game: its id, seat tokens and referee token, with API shortcuts."""

    def __init__(self, server: Server, created: dict):
        self.server = server
        self.id = created["id"]
        self.tokens = [s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
        self.referee = created["referee_token"]

    def join_url(self, seat: int | None = None) -> str:
        """A seat's private link, or the referee's with seat None."""
        return f"/join/{self.id}/{self.referee if seat is None else self.tokens[seat]}"

    def move(self, seat: int, kind: str, cards=(), text: str | None = None) -> int:
        """Play a move through the API; the version its first event got (what a dispute names)."""
        body = {"type": kind} | ({"cards": list(cards)} if kind in ("attack", "throw_in", "beat", "take", "show") else {})
        body |= {"text": text} if text is not None else {}
        return self.server.ok("POST", f"/api/v1/games/{self.id}/moves", body, self.tokens[seat])["events"][0]["version"]

    def referee_view(self) -> dict:
        return self.server.ok("GET", f"/api/v1/games/{self.id}/view", token=self.referee)

    def replay(self, version: int) -> dict:
        return self.server.ok("GET", f"/api/v1/games/{self.id}/replay?version={version}", token=self.referee)

    def version(self) -> int:
        return self.server.ok("GET", f"/api/v1/games/{self.id}")["version"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chromium():
    """The system Chromium driven by Playwright (skipped when it is not installed, unless required)."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed (Debian package `chromium`)"
        if os.environ.get("ARBITER_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " and ARBITER_REQUIRE_BROWSER=1")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):
    """`arbiter serve` on a free port and a fresh SQLite file (started after the browser check, so a skip costs nothing)."""
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    workdir = tmp_path_factory.mktemp("e2e-browser")
    port = _free_port()
    log = open(workdir / "server.log", "w+")
    process = subprocess.Popen([str(ARBITER), "serve", "--port", str(port), "--database-url", f"sqlite:///{workdir / 'e2e.db'}",
                                "--workers", "1", "--threads", str(THREADS)], stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + BOOT_TIMEOUT
        while True:
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"arbiter serve exited with {process.returncode}:\n{log.read()}")
            try:
                with urllib.request.urlopen(base + "/api/v1/health", timeout=2) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"arbiter serve did not answer /api/v1/health within {BOOT_TIMEOUT} s")
            time.sleep(0.2)
        ARTIFACTS.mkdir(exist_ok=True)
        yield Server(base)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


class People:
    """Browser contexts (one per person) on the server, all closed at the end of a test."""

    def __init__(self, browser, server: Server):
        self.browser, self.server, self.contexts, self.requests = browser, server, [], {}

    def page(self, path: str, width: int = 1100, height: int = 900):
        context = self.browser.new_context(base_url=self.server.base, viewport={"width": width, "height": height})
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.new_page()
        self.requests[id(page)] = requests = []
        page.on("request", lambda r: requests.append((r.method, r.url)))
        page.goto(path)
        return page

    def panel_fetches(self, page) -> int:
        """How many times the page has fetched its table's panel (a live refresh) so far."""
        return sum(1 for method, url in self.requests[id(page)] if method == "GET" and url.endswith("/panel"))

    def table(self, game: Game, seat: int | None = None, referee: bool = False, **size):
        """The table as a seat (its private link), the referee (the referee link) or a spectator (the plain link)."""
        if seat is not None or referee:
            page = self.page(game.join_url(seat), **size)
        else:
            page = self.page(f"/games/{game.id}", **size)
        page.wait_for_url(re.compile(rf"/games/{game.id}$"))
        page.locator("#panel").wait_for()
        page.evaluate("window.__loadedOnce = true")  # gone if the page ever reloads
        return page

    def close(self):
        for context in self.contexts:
            context.close()
        self.contexts.clear()


@pytest.fixture
def people(chromium, server):
    crowd = People(chromium, server)
    yield crowd
    crowd.close()


def shot(page, name: str, full_page: bool = True) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


# -- reading the pages -------------------------------------------------------------------------------------------------


def card_names(page, selector: str) -> list[str]:
    """The accessible names of the cards (`.card` and card checkboxes) under `selector`, in page order."""
    return page.locator(selector).evaluate_all(
        """els => els.flatMap(el => [...el.querySelectorAll('.card')].map(c => {
               const box = c.querySelector('input[name=cards]');
               return (box && box.getAttribute('aria-label')) || c.getAttribute('aria-label') || c.getAttribute('title'); }))""")


def shown_version(page) -> int:
    return int(page.locator("#panel .version").inner_text())


def wait_for_version(page, version: int) -> None:
    """Wait until the table shows `version` (the panel is swapped live: no reload)."""
    from playwright.sync_api import expect

    expect(page.locator("#panel .version")).to_have_text(str(version))


def pick(page, cards) -> None:
    """Select cards of the hand by clicking them."""
    for c in cards:
        label = page.locator(f'#hand label.card.pick:has(input[value="{c}"])')
        label.click()
        assert label.locator("input").is_checked(), f"{c} was not selected by the click"


def play(page, kind: str, cards=()) -> None:
    """Click the cards and then the action button, and wait for the page to answer (a swapped panel)."""
    before = shown_version(page)
    page.evaluate("() => { window.__staleError = document.querySelector('#error'); }")  # an earlier attempt's
    pick(page, cards)
    page.locator(f"#controls button.act-{kind}").click()
    page.wait_for_function("v => { const e = document.querySelector('#panel .version'), error = document.querySelector('#error');"
                           " return (e && Number(e.textContent) !== v) || (error && error !== window.__staleError); }", arg=before)
    assert page.locator("#error").count() == 0, f"{kind} {cards} was refused: {page.locator('#error').inner_text()}"


def public_cards(view: dict, ledger: list[dict] = ()) -> set[str]:
    """The cards that are public at a referee view's version: the battle pile, shown cards, a laid-out hand, and
    whatever the disclosure ledger showed to all by then (a played card stays public; at the end, every card)."""
    t = view["table"]
    cards = set(t["battle_pile"])
    for s in t["seats"]:
        cards |= set(s.get("shown") or [])
    if t.get("laid_out"):
        cards |= set(t["laid_out"]["cards"])
    for entry in ledger:
        if entry["to"] == "all" and entry["version"] <= view["version"]:
            cards |= set(entry["cards"])
    return cards


def hidden_cards(view: dict, ledger: list[dict] = ()) -> set[str]:
    """Cards in hands (and the deck) that were not made public: what a spectator must never see."""
    t = view["table"]
    held = {c for s in t["seats"] for c in s.get("hand", [])} | set(t.get("deck") or [])
    return held - public_cards(view, ledger)


# -- the team game played in five browsers ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def team_game(chromium, server):
    """Worked example 4 played move by move in four seat contexts, a spectator watching in a fifth.

    Records what every page showed; the contexts are closed before the tests read the record.
    """
    crowd = People(chromium, server)
    game = server.create_stacked()
    seen = {"game": game, "moves": [], "spectator": [], "turn_shown": [], "final": {}}
    try:
        seats = {seat: crowd.table(game, seat) for seat in range(4)}
        spectator = crowd.table(game)
        shot(seats[0], "table-seat")
        shot(spectator, "table-spectator")
        view = game.referee_view()
        seen["spectator"].append((view["version"], card_names(spectator, "#panel"), view))
        for seat, kind, cards in EX4_MOVES:
            page = seats[seat]
            turn = page.locator("#turn")
            seen["turn_shown"].append((seat, turn.get_attribute("class"), turn.inner_text()))
            play(page, kind, cards)
            version = game.version()
            for p in [*seats.values(), spectator]:
                wait_for_version(p, version)
            view = game.referee_view()
            seen["moves"].append((seat, kind, cards, version))
            seen["spectator"].append((version, card_names(spectator, "#panel"), view))
        referee = crowd.table(game, referee=True)
        shot(referee, "table-referee")
        for name, page in [*((f"seat {s}", p) for s, p in seats.items()), ("spectator", spectator)]:
            result = page.locator("#result")
            seen["final"][name] = {"result": result.inner_text() if result.count() else None,
                                   "turn_left": page.locator("#turn").count(),
                                   "reloaded": not page.evaluate("window.__loadedOnce === true"),
                                   "actions": page.locator("#controls button.act").evaluate_all(
                                       "els => els.map(e => e.value)") if name != "spectator" else []}
        shot(seats[2], "table-seat-game-over")
        seen["view"] = game.referee_view()
        seen["ledger"] = server.ok("GET", f"/api/v1/games/{game.id}/audit", token=game.referee)["disclosures"]
    finally:
        crowd.close()
    return seen


def test_four_seats_in_four_browsers_play_a_stacked_team_game_to_a_win_and_every_table_shows_it_live(team_game):
    """Each move is clicked (cards, then the action) in the acting seat's own context, which shows "Your turn";
    every other table follows live, and after the winning move all of them show team A's win without a reload."""
    assert [(s, k, c) for s, k, c, _ in team_game["moves"]] == EX4_MOVES
    for (seat, classes, text), (move_seat, *_rest) in zip(team_game["turn_shown"], EX4_MOVES):
        assert seat == move_seat
        assert "mine" in classes.split() and text.startswith("Your turn"), (seat, classes, text)
    view = team_game["view"]
    assert view["status"] == "finished" and view["winner"] == {"seats": [0, 2], "team": "A"}
    assert view["table"]["battle_pile"] == ["8H", "8S", "KS", "KC", "KD", "KH"]
    assert set(team_game["final"]) == {"seat 0", "seat 1", "seat 2", "seat 3", "spectator"}
    for name, final in team_game["final"].items():
        assert final["result"] is not None, f"{name} shows no result"
        assert "Game over" in final["result"] and "team A" in final["result"], (name, final["result"])
        assert final["turn_left"] == 0, f"{name} still shows whose turn it is"
        assert not final["reloaded"], f"{name} was reloaded"
        assert final["actions"] in ([], ["show"]) or not set(final["actions"]) & {"attack", "throw_in", "beat", "pass"}, final


def test_a_spectator_watching_the_team_game_never_sees_a_hidden_card(team_game):
    """After every move the spectator's cards are all public by the referee's view of that moment (battle pile,
    shown cards, what the disclosure ledger showed to all), none is in a hand or the deck, and the whole
    battle pile is shown. Only once the game is over (the seed revealed) is every card public."""
    snapshots = team_game["spectator"]
    ledger = team_game["ledger"]
    assert len(snapshots) == len(EX4_MOVES) + 1
    for version, names, view in snapshots:
        assert view["version"] == version
        allowed = {spoken(c) for c in public_cards(view, ledger)}
        hidden = {spoken(c) for c in hidden_cards(view, ledger)}
        if view["status"] == "in_progress":
            assert len(hidden) == 52 - len(public_cards(view, ledger)), f"v{version}: the referee sees every card"
            assert len(allowed) < 52
        assert set(names) <= allowed, f"v{version}: the spectator sees {sorted(set(names) - allowed)}"
        assert not set(names) & hidden
        pile = [spoken(c) for c in view["table"]["battle_pile"]]
        assert [n for n in names if n in pile][: len(pile)] == pile, f"v{version}: the pile shown is {names}, not {pile}"
    in_progress = [names for _v, names, view in snapshots if view["status"] == "in_progress"]
    assert len(in_progress) == len(EX4_MOVES) and any(in_progress)


# -- replay, disputes, errors, keyboard --------------------------------------------------------------------------------


def _played(server: Server, moves) -> tuple[Game, list[int]]:
    game = server.create_stacked()
    return game, [game.move(seat, kind, cards) for seat, kind, cards in moves]


def replay_pile(page) -> list[str]:
    return card_names(page, "#battle-pile")


def test_the_replay_viewer_steps_by_deep_link_arrow_key_and_slider_and_shows_that_versions_battle_pile(people, server):
    """?version=N, then the right arrow (N+1), then the slider (M): each shows the version and its battle pile
    as GET /replay?version= has it."""
    from playwright.sync_api import expect

    game, _ = _played(server, EX4_MOVES)
    latest = game.version()
    piles = {v: game.replay(v)["table"]["battle_pile"] for v in range(1, latest + 1)}
    n = next(v for v in range(1, latest) if piles[v] and piles[v + 1] != piles[v])
    m = next(v for v in range(latest, n + 1, -1) if piles[v] not in (piles[n], piles[n + 1]))
    page = people.page(game.join_url())  # the referee
    page.goto(f"/games/{game.id}/replay?version={n}")
    expect(page.locator("#version")).to_have_text(str(n))
    assert replay_pile(page) == [spoken(c) for c in piles[n]]
    shot(page, "replay")

    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"version={n + 1}$"))
    expect(page.locator("#version")).to_have_text(str(n + 1))
    assert replay_pile(page) == [spoken(c) for c in piles[n + 1]]

    page.locator("#slider").fill(str(m))
    page.wait_for_url(re.compile(rf"version={m}$"))
    expect(page.locator("#version")).to_have_text(str(m))
    assert page.locator("#slider").input_value() == str(m)
    assert replay_pile(page) == [spoken(c) for c in piles[m]]

    page.locator("#prev").click()
    page.wait_for_url(re.compile(rf"version={m - 1}$"))
    assert replay_pile(page) == [spoken(c) for c in piles[m - 1]]


def test_a_dispute_filed_by_a_seat_and_upheld_with_a_rewind_by_the_referee_returns_the_table_to_before_the_move(people, server):
    """Seat 1 disputes seat 2's throw-in from the replay viewer; the referee upholds it with a rewind on the
    disputes page; seat 2's open table (live) and a fresh referee table show the pile, hand and turn of before."""
    from playwright.sync_api import expect

    game = server.create_stacked()
    game.move(0, "attack", ["8H"])
    before = game.referee_view()
    disputed = game.move(2, "throw_in", ["8S"])
    game.move(3, "pass")
    assert game.referee_view()["table"]["battle_pile"] == ["8H", "8S"]

    partner = people.table(game, 2)  # seat 2's table stays open throughout
    wait_for_version(partner, game.version())
    assert "8S" not in [i.get_attribute("value") for i in partner.locator("#hand input[name=cards]").all()]

    defender = people.page(game.join_url(1))
    defender.goto(f"/games/{game.id}/replay?version={disputed}")
    expect(defender.locator("#version")).to_have_text(str(disputed))
    defender.locator("form[action$='/disputes'] input[name=claim]").fill("the 8S was thrown in out of turn")
    defender.locator("form[action$='/disputes'] button[type=submit]").click()
    defender.wait_for_url(re.compile(rf"/games/{game.id}/disputes$"))
    row = defender.locator("tr.dispute[data-number='1']")
    expect(row).to_contain_text("out of turn")
    expect(row).to_contain_text(str(disputed))
    expect(row).to_contain_text("open")

    referee = people.page(game.join_url())
    referee.goto(f"/games/{game.id}/disputes")
    ruling = referee.locator("tr.dispute[data-number='1'] form.ruling")
    ruling.locator("select[name=decision]").select_option("upheld")
    ruling.locator("select[name=remedy]").select_option("rewind")
    ruling.locator("input[name=note]").fill("seat 2 had no join offer yet")
    shot(referee, "disputes-referee")
    ruling.locator("button[type=submit]").click()
    referee.wait_for_url(re.compile(rf"/games/{game.id}/disputes$"))
    expect(referee.locator("tr.dispute[data-number='1']")).to_contain_text("upheld, game rewound")
    shot(referee, "disputes")

    after = game.referee_view()
    assert after["table"]["battle_pile"] == before["table"]["battle_pile"] == ["8H"]
    assert after["table"]["to_act"] == before["table"]["to_act"] == 2
    assert [s.get("hand") for s in after["table"]["seats"]] == [s.get("hand") for s in before["table"]["seats"]]

    wait_for_version(partner, after["version"])  # live: the rewind reaches the open table
    assert card_names(partner, "#battle-pile") == [spoken("8H")]
    assert sorted(i.get_attribute("value") for i in partner.locator("#hand input[name=cards]").all()) == \
        sorted(before["table"]["seats"][2]["hand"])
    expect(partner.locator("#turn")).to_have_class(re.compile(r"\bmine\b"))
    assert partner.locator("#controls button.act-throw_in").count() == 1
    assert partner.evaluate("window.__loadedOnce === true"), "the table was reloaded"

    table = referee
    table.goto(f"/games/{game.id}")
    assert card_names(table, "#battle-pile") == [spoken("8H")]
    expect(table.locator("#turn")).to_contain_text("P2 to act")


def test_an_illegal_attempt_shows_its_clause_and_reason_next_to_the_controls(people, server):
    """Attack with no card selected: ER-3.1; a throw-in of the wrong rank: ER-3.7. The error sits in the controls,
    the game does not move on."""
    from playwright.sync_api import expect

    game = server.create_stacked()
    attacker = people.table(game, 0)
    attacker.locator("#controls button.act-attack").click()
    error = attacker.locator("#controls #error")
    expect(error.locator(".clause")).to_have_text("ER-3.1")
    expect(error).to_contain_text("at least one card")
    shot(attacker, "table-illegal-attempt")
    assert game.referee_view()["table"]["battle_pile"] == []
    attacker.wait_for_timeout(1500)  # no event since: nothing may swap the panel and take the error away
    expect(error.locator(".clause")).to_have_text("ER-3.1")
    assert people.panel_fetches(attacker) == 0, "the table refetched its panel for events it already showed"

    partner = people.table(game, 2)
    play(attacker, "attack", ["8H"])
    wait_for_version(partner, game.version())
    expect(partner.locator("#turn")).to_have_class(re.compile(r"\bmine\b"))
    pick(partner, ["KC"])
    partner.locator("#controls button.act-throw_in").click()
    error = partner.locator("#controls #error")
    expect(error.locator(".clause")).to_have_text("ER-3.7")
    expect(error).to_contain_text("rank 8")
    assert game.referee_view()["table"]["battle_pile"] == ["8H"]
    assert partner.locator("#hand input[value=KC]").count() == 1  # still in the hand


def _tab_to(page, matches: str, limit: int = 80):
    """Press Tab until the focused element matches the CSS selector; the focused element's description."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", matches):
            return page.evaluate("() => document.activeElement.outerHTML")
    raise AssertionError(f"Tab never reached {matches}")


def test_keyboard_reaches_cards_and_actions_and_space_selects_a_card_and_a_phone_shows_hand_and_actions_unscrolled(people, server):
    """Tab reaches every card of the hand and the action buttons, Space selects the focused card and Enter on
    Attack plays it; at 390 px wide the hand and the actions are on screen with no horizontal scrolling."""
    from playwright.sync_api import expect

    game = server.create_stacked()
    page = people.table(game, 0)
    reached = []
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => { const e = document.activeElement; return e && (e.name === 'cards' ? 'card:' + e.value"
                                " : (e.className || '').includes('act-') ? e.className : null); }")
        if focused:
            reached.append(focused)
        if focused and "act-show" in focused:
            break
    assert [r for r in reached if r.startswith("card:")] == [f"card:{c}" for c in ["2C", "3C", "4C", "8H"]], reached
    assert any("act-attack" in r for r in reached) and any("act-show" in r for r in reached), reached

    _tab_to(page, "input[name=cards][value='8H']")
    page.keyboard.press("Space")
    assert page.locator("#hand input[value='8H']").is_checked()
    assert page.evaluate("() => getComputedStyle(document.activeElement.closest('label')).outlineStyle") != "none"
    _tab_to(page, "button.act-attack")
    page.keyboard.press("Enter")
    expect(page.locator("#battle-pile")).to_contain_text("8")
    assert card_names(page, "#battle-pile") == [spoken("8H")]

    fresh = server.create_stacked()
    phone = people.table(fresh, 0, width=390, height=844)
    shot(phone, "table-phone", full_page=True)
    widths = phone.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= 390 + 1, f"the page scrolls sideways at 390 px: {widths}"
    for selector in ["#hand label.card.pick", "#controls button.act"]:
        items = phone.locator(selector)
        assert items.count() > 0, selector
        for i in range(items.count()):
            box = items.nth(i).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, (selector, i, box)
            expect(items.nth(i)).to_be_visible()


def test_the_lobby_form_creates_a_game_and_lists_the_private_links_the_audit_page_verifies_it(people, server):
    """The lobby form makes a four-player team game; its page lists one link per seat, the referee's and the
    spectators'; each seat link opens that seat's table; the referee's audit page shows the verified chain."""
    from playwright.sync_api import expect

    page = people.page("/")
    shot(page, "lobby")
    names = page.locator("input[name=name]")
    teams = page.locator("input[name=team]")
    for i, (name, team) in enumerate([("Ann", "red"), ("Bob", "blue"), ("Cy", "red"), ("Di", "blue")]):
        names.nth(i).fill(name)
        teams.nth(i).fill(team)
    page.locator("form.create button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Game created")
    shot(page, "created-links")
    links = page.locator("a.seat-link")
    assert [links.nth(i).get_attribute("data-seat") for i in range(links.count())] == ["0", "1", "2", "3"]
    assert page.locator("a.referee-link").count() == 1 and page.locator("a.spectator-link").count() == 1
    seat_link = links.nth(1).get_attribute("href")
    referee_link = page.locator("a.referee-link").get_attribute("href")
    game_id = re.search(r"/join/([^/]+)/", seat_link).group(1)

    bob = people.page(seat_link)
    bob.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(bob.locator(".who")).to_contain_text("You are Bob")
    assert bob.locator("#hand input[name=cards]").count() == 4

    referee = people.page(referee_link)
    referee.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(referee.locator(".who")).to_contain_text("Referee")
    referee.goto(f"/games/{game_id}/audit")
    expect(referee.locator("#chain-status")).to_contain_text("verified")
    expect(referee.locator("#deal-status")).to_be_visible()
    shot(referee, "audit")


def test_a_move_made_while_a_table_is_fetching_the_previous_one_still_reaches_that_table(people, server):
    """A live table fetches its panel on an event; a second move landing during that fetch (a slow server) must
    be fetched too, not dropped: the table ends on the second move's version without a reload."""
    game = server.create_stacked()
    page = people.table(game, 1)
    hold, held = {"on": False}, []
    page.route("**/panel", lambda route: held.append(route) if hold["on"] else route.continue_())
    page.wait_for_timeout(1000)  # let its live stream connect
    hold["on"] = True
    game.move(0, "attack", ["8H"])
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the attack did not make the table fetch its panel"
    first = held.pop(0)
    answer = first.fetch()  # the server's answer as of the attack
    hold["on"] = False
    game.move(2, "throw_in", ["8S"])  # lands while the table is still waiting for that answer
    page.wait_for_timeout(1000)  # its event reaches the table meanwhile
    first.fulfill(response=answer)
    for route in held:
        route.continue_()
    wait_for_version(page, game.version())
    assert card_names(page, "#battle-pile") == [spoken("8H"), spoken("8S")]
    assert page.evaluate("window.__loadedOnce === true")


def test_a_live_update_keeps_the_selected_card_the_keyboard_focus_and_a_half_typed_message(people, server):
    """Another seat's message swaps the panel: the card selected with Space stays selected and focused, and the
    text being typed into "Say to the table" stays there, focused, caret at its end; a message sent is cleared."""
    from playwright.sync_api import expect

    game = server.create_stacked()
    page = people.table(game, 0)
    page.wait_for_timeout(500)  # let its live stream connect
    _tab_to(page, "input[name=cards][value='8H']")
    page.keyboard.press("Space")
    game.move(1, "say", text="good luck")
    wait_for_version(page, game.version())
    assert page.evaluate("() => document.activeElement.matches(\"input[name=cards][value='8H']\")"), \
        page.evaluate("() => document.activeElement.outerHTML")
    assert page.locator("#hand input[value='8H']").is_checked()

    page.locator("input[name=text]").click()
    page.keyboard.type("you too, wait for")
    game.move(3, "say", text="hurry up")
    wait_for_version(page, game.version())
    box = page.locator("input[name=text]")
    assert box.input_value() == "you too, wait for"
    assert page.evaluate("() => document.activeElement.name") == "text"
    page.keyboard.type(" it")
    page.keyboard.press("Enter")  # sends it
    expect(page.locator("#panel .version")).to_have_text("6")
    assert game.version() == 6
    expect(box).to_have_value("")
    assert page.locator("#hand input[value='8H']").is_checked()
    said = [e["data"]["text"] for e in server.ok("GET", f"/api/v1/games/{game.id}/events", token=game.referee)
            if e["type"] == "said"]
    assert said == ["good luck", "hurry up", "you too, wait for it"]


def test_a_ninth_visitor_is_served_while_eight_tables_are_open_on_a_default_server(tmp_path):
    """`arbiter serve` with its default threads: eight tables watching a game (eight /live streams, as table.js
    opens them) must not lock everyone else out."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "server.log", "w+")
    process = subprocess.Popen([str(ARBITER), "serve", "--port", str(port), "--database-url",
                                f"sqlite:///{tmp_path / 'e2e.db'}"], stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
                               start_new_session=True)
    streams = []
    try:
        deadline = time.monotonic() + BOOT_TIMEOUT
        while True:
            try:
                urllib.request.urlopen(base + "/api/v1/health", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
                time.sleep(0.2)
        game = Server(base).create_stacked()
        for _ in range(8):
            stream = urllib.request.urlopen(f"{base}/games/{game.id}/live", timeout=5)
            assert stream.readline().startswith(b"retry:")
            streams.append(stream)
        urllib.request.urlopen(base + "/api/v1/health", timeout=3).read()
    finally:
        for stream in streams:
            stream.close()
        os.killpg(process.pid, signal.SIGKILL)  # this server's own group (master and worker): stuck streams never end
        process.wait(10)
        log.close()


# -- generic pages: the icon, the replay's labels, the game partials ------------------------------------------------------


def test_the_icon_is_linked_inline_and_favicon_ico_answers_and_the_replay_steppers_have_drawn_icons_and_words(people, server):
    """base.html links an inline SVG icon (no request); /favicon.ico answers with it; the replay's first/last
    buttons are drawn (SVG) and labelled in words, not with ⏮ ⏭ that many fonts lack."""
    from playwright.sync_api import expect

    with urllib.request.urlopen(server.base + "/favicon.ico", timeout=5) as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("image/svg+xml")
        assert response.read().startswith(b"<svg")
    game, _ = _played(server, EX4_MOVES[:2])
    page = people.page(f"/games/{game.id}/replay?version=2")
    assert page.locator("link[rel=icon]").get_attribute("href").startswith("data:image/svg+xml,")
    for button, word in [("#first", "First"), ("#prev", "Back"), ("#next", "Next"), ("#last", "Latest")]:
        expect(page.locator(button)).to_have_text(word)
        assert page.locator(f"{button} svg.icon").count() == 1
        box = page.locator(f"{button} svg.icon").bounding_box()
        assert box and box["width"] > 4 and box["height"] > 4, (button, box)
    assert "⏮" not in page.content() and "⏭" not in page.content()
    page.locator("#last").click()
    page.wait_for_url(re.compile(rf"version={game.version()}$"))


def test_a_seat_posts_an_exact_move_as_json_from_its_table_form(people, server):
    """The `move` field of the table's form (what the generic legal-move buttons post) is sent to the referee as
    it is: seat 0 attacks with 8H through it, and an object that is no move is refused next to the controls."""
    game = server.create_stacked()
    page = people.table(game, 0)
    before = game.version()
    bad = page.request.post(f"/games/{game.id}/act", form={"move": "[1, 2]"}, headers={"X-Arbiter-Partial": "1"})
    assert bad.status == 422 and 'id="error"' in bad.text() and game.version() == before
    answer = page.request.post(f"/games/{game.id}/act", headers={"X-Arbiter-Partial": "1"},
                               form={"move": json.dumps({"type": "attack", "cards": ["8H"]}), "expected_version": str(before)})
    assert answer.status == 200, answer.text()
    assert game.referee_view()["table"]["battle_pile"] == ["8H"]
    wait_for_version(page, game.version())
    assert card_names(page, "#battle-pile") == [spoken("8H")]


def test_a_game_with_its_own_partial_shows_the_generic_status_and_scores(people, server):
    """A Batallion table (its own partial) shows the generic parts: who is looking, the title, the version, whose
    turn, the per-seat scores (its chips) and the talk box; its seat sees its hand in the controls."""
    from playwright.sync_api import expect

    created = server.ok("POST", "/api/v1/games", {"game": "batallion", "players": [{"name": n} for n in ("Ann", "Bob", "Cy")]})
    game = Game(server, created)
    view = game.referee_view()
    page = people.table(game, view["table"]["to_act"])
    expect(page.locator(".who")).to_contain_text(view["title"])
    expect(page.locator("#turn")).to_contain_text("Your turn")
    scores = page.locator("#scores .score")
    assert scores.count() == 3
    assert [scores.nth(i).locator("strong").inner_text() for i in range(3)] == [str(c) for c in view["table"]["scores"]]
    assert page.locator("#hand .card").count() == len(view["table"]["seats"][view["table"]["to_act"]]["hand"])
    assert page.locator("#controls button.act").count() > 0
    assert page.locator("input[name=text]").count() == 1
    shot(page, "table-batallion")


def test_a_game_without_a_partial_gets_the_generic_one_whose_buttons_post_each_legal_move_as_it_is():
    """No browser: `games/_generic.html` draws a game that has no partial: its players, the seat's hand and one
    button per legal move whose value is that move's JSON; scores keyed by seat show in the status line."""
    from api.app import create_app
    from flask import render_template

    from projections.viewers import Viewer

    app = create_app({"DATABASE_URL": "memory://"})
    moves = [{"type": "play", "cards": ["8H"]}, {"type": "draw", "source": "stock"}, {"type": "pass"}]
    view = {"id": "00000000-0000-0000-0000-000000000001", "game": "no-such-game", "title": "Nothing", "options": {},
            "players": [{"seat": 0, "name": "Ann", "team": None}, {"seat": 1, "name": "Bob", "team": None}],
            "version": 3, "stacked": False, "status": "in_progress", "result": None, "winner": None, "disputes": [],
            "table": {"to_act": 0, "phase": "play", "scores": {0: 7, "1": 0}, "seats": [{"seat": 0, "hand_size": 1}],
                      "hand": ["8H"], "legal_moves": moves}}
    with app.test_request_context("/"):
        html = render_template("_panel.html", view=view, viewer=Viewer.of_seat(0), error=None, talk=[])
    values = re.findall(r"<button type=\"submit\" name=\"move\" value='([^']*)'", html)
    assert [json.loads(v) for v in values] == moves
    assert re.search(r'data-seat="0">Ann <strong>7</strong>', html) and re.search(r'data-seat="1">Bob <strong>0</strong>', html)
    assert 'class="seat acting" data-seat="0"' in html and 'id="controls"' in html
