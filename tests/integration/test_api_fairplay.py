"""The fair-play report over the API (docs/api.md, docs/fairplay.md "Two stages"): the tournament's director starts
the job, polls its stage and progress, and reads the report in two stages; nobody else reaches it (it is computed
from every card of the games), and the answers are those the OpenAPI document declares."""

from __future__ import annotations

import time
from dataclasses import replace

from api.http.fairplay_schemas import FairplayJob
from domain.games import spec_for
from service.tournaments.commands import CreateTournament
from tests import tournament_support

API = "/api/v1"


def director(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_director_starts_polls_and_reads_both_stages_and_nobody_else_may(app, client):
    jobs = app.extensions["arbiter"].fairplay
    jobs.settings = replace(jobs.settings, own_samples=2, perfect_samples=1, worlds=2, refer=1.0)  # refers everyone
    created = tournament_support.played_tournament(app, "Over the wire", ["Ann", "Bob"])
    tid, token = created["id"], created["director_token"]
    url = f"{API}/tournaments/{tid}/fairplay"
    assert client.get(url).status_code == 401 and client.post(url).status_code == 401
    other = app.extensions["arbiter"].tournaments.create(CreateTournament.from_body(
        {"name": "Other", "game": "small-battle", "players": ["C", "D"], "format": "round-robin"}))
    assert client.get(url, headers=director(other["director_token"])).status_code == 403
    assert client.get(f"{API}/tournaments/00000000-0000-0000-0000-000000000001/fairplay",
                      headers=director(token)).status_code == 404
    assert client.get(url, headers=director(token)).get_json()["status"] == "unknown"  # a GET starts nothing
    started = client.post(url, headers=director(token))
    assert started.status_code == 202 and started.headers["Location"].endswith(f"/tournaments/{tid}/fairplay")
    deadline = time.monotonic() + 60
    while True:
        body = client.get(url, headers=director(token)).get_json()
        if body["status"] not in ("queued", "running"):
            break
        assert body["stage"] in ("screen", "full") and "report" not in body
        assert time.monotonic() < deadline, body
        time.sleep(0.1)
    assert body["status"] == "done" and body["stage"] == "full", body  # everyone referred: the full test ran
    report = body["report"]
    assert [p["player"] for p in report["players"]] == ["Ann", "Bob"] and report["thresholds"]["panel"] == 1e-6
    for line in report["players"]:
        assert line["referred"] and line["full"]["decisions"] == line["screen"]["decisions"] > 0
        assert "referred by the screen" in line["reason"] and line["panel"] == line["full"]["passed"]
    assert not report["pair_test"] and report["pairs"] == []  # two seats: no pair
    assert report["screen_judge"] == "its glance: whether the strike removed a card (SB-2.2)"  # as the pages say
    assert report["calibrated"] == {"Small Battle": spec_for("small-battle").analysis.calibrated}  # as the packet
    assert "weighty" not in report and '"cards"' not in str(report)  # counts and p-values only
    assert client.delete(url, headers=director(token)).get_json()["status"] == "done"  # ended: answered as it is


def test_the_answers_are_those_the_schema_declares_and_the_document_says_director_only(app, client):
    jobs = app.extensions["arbiter"].fairplay
    jobs.settings = replace(jobs.settings, own_samples=2, perfect_samples=1, worlds=2, refer=1.0)
    created = tournament_support.played_tournament(app, "Declared", ["Ann", "Bob"])
    url = f"{API}/tournaments/{created['id']}/fairplay"
    answers = [client.get(url, headers=director(created["director_token"])),
               client.post(url, headers=director(created["director_token"]))]
    deadline = time.monotonic() + 60
    while answers[-1].get_json()["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.1)
        answers.append(client.get(url, headers=director(created["director_token"])))
    assert answers[-1].get_json()["status"] == "done" and "report" in answers[-1].get_json()
    for answer in answers:
        assert FairplayJob().validate(answer.get_json()) == {}, answer.get_json()  # every field as declared
    paths = client.get(f"{API}/openapi.json").get_json()["paths"][f"{API}/tournaments/{{tournament_id}}/fairplay"]
    assert set(paths) >= {"get", "post", "delete"}
    assert all(paths[m]["security"] == [{"directorToken": []}] for m in ("get", "post", "delete"))
    report = paths["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert report == {"$ref": "#/components/schemas/FairplayJob"}
