"""The referee's desk: the catalogue's dispute counts, filters and order (memory://, a SQLite file, PostgreSQL),
the verdict a verification run keeps on a row, and the /desk page on top of them.

PostgreSQL runs when ARBITER_TEST_POSTGRES_URL is set (tests/integration/conftest.py).
"""

from __future__ import annotations

import random
import re
from uuid import UUID

import pytest

from service.errors import BadInput
from service.facade import Arbiter
from tests.integration.service_support import RawEvents, pick, raw_move
from service.play.commands import FileDispute, GiveRuling, NameSeat, PlayMove
from service.play.new_games import CreateGame

CARD_CODE = re.compile(r"\b(?:[A2-9TJQK][CDHS]|10[CDHS]|JK)\b")


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def facade(request, stores, tmp_path):
    url = stores.url(request.param)
    arbiter = Arbiter(url, key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))
    stores._apps.append(arbiter.app)  # closed at teardown
    return arbiter


def new_game(facade: Arbiter, *names: str, game: str = "el-royale") -> dict:
    options = {"edition": "revised"} if game == "el-royale" else {}
    return facade.play.create_game(CreateGame.from_body({"game": game, "options": options, "players": [{"name": n} for n in names]}))


def play_moves(facade: Arbiter, created: dict, count: int, seed: int = 3) -> list[int]:
    """Play `count` legal El Royale moves; the version of each move's first event."""
    rng, versions = random.Random(seed), []
    gid = UUID(created["id"])
    for _ in range(count):
        move = pick(facade.app.game(gid), rng)
        token = created["seats"][move["seat"]]["token"]
        versions.append(facade.play.move(token, PlayMove.from_body(created["id"], raw_move(move)))["events"][0]["version"])
    return versions


def dispute(facade: Arbiter, created: dict, version: int, seat: int = 1) -> int:
    return facade.play.file_dispute(created["seats"][seat]["token"], FileDispute.from_body(created["id"], {"version": version, "claim": "not so"}))["number"]


def retime(raw: RawEvents, gid: UUID, version: int) -> None:
    """Change the last digit of a stored event's timestamp: the row still decodes, its hash no longer links."""
    state = raw.state(gid, version)
    end = re.search(rb'"_data_":"[^"+]*', state).end() - 1
    raw.set_state(gid, version, state[:end] + bytes([ord("0") + (state[end] - ord("0") + 1) % 10]) + state[end + 1:])


def ids(rows: list[dict]) -> list[str]:
    return [r["id"] for r in rows]


# -- the catalogue ---------------------------------------------------------------------------------


def test_a_dispute_is_counted_open_until_the_referee_rules_on_it(facade):
    g = new_game(facade, "Ann", "Bob")
    first, second = play_moves(facade, g, 2)
    dispute(facade, g, first)
    dispute(facade, g, second, seat=0)
    row = facade.lobby.catalogue()[0]
    assert (row["disputes"], row["open_disputes"]) == (2, 2)
    facade.play.rule(g["referee_token"], GiveRuling.from_body(g["id"], 1, {"decision": "rejected", "note": "the move was legal"}))
    row = facade.lobby.catalogue()[0]
    assert (row["disputes"], row["open_disputes"]) == (2, 1)


def test_a_clock_flag_is_counted_with_the_seats_disputes_and_found_by_the_open_filter(facade):
    """Issue 35: the clock's automatic flags are disputes like a seat's (domain.disputes), on every store."""
    from service.store.server_clock import server_ms

    g = facade.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"},
                                                      "players": [{"name": "Ann"}, {"name": "Bob"}],
                                                      "time_control": {"move_seconds": 10}}))
    quiet = new_game(facade, "Cy", "Dee")
    dispute(facade, g, play_moves(facade, g, 1)[0])
    assert facade.app.check_clocks(UUID(g["id"]), server_ms() + 11_000) == [2]
    row = facade.lobby.caught_up().get(g["id"])
    assert (row["disputes"], row["open_disputes"]) == (2, 2)
    assert ids(facade.lobby.catalogue(open_disputes=True)) == [g["id"]]
    facade.play.rule(g["referee_token"], GiveRuling.from_body(g["id"], 1, {"decision": "rejected"}))
    assert ids(facade.lobby.catalogue(open_disputes=True)) == [g["id"]]  # the flag still awaits its ruling
    facade.play.rule(g["referee_token"], GiveRuling.from_body(g["id"], 2, {"decision": "upheld"}))
    assert ids(facade.lobby.catalogue(open_disputes=False)) == [g["id"], quiet["id"]]


def test_the_desk_order_puts_games_with_open_disputes_first_then_the_newest(facade):
    old = new_game(facade, "Ann", "Bob")
    disputed = new_game(facade, "Cy", "Dee")
    ruled = new_game(facade, "Eve", "Fay")
    newest = new_game(facade, "Gus", "Hal")
    dispute(facade, disputed, play_moves(facade, disputed, 1)[0])
    dispute(facade, ruled, play_moves(facade, ruled, 1)[0])
    facade.play.rule(ruled["referee_token"], GiveRuling.from_body(ruled["id"], 1, {"decision": "upheld", "note": "noted"}))
    assert ids(facade.lobby.catalogue()) == [old["id"], disputed["id"], ruled["id"], newest["id"]]  # creation order stays
    assert ids(facade.lobby.catalogue(order="desk")) == [disputed["id"], newest["id"], ruled["id"], old["id"]]
    assert ids(facade.lobby.catalogue(open_disputes=True)) == [disputed["id"]]
    assert ids(facade.lobby.catalogue(open_disputes=False, order="desk")) == [newest["id"], ruled["id"], old["id"]]


def test_the_player_filter_finds_part_of_any_name_in_any_case_and_takes_wildcards_literally(facade):
    ann = new_game(facade, "Ann Lee", "Bob_9")
    cy = new_game(facade, "Cy", "Dan%", "ANNA")
    assert ids(facade.lobby.catalogue(player="ann")) == [ann["id"], cy["id"]]
    assert ids(facade.lobby.catalogue(player="lee")) == [ann["id"]]
    assert ids(facade.lobby.catalogue(player="_")) == [ann["id"]]  # not "any character"
    assert ids(facade.lobby.catalogue(player="n%")) == [cy["id"]]  # not "anything"
    assert ids(facade.lobby.catalogue(player="b_9")) == [ann["id"]]
    assert facade.lobby.catalogue(player="zed") == []


def test_a_name_given_at_the_table_is_what_the_player_filter_finds(facade):
    g = new_game(facade, "Seat A", "Seat B")
    facade.play.name_seat(g["seats"][1]["token"], NameSeat.from_body(g["id"], {"name": "Mireille"}))
    assert ids(facade.lobby.catalogue(player="mireille")) == [g["id"]]
    assert facade.lobby.catalogue(player="seat b") == []
    assert [p["name"] for p in facade.lobby.catalogue()[0]["players"]] == ["Seat A", "Mireille"]


def test_filters_combine(facade):
    royale = new_game(facade, "Ann", "Bob")
    battle = new_game(facade, "Ann", "Cy", game="small-battle")
    dispute(facade, royale, play_moves(facade, royale, 1)[0])
    assert ids(facade.lobby.catalogue(player="ann", game="small-battle")) == [battle["id"]]
    assert ids(facade.lobby.catalogue(player="ann", open_disputes=True, status="in_progress")) == [royale["id"]]
    assert facade.lobby.catalogue(player="ann", open_disputes=True, status="finished") == []


@pytest.mark.parametrize("filters, field", [({"player": "x" * 65}, "player"), ({"player": "a\nb"}, "player"),
                                             ({"player": ""}, "player"), ({"order": "random"}, "order"),
                                             ({"open_disputes": "yes"}, "open_disputes"), ({"tampered": 1}, "tampered")])
def test_a_bad_filter_is_refused_naming_it(facade, filters, field):
    new_game(facade, "Ann", "Bob")
    with pytest.raises(BadInput) as refused:
        facade.lobby.catalogue(**filters)
    assert refused.value.field == field and refused.value.detail.startswith(field)


def test_verification_keeps_its_verdict_on_the_row_and_only_verification_changes_it(facade):
    g = new_game(facade, "Ann", "Bob")
    assert facade.lobby.catalogue()[0]["integrity"] is None  # never verified: not "intact"
    assert ids(facade.lobby.catalogue(tampered=False)) == [g["id"]]
    play_moves(facade, g, 2)
    report = facade.verification.verify(g["id"])
    kept = facade.lobby.catalogue()[0]["integrity"]
    assert report["ok"] is True and kept["ok"] is True and kept["version"] == facade.app.game(UUID(g["id"])).version
    assert kept["problem"] is None and kept["checked_at"]
    play_moves(facade, g, 1, seed=5)  # the fold moves the row on and keeps the verdict (with the version it was for)
    row = facade.lobby.catalogue()[0]
    assert row["version"] > kept["version"] and row["integrity"] == kept
    assert facade.lobby.catalogue(tampered=True) == []


# -- tampering (stores whose rows can be edited behind the service's back) --------------------------


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_verification_that_finds_a_changed_row_marks_the_game_tampered_and_the_filter_finds_it(stores, tmp_path, kind):
    url = stores.url(kind)
    facade = Arbiter(url, key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))
    stores._apps.append(facade.app)
    intact, edited = new_game(facade, "Ann", "Bob"), new_game(facade, "Cy", "Dee")
    for g in (intact, edited):
        play_moves(facade, g, 4)
    facade.lobby.catalogue()
    raw = RawEvents(kind, url)
    try:
        retime(raw, UUID(edited["id"]), 3)
    finally:
        raw.close()
    assert facade.lobby.catalogue(tampered=True) == []  # nothing is verified behind the referee's back ...
    checker = Arbiter(url, key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))  # ... until a run
    stores._apps.append(checker.app)
    reports = {gid: checker.verification.verify(gid) for gid in (intact["id"], edited["id"])}
    assert reports[edited["id"]]["ok"] is False and reports[intact["id"]]["ok"] is True
    assert ids(facade.lobby.catalogue(tampered=True)) == [edited["id"]]
    assert ids(facade.lobby.catalogue(tampered=False)) == [intact["id"]]
    marked = facade.lobby.catalogue(tampered=True)[0]["integrity"]
    assert marked["ok"] is False and marked["problem"].startswith("chain")


# -- the page -------------------------------------------------------------------------------------


@pytest.fixture
def web(tmp_path):
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'desk.db'}"})
    return app, app.extensions["arbiter"], app.test_client()


def desk_ids(html: str) -> list[str]:
    return re.findall(r'<tr class="desk-row[^"]*" data-id="([^"]+)"', html)


def test_the_desk_page_lists_open_disputes_first_with_one_link_each_to_table_replay_and_audit(web):
    _, facade, client = web
    quiet, disputed = new_game(facade, "Ann", "Bob"), new_game(facade, "Cy", "Dee")
    dispute(facade, disputed, play_moves(facade, disputed, 1)[0])
    newest = new_game(facade, "Eve", "Fay")
    page = client.get("/desk")
    assert page.status_code == 200
    assert desk_ids(page.text) == [disputed["id"], newest["id"], quiet["id"]]
    for gid in (quiet["id"], disputed["id"]):
        for path in ("", "/replay", "/audit"):
            assert page.text.count(f'href="/games/{gid}{path}"') == 1
    assert "1 open" in page.text and f'href="/games/{disputed["id"]}/disputes"' in page.text
    assert "Cy" in page.text and "Dee" in page.text


def test_the_desk_page_filters_from_its_address_and_keeps_the_form(web):
    _, facade, client = web
    ann = new_game(facade, "Ann", "Bob")
    battle = new_game(facade, "Cy", "Dee", game="small-battle")
    dispute(facade, ann, play_moves(facade, ann, 1)[0])
    assert desk_ids(client.get("/desk?player=ANN").text) == [ann["id"]]
    assert desk_ids(client.get("/desk?game=small-battle").text) == [battle["id"]]
    assert desk_ids(client.get("/desk?disputes=open").text) == [ann["id"]]
    assert desk_ids(client.get("/desk?disputes=none").text) == [battle["id"]]
    page = client.get("/desk?player=dee&status=in_progress")
    assert desk_ids(page.text) == [battle["id"]] and 'value="dee"' in page.text
    assert desk_ids(client.get("/desk?status=finished").text) == []


@pytest.mark.parametrize("query, field", [("game=chess", "game"), ("status=over", "status"), ("disputes=maybe", "disputes"),
                                          ("integrity=bad", "integrity"), ("page=0", "page"), ("player=" + "x" * 65, "player")])
def test_a_bad_desk_filter_is_named_on_the_page_without_a_traceback(web, query, field):
    _, facade, client = web
    new_game(facade, "Ann", "Bob")
    page = client.get(f"/desk?{query}")
    assert page.status_code == 422
    error = re.search(r'id="error">([^<]*)<', page.text)
    assert error and error.group(1).startswith(field)
    assert "Traceback" not in page.text and desk_ids(page.text) == []


def test_the_desk_page_finds_a_game_a_verification_run_found_tampered(web, tmp_path):
    app, facade, client = web
    intact, edited = new_game(facade, "Ann", "Bob"), new_game(facade, "Cy", "Dee")
    for g in (intact, edited):
        play_moves(facade, g, 3)
    client.get("/desk")
    raw = RawEvents("sqlite", f"sqlite:///{tmp_path / 'desk.db'}")
    try:
        retime(raw, UUID(edited["id"]), 2)
    finally:
        raw.close()
    assert desk_ids(client.get("/desk?integrity=tampered").text) == []
    for g in (intact, edited):
        assert client.get(f"/api/v1/games/{g['id']}/audit/verify").status_code == 200
    page = client.get("/desk?integrity=tampered")
    assert desk_ids(page.text) == [edited["id"]] and "tampered" in page.text
    assert desk_ids(client.get("/desk?integrity=clean").text) == [intact["id"]]
    assert 'class="badge ok">intact' in client.get("/desk").text


def test_the_desk_shows_no_card_of_any_game(web):
    _, facade, client = web
    games = [new_game(facade, "Ann", "Bob"), new_game(facade, "Cy", "Dee", "Eve", game="batallion"),
             new_game(facade, "Fay", "Gus", game="small-battle"), new_game(facade, "Hal", "Ida", game="four-virtues")]
    play_moves(facade, games[0], 3)
    page = client.get("/desk")
    assert len(desk_ids(page.text)) == len(games)
    text = re.sub(r"<[^>]*>", " ", page.text)  # what a reader sees, without ids and attributes
    assert CARD_CODE.findall(text) == []
    assert 'class="card' not in page.text


def test_get_games_takes_the_desk_filters_and_shows_the_counts(web):
    _, facade, client = web
    quiet, disputed = new_game(facade, "Ann", "Bob"), new_game(facade, "Cy", "Dee")
    dispute(facade, disputed, play_moves(facade, disputed, 1)[0])
    rows = client.get("/api/v1/games?order=desk").json
    assert [r["id"] for r in rows] == [disputed["id"], quiet["id"]]
    assert (rows[0]["disputes"], rows[0]["open_disputes"], rows[0]["integrity"]) == (1, 1, None)
    assert [r["id"] for r in client.get("/api/v1/games?open_disputes=false").json] == [quiet["id"]]
    assert [r["id"] for r in client.get("/api/v1/games?player=DEE").json] == [disputed["id"]]
    refused = client.get("/api/v1/games?order=sideways")
    assert refused.status_code == 422 and "order" in refused.json["errors"]["query"]
