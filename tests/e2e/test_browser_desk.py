"""The referee's desk, the "your turn" signal and a table that outlives its live stream, in Chromium.

This module runs its own `arbiter serve` (on a fresh SQLite file) because one test restarts it: a restart ends
every live stream the way a crash or a deploy does, and the table must say it is reconnecting, come back by
itself and go on showing moves. Games are El Royale's worked example 4 (tests/e2e/test_browser.py), whose
browser and helpers this module shares. Screenshots of the desk go to test-artifacts/ (desk-1280, desk-390).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request

import pytest

from tests.e2e.test_browser import (ARBITER, ARTIFACTS, BOOT_TIMEOUT, EX4_MOVES, People, Server, THREADS, _free_port,  # noqa: F401
                                    chromium, shot, wait_for_version)

TURN = "● Your turn · "


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


class Served:
    """`arbiter serve` on one port and one SQLite file, which a test may stop and start again."""

    def __init__(self, workdir):
        self.workdir, self.port = workdir, _free_port()
        self.api = Server(f"http://127.0.0.1:{self.port}")
        self.process = None
        self.log = open(workdir / "server.log", "a+")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(ARBITER), "serve", "--port", str(self.port), "--database-url", f"sqlite:///{self.workdir / 'desk.db'}",
             "--workers", "1", "--threads", str(THREADS)], stdout=self.log, stderr=subprocess.STDOUT, cwd=self.workdir)
        deadline = time.monotonic() + BOOT_TIMEOUT
        while True:
            if self.process.poll() is not None:
                self.log.seek(0)
                pytest.fail(f"arbiter serve exited with {self.process.returncode}:\n{self.log.read()}")
            try:
                with urllib.request.urlopen(self.api.base + "/api/v1/health", timeout=2) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"arbiter serve did not answer /api/v1/health within {BOOT_TIMEOUT} s")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.process = None


@pytest.fixture(scope="module")
def served(tmp_path_factory, chromium):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    s = Served(tmp_path_factory.mktemp("e2e-desk"))
    s.start()
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        yield s
    finally:
        s.stop()
        s.log.close()


@pytest.fixture
def people(chromium, served):
    crowd = People(chromium, served.api)
    yield crowd
    crowd.close()


def desk_rows(page) -> list[str]:
    return page.locator("table.desk tr.desk-row").evaluate_all("rows => rows.map(r => r.dataset.id)")


def create(server: Server, game: str, names: list[str]) -> dict:
    options = {"edition": "classic"} if game == "el-royale" else {}
    return server.ok("POST", "/api/v1/games", {"game": game, "options": options, "players": [{"name": n} for n in names]})


# -- the desk ------------------------------------------------------------------------------------------------------------


def test_the_desk_lists_open_disputes_first_filters_by_player_and_opens_a_table_in_one_click(people, served):
    server = served.api
    quiet = create(server, "small-battle", ["Odile", "Pierre"])
    disputed = server.create_stacked()
    seat, kind, cards = EX4_MOVES[0]
    version = disputed.move(seat, kind, cards)
    server.ok("POST", f"/api/v1/games/{disputed.id}/disputes", {"version": version, "claim": "that attack was out of turn"},
              disputed.tokens[1])
    newest = create(server, "batallion", ["Quentin", "Rosa", "Sven"])
    server.ok("GET", f"/api/v1/games/{quiet['id']}/audit/verify")  # a verification run keeps its verdict on the row

    page = people.page("/desk", width=1280, height=900)
    rows = desk_rows(page)
    assert rows[0] == disputed.id, "the game with an open dispute comes first"
    assert rows.index(newest["id"]) < rows.index(quiet["id"]), "then the newest"
    expect(page.locator(f'tr[data-id="{disputed.id}"] .badge.open')).to_have_text("1 open")
    expect(page.locator(f'tr[data-id="{quiet["id"]}"] .badge.ok')).to_have_text("intact")
    expect(page.locator(f'tr[data-id="{newest["id"]}"] .integrity')).to_have_text("not verified yet")
    shot(page, "desk-1280")

    page.locator("input[name=player]").fill("rOsA")
    page.locator("form.desk-filters button[type=submit]").click()
    page.wait_for_url(re.compile(r"player=rOsA"))
    assert desk_rows(page) == [newest["id"]]
    expect(page.locator("input[name=player]")).to_have_value("rOsA")

    page.goto("/desk?disputes=open")
    assert desk_rows(page) == [disputed.id]
    page.locator(f'tr[data-id="{disputed.id}"] .desk-links a', has_text="Table").click()
    page.wait_for_url(re.compile(rf"/games/{disputed.id}$"))
    expect(page.locator(".open-disputes")).to_contain_text("1 open dispute")

    phone = people.page("/desk", width=390, height=844)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the desk scrolls sideways at 390 px"
    expect(phone.locator(f'tr[data-id="{disputed.id}"] .desk-links a', has_text="Audit")).to_be_visible()
    shot(phone, "desk-390")


# -- your turn -----------------------------------------------------------------------------------------------------------

NOTIFICATIONS = """
window.__notes = [];
window.Notification = class { constructor(title, options) { window.__notes.push(title); } static get permission() { return "granted"; } };
"""


def test_the_title_says_your_turn_while_it_is_and_a_notification_comes_when_the_turn_arrives(people, served):
    game = served.api.create_stacked()
    pages = {}
    for seat in (0, 2):
        page = people.page("/", width=1100)
        page.context.add_init_script(NOTIFICATIONS)
        page.goto(game.join_url(seat))
        page.wait_for_url(re.compile(rf"/games/{game.id}$"))
        pages[seat] = page
    assert pages[0].title().startswith(TURN), "seat 0 attacks first"
    assert not pages[2].title().startswith("●")
    assert pages[0].evaluate("window.__notes") == [], "no notification for a turn the page opened on"

    seat, kind, cards = EX4_MOVES[0]  # 0 attacks; the join window's first offer goes to seat 2
    version = game.move(seat, kind, cards)
    for page in pages.values():
        wait_for_version(page, version)
    pages[2].wait_for_function("t => document.title.startsWith(t)", arg=TURN)
    assert not pages[0].title().startswith("●")
    assert pages[2].evaluate("window.__notes") == ["Your turn"]
    assert pages[0].evaluate("window.__notes") == []
    spectator = people.page(f"/games/{game.id}")
    assert not spectator.title().startswith("●") and spectator.locator(".notify-turn").count() == 0


# -- the stream goes away and comes back ----------------------------------------------------------------------------------


def test_a_table_whose_stream_dies_says_it_is_reconnecting_then_shows_later_moves_without_a_reload(people, served):
    game = served.api.create_stacked()
    page = people.table(game, seat=1)
    state = page.locator("#live-state")
    expect(state).to_be_hidden()

    served.stop()  # every stream ends; the browser's reconnection attempts fail while the server is down
    expect(state).to_be_visible()
    expect(state).to_have_text("Reconnecting…")
    served.start()
    expect(state).to_be_hidden(timeout=20_000)

    version = 0
    for seat, kind, cards in EX4_MOVES[:2]:
        version = game.move(seat, kind, cards)
    wait_for_version(page, version)
    assert page.evaluate("window.__loadedOnce") is True, "the page was reloaded"
    expect(page.locator("#panel .version")).to_have_text(str(version))
