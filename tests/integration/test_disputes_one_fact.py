"""Disputes as one fact (issue 35): the clock's automatic flags are disputes like a seat's, counted the same on the
desk, `GET /api/v1/games`, the tournament page and its JSON, and the table; a store whose catalogue was written
before the flags were counted rebuilds it."""

from __future__ import annotations

import re
from dataclasses import replace
from uuid import UUID

import pytest

from api.app import create_app
from service.store.server_clock import server_ms
from tests.integration.api_support import bearer

TIME = {"game_seconds": 20, "move_seconds": 10}  # both run out at once: two flags of one seat


@pytest.fixture
def web(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'one-fact.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    return app, app.extensions["arbiter"], app.test_client()


def tournament_game(client) -> tuple[dict, str]:
    """A round-robin of two with a time control, its first round started: (the tournament, its one game's id)."""
    created = client.post("/api/v1/tournaments", json={
        "name": "Blitz", "game": "el-royale", "players": [{"name": "Ann"}, {"name": "Bob"}], "format": "round-robin",
        "time_control": TIME}).get_json()
    started = client.post(f"/api/v1/tournaments/{created['id']}/rounds", headers=bearer(created["director_token"]))
    assert started.status_code == 201, started.get_json()
    view = client.get(f"/api/v1/tournaments/{created['id']}").get_json()
    return created, view["rounds"][0]["tables"][0]["games"][0]["game_id"]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def counts_everywhere(client, created: dict, gid: str) -> dict:
    """(filed, open) as each page and route tells it."""
    row = next(r for r in client.get("/api/v1/games").get_json() if r["id"] == gid)
    glance = client.get(f"/api/v1/tournaments/{created['id']}").get_json()["rounds"][0]["tables"][0]["games"][0]
    public = client.get(f"/api/v1/games/{gid}").get_json()["disputes"]
    desk = text_of(client.get("/desk").text)
    desk_open = re.search(r"(\d+) open", desk)
    page = text_of(client.get(f"/tournaments/{created['id']}").text)
    room = re.search(r"(\d+) open disputes?", page)
    table = text_of(client.get(f"/games/{gid}").text)
    at_table = re.search(r"(\d+) open disputes?", table)
    return {"catalogue": (row["disputes"], row["open_disputes"]),
            "tournament": (glance["disputes"], glance["open_disputes"]),
            "game": (len(public), sum(1 for d in public if d["ruling"] is None)),
            "desk page": int(desk_open.group(1)) if desk_open else 0,
            "desk filter": gid in client.get("/desk?disputes=open").text,
            "tournament page": int(room.group(1)) if room else 0,
            "table page": int(at_table.group(1)) if at_table else 0}


def test_the_clock_s_automatic_flags_are_counted_as_disputes_on_every_page(web):
    _, facade, client = web
    created, gid = tournament_game(client)
    assert facade.app.check_clocks(UUID(gid), server_ms() + 25_000) == [1, 2]  # game time and move time, both out
    seen = counts_everywhere(client, created, gid)
    assert seen == {"catalogue": (2, 2), "tournament": (2, 2), "game": (2, 2), "desk page": 2, "desk filter": True,
                    "tournament page": 2, "table page": 2}, seen
    links = client.get(f"/api/v1/tournaments/{created['id']}/links", headers=bearer(created["director_token"])).get_json()
    referee = next(g["referee_token"] for g in links["games"] if g["game_id"] == gid)
    ruled = client.post(f"/api/v1/games/{gid}/disputes/1/ruling", json={"decision": "upheld", "note": "flag stands"},
                        headers=bearer(referee))
    assert ruled.status_code == 200, ruled.get_json()
    seen = counts_everywhere(client, created, gid)
    assert seen == {"catalogue": (2, 1), "tournament": (2, 1), "game": (2, 1), "desk page": 1, "desk filter": True,
                    "tournament page": 1, "table page": 1}, seen


def test_a_store_whose_catalogue_did_not_count_flags_rebuilds_it_in_a_new_table(web):
    """A store written before the flags were counted (its catalogue the fourth layout, at its position, with 0 open for
    a flagged game): the fifth is folded from the first notification and counts the flag; the old table is left."""
    from projections.catalogue import fold_batch
    from service.adapters.catalogue_store import CATALOGUE, Catalogue, Query
    from service.adapters.view_runner import store_for

    _, facade, client = web
    created, gid = tournament_game(client)
    facade.app.check_clocks(UUID(gid), server_ms() + 15_000)  # the move's time only

    def fourth_fold(batch, load, before_each):  # the fold as it was: a flag moved the version and nothing else
        from domain.game import Game

        rows = fold_batch([(n, e) for n, e in batch if not isinstance(e, Game.TimeExpired)], load, before_each)
        for nid, event in batch:
            if isinstance(event, Game.TimeExpired):
                before_each(nid)
        return rows

    fourth = replace(CATALOGUE, table="game_catalogue4", fold=fourth_fold)
    old = Catalogue(facade.app, store_for(facade.app, fourth))
    old.catch_up()
    assert old.view.get(gid)["open_disputes"] == 0 and old.position() > 0

    new = Catalogue.for_app(facade.app)
    assert new.spec.table == "game_catalogue5"
    new.catch_up()
    assert new.position() == old.position()
    assert (new.get(gid)["disputes"], new.get(gid)["open_disputes"]) == (1, 1)
    assert old.view.select(Query(), 10, 0)[0]["open_disputes"] == 0  # left alone
    row = next(r for r in client.get("/api/v1/games").get_json() if r["id"] == gid)
    assert row["open_disputes"] == 1
    assert facade.verification.verify(gid, full=True)["catalogue"]["ok"] is True


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_rebuilt_catalogue_keeps_the_verdicts_the_previous_layout_held_and_never_overwrites_a_newer_one(stores, tmp_path, kind):
    """The fourth layout's table holds a verification verdict per game (one tampered, one intact): after the rebuild
    the fifth shows both (the desk's "tampered" filter still finds the game), the old table unchanged; a verdict the new
    table already holds is kept; a store with no previous table carries nothing."""
    from service.adapters.catalogue_store import CATALOGUE, Catalogue
    from service.adapters.view_runner import store_for
    from service.facade import Arbiter
    from service.play.new_games import CreateGame

    url = stores.url(kind)
    facade = Arbiter(url, key_file=str(tmp_path / "k.key"), checkpoint_log=str(tmp_path / "c.log"))
    stores._apps.append(facade.app)
    games = [facade.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": a}, {"name": b}]}))
             for a, b in (("Ann", "Bob"), ("Cy", "Dee"), ("Eve", "Fay"))]
    fresh = Catalogue(facade.app, store_for(facade.app, CATALOGUE))
    fresh.catch_up()
    assert fresh.carry_marks() == 0  # no previous table: nothing to carry

    fourth = replace(CATALOGUE, table="game_catalogue4")
    old = Catalogue(facade.app, store_for(facade.app, fourth))
    old.catch_up()
    bad = {"ok": False, "version": 1, "checked_at": "2026-11-20T10:00:00+00:00", "problem": "chain: broken at version 1"}
    good = {"ok": True, "version": 1, "checked_at": "2026-11-20T10:00:00+00:00", "problem": None}
    old.mark(games[0]["id"], bad)
    old.mark(games[1]["id"], good)
    newer = {**good, "checked_at": "2026-11-28T10:00:00+00:00"}

    new = Catalogue(facade.app, fresh.view)  # a process started on the new code: its first catch-up carries
    new.view.update(games[1]["id"], {"tampered": False, "integrity": newer})  # ... unless a verdict is there
    assert new.carry_marks() == 0  # the table holds a verdict: taken as carried
    new.view.update(games[1]["id"], {"tampered": False, "integrity": None})
    new.catch_up()
    rows = {r["id"]: r for r in new.list()}
    assert rows[games[0]["id"]]["integrity"] == bad and rows[games[1]["id"]]["integrity"] == good
    assert rows[games[2]["id"]]["integrity"] is None
    assert [r["id"] for r in new.list(tampered=True)] == [games[0]["id"]]
    assert old.get(games[0]["id"])["integrity"] == bad  # the old table is left as it was
    assert Catalogue(facade.app, fresh.view).carry_marks() == 0  # once: the next process finds verdicts there
