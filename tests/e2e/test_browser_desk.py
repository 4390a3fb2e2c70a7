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


# -- disputes as one fact (issue 35) -------------------------------------------------------------------------------------


def test_the_desk_counts_a_clock_flag_names_the_tournament_table_and_who_is_to_act_with_the_time_left(people, served):
    """A tournament table whose seat ran out of time (the server's clock watcher flags it): the desk lists it under
    "open disputes" with the tournament, round and table, the seat to act "out of time"; a game with time left shows
    it running down; the disputes page reads the flag as the clock's, and says what upholding it means."""
    server = served.api
    cup = server.ok("POST", "/api/v1/tournaments", {"name": "Desk Cup", "game": "el-royale", "format": "round-robin",
                                                    "players": [{"name": "Nia"}, {"name": "Otto"}],
                                                    "time_control": {"move_seconds": 2, "start": "created"}})
    server.ok("POST", f"/api/v1/tournaments/{cup['id']}/rounds", token=cup["director_token"])
    table = server.ok("GET", f"/api/v1/tournaments/{cup['id']}")["rounds"][0]["tables"][0]
    gid = table["games"][0]["game_id"]
    slow = server.ok("POST", "/api/v1/games", {"game": "small-battle", "players": [{"name": "Uma"}, {"name": "Vic"}],
                                               "time_control": {"game_seconds": 900, "start": "created"}})
    deadline = time.monotonic() + 15
    while not server.ok("GET", f"/api/v1/games/{gid}")["disputes"]:  # the watcher flags the seat within a second
        assert time.monotonic() < deadline, "the clock watcher flagged nobody"
        time.sleep(0.3)
    flagged = server.ok("GET", f"/api/v1/games/{gid}")["disputes"][0]
    name = table["players"][flagged["seat"]]["name"]

    page = people.page("/desk?disputes=open", width=1280, height=900)
    assert gid in desk_rows(page), "the flagged table is among the games with open disputes"
    row = page.locator(f'tr[data-id="{gid}"]')
    expect(row.locator(".badge.open")).to_have_text("1 open")
    expect(row.locator(".placed")).to_have_text("Desk Cup · round 1 · table 1")
    expect(row.locator(".acting")).to_contain_text(f"to act: {name}")
    expect(row.locator(".acting .left")).to_have_text("out of time")
    row_api = next(r for r in server.ok("GET", "/api/v1/games") if r["id"] == gid)
    assert (row_api["disputes"], row_api["open_disputes"]) == (1, 1)

    page.goto("/desk")
    left = page.locator(f'tr[data-id="{slow["id"]}"] .acting .left').first  # both arrange at once: both to act
    expect(left).to_have_text(re.compile(r"^1[45]:\d\d left$"))
    first = left.text_content()
    expect(left).not_to_have_text(first, timeout=3_000)  # it runs down without a reload
    shot(page, "desk-acting-1280")

    links = server.ok("GET", f"/api/v1/tournaments/{cup['id']}/links", token=cup["director_token"])
    referee_token = next(g["referee_token"] for g in links["games"] if g["game_id"] == gid)
    referee = people.page(f"/join/{gid}/{referee_token}")
    referee.goto(f"/games/{gid}/disputes")
    flag = referee.locator("tr.dispute[data-number='1']")
    expect(flag.locator("td[data-label=by]")).to_have_text(f"clock: {name} out of time — automatic")
    expect(flag.locator("td[data-label=against]")).to_contain_text(f"{name}'s time for one move")
    expect(flag.locator(".ruling-meaning")).to_contain_text("Upheld: the flag stands")
    expect(flag.locator(".ruling-meaning")).to_contain_text("Rejected: the flag is withdrawn")
    assert flag.locator("select[name=remedy]").count() == 0, "a flag changed no move: no rewind is offered"
    shot(referee, "disputes-clock-flag")
    flag.locator("select[name=decision]").select_option("upheld")
    flag.locator("input[name=note]").fill("lost on time")
    flag.locator("button[type=submit]").click()
    referee.wait_for_url(re.compile(rf"/games/{gid}/disputes$"))
    expect(referee.locator("tr.dispute[data-number='1']")).to_contain_text("upheld: lost on time")
    page.goto("/desk?disputes=open")
    assert gid not in desk_rows(page)


def test_a_refused_ruling_comes_back_with_the_referee_s_decision_remedy_and_note_and_the_refusal_beside_them(people, served):
    server = served.api
    game = server.create_stacked()
    version = game.move(0, "attack", ["8H"])
    server.ok("POST", f"/api/v1/games/{game.id}/disputes", {"version": version, "claim": "out of turn"}, game.tokens[1])
    referee = people.page(game.join_url())
    referee.goto(f"/games/{game.id}/disputes")
    form = referee.locator("tr.dispute[data-number='1'] form.ruling")
    expect(form.locator(".ruling-meaning")).to_contain_text("Rejected: the move stands")
    form.locator("select[name=decision]").select_option("rejected")
    form.locator("select[name=remedy]").select_option("rewind")
    form.locator("input[name=note]").fill("P0 was first to attack (ER-3.1)")
    form.locator("button[type=submit]").click()
    expect(referee.locator("#ruling-error")).to_have_text("Not ruled: remedy: a rewind needs the dispute upheld")
    form = referee.locator("tr.dispute[data-number='1'] form.ruling")
    expect(form.locator("select[name=decision]")).to_have_value("rejected")
    expect(form.locator("select[name=remedy]")).to_have_value("rewind")
    expect(form.locator("input[name=note]")).to_have_value("P0 was first to attack (ER-3.1)")
    shot(referee, "disputes-refused-ruling")
    form.locator("select[name=remedy]").select_option("none")
    form.locator("button[type=submit]").click()
    referee.wait_for_url(re.compile(rf"/games/{game.id}/disputes$"))
    expect(referee.locator("tr.dispute[data-number='1']")).to_contain_text("rejected: P0 was first to attack (ER-3.1)")
