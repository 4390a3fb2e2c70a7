"""A finished game is closed, and a seat's refused attempts are bounded (issue 38; docs/api.md "Limits").

After the end no seat's move, name or refusal is stored: the version, the referee's audit (refused attempts
included) and the checkpoint log stay as they were, while disputes, the referee's rulings and the spectators' reads
go on. In a live game a seat's refused attempts are kept up to KEPT_PER_WINDOW a minute (then 429 with Retry-After,
nothing kept) and KEPT_PER_SEAT in all (then answered with the clause, nothing kept).
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID


from domain import attempts as attempts_module
from domain.attempts import KEPT_PER_WINDOW, WINDOW_SECONDS
from service.play import referee as referee_module

from .api_support import API, bearer

RECORDS = Path(__file__).resolve().parent.parent / "records"
SMALL_BATTLE = RECORDS / "small-battle" / "selfplay-00-2p.json"
EL_ROYALE = RECORDS / "el-royale" / "example1-01-revised.json"


class Imported:
    """A game imported from a record over HTTP: its id and tokens."""

    def __init__(self, client, doc: dict):
        answer = client.post(f"{API}/records", json=doc)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        body = answer.get_json()
        self.id, self.referee_token = body["id"], body["referee_token"]
        self.tokens = [s["token"] for s in body["seats"]]
        self.url = f"{API}/games/{self.id}"

    def seat(self, n: int) -> dict:
        return bearer(self.tokens[n])

    @property
    def referee(self) -> dict:
        return bearer(self.referee_token)


def finished(client, path: Path = SMALL_BATTLE) -> Imported:
    game = Imported(client, json.loads(path.read_text()))
    assert client.get(game.url).get_json()["status"] == "finished"
    return game


def live(client, path: Path = SMALL_BATTLE, moves: int = 2) -> Imported:
    """A game in progress: the record's first `moves` moves."""
    doc = json.loads(path.read_text())
    doc["moves"] = doc["moves"][:moves]
    game = Imported(client, doc)
    assert client.get(game.url).get_json()["status"] != "finished"
    return game


def stored(app, client, game: Imported) -> dict:
    """Everything a seat could have grown: the version, the referee's audit, the refused attempts, the checkpoints."""
    store = app.extensions["arbiter"].app
    gid = UUID(game.id)
    return {"version": client.get(game.url).get_json()["version"],
            "audit": client.get(f"{game.url}/audit", headers=game.referee).get_json()["entries"],
            "attempts": len(store.stored_attempts(gid)),
            "checkpoints": client.get(f"{API}/checkpoints?game={game.id}").get_json()["checkpoints"]}


def test_twenty_moves_after_the_end_are_refused_with_the_clause_and_nothing_is_kept(app, client):
    game = finished(client)
    before = stored(app, client, game)
    answers = [client.post(f"{game.url}/moves", headers=game.seat(n % 2),
                           json={"type": "strike", "position": n % 8} if n % 3 else {"type": "say", "text": f"gg {n}"})
               for n in range(20)]
    assert {a.status_code for a in answers} == {422}
    assert all(a.get_json()["rule"].startswith("SB-") for a in answers), "the rules' own clause names why"
    assert all("attempt" not in a.get_json() for a in answers), "a refusal after the end is not kept: no number"
    assert stored(app, client, game) == before


def test_a_move_after_the_end_answers_the_same_with_an_idempotency_key_and_keeps_nothing(app, client):
    game = finished(client)
    before = stored(app, client, game)
    first = client.post(f"{game.url}/moves", headers={**game.seat(0), "Idempotency-Key": "late-1"},
                        json={"type": "say", "text": "rematch?"})
    again = client.post(f"{game.url}/moves", headers={**game.seat(0), "Idempotency-Key": "late-1"},
                        json={"type": "say", "text": "rematch?"})
    assert first.status_code == again.status_code == 422
    assert first.get_json()["rule"] == again.get_json()["rule"]
    assert stored(app, client, game) == before


def test_a_seat_s_name_after_the_end_is_a_409_naming_the_end_and_changes_nothing(app, client):
    game = finished(client, EL_ROYALE)
    before = stored(app, client, game)
    answer = client.post(f"{game.url}/name", headers=game.seat(1), json={"name": "Latecomer"})
    assert answer.status_code == 409, answer.get_json()
    assert "the game is over" in answer.get_json()["detail"] and answer.get_json()["field"] == "name"
    assert stored(app, client, game) == before
    same = client.get(game.url).get_json()["players"][1]["name"]
    assert client.post(f"{game.url}/name", headers=game.seat(1), json={"name": same}).status_code == 200, \
        "naming a seat what it is called changes nothing, after the end too"


def test_after_the_end_a_dispute_and_the_referee_s_ruling_still_go_through(app, client):
    game = finished(client)
    moves = app.extensions["arbiter"].app.game(UUID(game.id)).move_versions
    filed = client.post(f"{game.url}/disputes", headers=game.seat(1), json={"version": moves[-1], "claim": "the last strike"})
    assert filed.status_code == 201, filed.get_json()
    ruled = client.post(f"{game.url}/disputes/{filed.get_json()['number']}/ruling", headers=game.referee,
                        json={"decision": "rejected", "remedy": "none", "note": "it stands"})
    assert ruled.status_code == 200, ruled.get_json()
    assert ruled.get_json()["ruling"]["decision"] == "rejected"


def test_the_table_page_s_move_form_after_the_end_shows_the_refusal_and_keeps_nothing(app, client):
    game = finished(client)
    before = stored(app, client, game)
    page = app.test_client()
    assert page.get(f"/join/{game.id}/{game.tokens[0]}").status_code == 302
    answer = page.post(f"/games/{game.id}/act", data={"move": json.dumps({"type": "strike", "position": 0})})
    assert answer.status_code == 422
    assert "SB-" in answer.get_data(as_text=True)
    renamed = page.post(f"/games/{game.id}/name", data={"name": "Latecomer"})
    assert renamed.status_code == 409 and "the game is over" in renamed.get_data(as_text=True)
    assert stored(app, client, game) == before


def test_a_seat_s_refusals_past_twenty_a_minute_answer_429_with_retry_after_and_are_not_kept(app, client, monkeypatch):
    game = live(client)
    store = app.extensions["arbiter"].app
    view = client.get(f"{game.url}/view", headers=game.referee).get_json()
    idle = 1 - view["table"]["to_act"]
    kept = [client.post(f"{game.url}/moves", headers=game.seat(idle), json={"type": "strike", "position": 0})
            for _ in range(KEPT_PER_WINDOW)]
    assert [a.status_code for a in kept] == [422] * KEPT_PER_WINDOW
    assert [a.get_json()["attempt"] for a in kept] == list(range(1, KEPT_PER_WINDOW + 1))
    frozen = referee_module._now()  # the clock stands still from here: a slow machine cannot outlast the window
    monkeypatch.setattr(referee_module, "_now", lambda: frozen)
    before = stored(app, client, game)
    for _ in range(30):
        over = client.post(f"{game.url}/moves", headers=game.seat(idle), json={"type": "strike", "position": 0})
        assert over.status_code == 429, over.get_json()
        assert 1 <= int(over.headers["Retry-After"]) <= WINDOW_SECONDS
        assert over.mimetype == "application/problem+json" and "not kept" in over.get_json()["detail"]
    assert stored(app, client, game) == before, "refusals past the bound grow neither the store nor the log"
    assert store.not_kept[(game.id, f"seat:{idle}")] == 30, "what the bound turned away is counted"
    # the other seat is not held back, and neither is a legal move of the throttled seat's opponent
    to_act = view["table"]["to_act"]
    assert client.post(f"{game.url}/moves", headers=game.seat(to_act),
                       json={"type": "say", "text": "still here"}).status_code == 200
    # a minute later the seat's refusals are kept again
    monkeypatch.setattr(referee_module, "_now", lambda: frozen + WINDOW_SECONDS + 1)
    again = client.post(f"{game.url}/moves", headers=game.seat(idle), json={"type": "strike", "position": 0})
    assert again.status_code == 422 and again.get_json()["attempt"] == KEPT_PER_WINDOW + 1
    assert len(store.stored_attempts(UUID(game.id))) == KEPT_PER_WINDOW + 2  # opened + every kept refusal


def test_a_seat_s_refusals_past_its_bound_for_the_game_are_answered_but_not_kept(app, client, monkeypatch):
    monkeypatch.setattr(attempts_module, "KEPT_PER_SEAT", 3)
    game = live(client)
    idle = 1 - client.get(f"{game.url}/view", headers=game.referee).get_json()["table"]["to_act"]
    answers = [client.post(f"{game.url}/moves", headers=game.seat(idle), json={"type": "strike", "position": 0})
               for _ in range(6)]
    assert [a.status_code for a in answers] == [422] * 6
    assert [a.get_json().get("attempt") for a in answers] == [1, 2, 3, None, None, None]
    assert all(a.get_json()["rule"] for a in answers), "still the rules' answer, with its clause"
    assert len(app.extensions["arbiter"].app.stored_attempts(UUID(game.id))) == 4  # opened + the 3 kept


def test_a_move_after_the_end_with_a_stale_expected_version_is_refused_for_the_end(app, client):
    """The end is the reason a late move fails (a page that missed the end sends the version it saw)."""
    game = finished(client)
    before = stored(app, client, game)
    answer = client.post(f"{game.url}/moves", headers=game.seat(0),
                         json={"type": "strike", "position": 0, "expected_version": 3})
    assert answer.status_code == 422 and answer.get_json()["rule"].startswith("SB-"), answer.get_json()
    assert stored(app, client, game) == before


def test_an_embargoed_duplicate_game_is_closed_to_its_seats_and_its_director_still_releases_it(tmp_path):
    """Board 1.1's table A is over and held from spectators while table B plays: its seats can neither rename nor move
    (nothing is stored), and the director's release still goes through."""
    from api import create_app

    from .api_support import CheckedClient
    from .test_duplicate_embargo import DUPLICATE_GAMES, finish, two_table_formats

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}", "KEY_FILE": str(tmp_path / "key"),
                      "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    app.test_client_class = CheckedClient
    client, store = app.test_client(), app.extensions["arbiter"].app
    created = client.post(f"{API}/tournaments", json=two_table_formats(DUPLICATE_GAMES[0])).get_json()
    tid, director = created["id"], bearer(created["director_token"])
    client.post(f"{API}/tournaments/{tid}/rounds", headers=director)
    links = client.get(f"{API}/tournaments/{tid}/links", headers=director).get_json()["games"]
    held = next(g for g in links if g["table"] == 0)
    gid = UUID(held["game_id"])
    finish(store, held["game_id"])
    assert client.get(f"{API}/games/{gid}").status_code == 403, "held from spectators"
    before = (store.game(gid).version, len(store.stored_attempts(gid)), (tmp_path / "checkpoints.log").read_bytes())
    seat = bearer(held["seats"][0]["token"])
    renamed = client.post(f"{API}/games/{gid}/name", headers=seat, json={"name": "Latecomer"})
    assert renamed.status_code == 409 and "the game is over" in renamed.get_json()["detail"]
    moved = client.post(f"{API}/games/{gid}/moves", headers=seat, json={"type": "say", "text": "gg"})
    assert moved.status_code == 422 and "attempt" not in moved.get_json()
    assert (store.game(gid).version, len(store.stored_attempts(gid)), (tmp_path / "checkpoints.log").read_bytes()) == before
    released = client.post(f"{API}/tournaments/{tid}/boards/1.1/release", headers=director)
    assert released.status_code == 200 and released.get_json()["rounds"][0]["boards"][0]["released"] is True
    store.close()
