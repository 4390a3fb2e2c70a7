"""A tournament that cannot start is not stuck: before round 1 its director edits its settings or deletes it (API,
director token required, each recorded as an event); after round 1 both are refused."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.tournament.aggregate import Tournament
from service.adapters.standings_store import fold_all

from .test_api_schema import APP


def _auth(created: dict) -> dict:
    return {"Authorization": f"Bearer {created['director_token']}"}


def _create(client, **spec) -> dict:
    answer = client.post("/api/v1/tournaments", json={"name": "BA", "game": "batallion", "format": "swiss",
                                                      "players": [{"name": "Ann"}, {"name": "Bob"}], **spec})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_a_batallion_swiss_short_of_a_table_is_refused_at_its_start_with_the_reason_and_can_then_be_fixed():
    client = APP.test_client()
    created = _create(client)
    tid = created["id"]
    refused = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=_auth(created))
    assert refused.status_code == 422
    assert "at least 3 players" in refused.get_json()["detail"] and "BA-1.1" in refused.get_json()["detail"]
    assert client.get(f"/api/v1/tournaments/{tid}").get_json()["status"] == "entering"
    client.post(f"/api/v1/tournaments/{tid}/players", json={"name": "Cy"}, headers=_auth(created))
    started = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=_auth(created))
    assert started.status_code == 201, started.get_json()
    tables = started.get_json()["rounds"][0]["tables"]
    assert [[p["name"] for p in t["players"]] for t in tables] == [["Ann", "Bob", "Cy"]]


def test_the_director_edits_a_tournament_before_round_1_and_the_edit_is_checked_again_with_its_players():
    client = APP.test_client()
    created = _create(client, rounds=3)
    tid = created["id"]
    edited = client.patch(f"/api/v1/tournaments/{tid}", json={"name": "Small Battle night", "game": "small-battle",
                                                               "rounds": None}, headers=_auth(created))
    assert edited.status_code == 200, edited.get_json()
    body = edited.get_json()
    assert (body["name"], body["game"], body["rounds_given"], body["rounds_total"]) == ("Small Battle night",
                                                                                        "small-battle", None, 1)
    assert client.get("/api/v1/tournaments").get_json()[-1]["name"] == "Small Battle night"  # the projection folded it
    refused = client.patch(f"/api/v1/tournaments/{tid}", json={"game": "batallion", "format": "round-robin"},
                           headers=_auth(created))
    assert refused.status_code == 422 and refused.get_json()["field"] == "format"
    assert client.get(f"/api/v1/tournaments/{tid}").get_json()["game"] == "small-battle", "a refusal changes nothing"
    unknown = client.patch(f"/api/v1/tournaments/{tid}", json={"players": []}, headers=_auth(created))
    assert unknown.status_code == 422
    nobody = client.patch(f"/api/v1/tournaments/{tid}", json={"name": "X"})
    assert nobody.status_code == 401
    client.post(f"/api/v1/tournaments/{tid}/rounds", headers=_auth(created))
    late = client.patch(f"/api/v1/tournaments/{tid}", json={"name": "X"}, headers=_auth(created))
    assert late.status_code == 409 and "round 1 has started" in late.get_json()["detail"]


def test_the_director_deletes_a_tournament_before_round_1_and_it_is_gone_from_every_read():
    client = APP.test_client()
    created = _create(client)
    tid = created["id"]
    other = _create(client)
    assert client.delete(f"/api/v1/tournaments/{tid}", headers=_auth(other)).status_code == 403
    assert client.delete(f"/api/v1/tournaments/{tid}").status_code == 401
    assert client.delete(f"/api/v1/tournaments/{tid}", headers=_auth(created)).status_code == 204
    for path in ("", "/standings", "/bundle"):
        assert client.get(f"/api/v1/tournaments/{tid}{path}").status_code == 404
    assert tid not in [t["id"] for t in client.get("/api/v1/tournaments").get_json()]
    assert client.delete(f"/api/v1/tournaments/{tid}", headers=_auth(created)).status_code == 404
    assert client.get(f"/tournaments/{tid}").status_code == 404


def test_a_started_tournament_cannot_be_deleted():
    client = APP.test_client()
    created = _create(client, game="small-battle")
    client.post(f"/api/v1/tournaments/{created['id']}/rounds", headers=_auth(created))
    refused = client.delete(f"/api/v1/tournaments/{created['id']}", headers=_auth(created))
    assert refused.status_code == 409 and "part of the record" in refused.get_json()["detail"]


@pytest.fixture
def desk(stores, tmp_path):
    from service.facade import Arbiter

    arbiter = Arbiter(stores.url("sqlite"), str(tmp_path / "key"), str(tmp_path / "checkpoints.log"))
    stores._apps.append(arbiter.app)
    return arbiter


def test_edits_and_the_deletion_are_events_of_the_tournament_and_a_rebuilt_projection_agrees(desk):
    from service.tournaments.commands import CreateTournament

    tournaments = desk.tournaments
    created = tournaments.create(CreateTournament.from_body({"name": "T", "game": "batallion", "format": "swiss"}))
    tid, token = created["id"], created["director_token"]
    tournaments.edit(tid, token, {"name": "T2", "games_per_table": 2})
    tournaments.edit(tid, token, {"name": "T2"})  # nothing changes: nothing recorded
    tournaments.delete(tid, token)
    kinds = [type(e).__name__ for e in desk.app.events.get(UUID(tid))]
    assert kinds == ["Created", "Edited", "Deleted"]
    doc = fold_all(desk.app)[f"t:{tid}"]
    assert doc["settings"]["name"] == "T2" and doc["settings"]["games_per_table"] == 2 and doc["deleted"] is True
    assert isinstance(desk.app.repository.get(UUID(tid)), Tournament)
