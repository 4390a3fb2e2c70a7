"""Computer analysis over HTTP (issue 27 part 2, docs/analysis.md "Over HTTP"): POST /games/{id}/analysis starts a
background job, GET /games/{id}/analysis/{job} answers it, the asker's stream tells its progress. A seat analyses
only its own seat of a finished game, a spectator any seat of a finished game, the referee any seat at any time;
the lines are exactly the engine's for that seat's knowledge; jobs are one per request and bounded."""

from __future__ import annotations

import json
import time
from pathlib import Path
from uuid import UUID

import pytest

from api import create_app
from api.http.stream import message
from domain.accuracy import accuracy
from domain.games import spec_for
from domain.records import parse
from service.analysis.facade import analyse, plan
from tests.toy_game import register

from .api_support import API, CheckedClient, assert_problem, bearer, create_stacked, play

RECORDS = Path(__file__).resolve().parent.parent / "records"
SMALL_BATTLE = RECORDS / "small-battle" / "selfplay-00-2p.json"
BATALLION = RECORDS / "batallion" / "selfplay-01-3p.json"
HANDS = [["5S", "5H", "JC", "JS"], ["JH", "2D", "3D", "4D"], ["JD", "6C", "7C", "8C"], ["9C", "TC", "QC", "KC"]]


@pytest.fixture
def make_app():
    """Apps on fresh in-memory stores (analysis in each job's thread unless told otherwise); their jobs stopped after."""
    apps = []

    def make(**config):
        app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1, "ANALYSIS_WORKERS": 1, **config})
        app.test_client_class = CheckedClient
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["arbiter"].analysis.close()


class Imported:
    """A finished game imported from a record file: its id, tokens and the record itself."""

    def __init__(self, client, path: Path):
        self.doc = json.loads(path.read_text())
        answer = client.post(f"{API}/records", json=self.doc)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        body = answer.get_json()
        self.id, self.referee = body["id"], bearer(body["referee_token"])
        self.seats = [bearer(s["token"]) for s in body["seats"]]
        self.url = f"{API}/games/{self.id}/analysis"


def finished(client, path: Path = SMALL_BATTLE) -> Imported:
    game = Imported(client, path)
    assert client.get(f"{API}/games/{game.id}").get_json()["status"] == "finished"
    return game


def done(client, url: str, headers: dict, seconds: float = 120) -> dict:
    """Poll a job until it is no longer queued or running; its last answer."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        job = answer.get_json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"the job at {url} still runs after {seconds} s")


def engine_lines(app, game: Imported, seat: int, seed: str, samples: int) -> list[dict]:
    """What the service's own road (the CLI's) makes of the same request, as JSON."""
    versions = app.extensions["arbiter"].app.game(UUID(game.id)).move_versions
    return json.loads(json.dumps(list(analyse(plan(parse(game.doc), seat, versions=versions), seed, samples))))


def test_a_seat_s_analysis_of_its_finished_game_runs_to_the_end_and_gives_the_engine_s_lines(make_app):
    app = make_app(ANALYSIS_WORKERS=2)  # the process's pool of analysis workers
    client = app.test_client()
    game = finished(client)
    started = client.post(game.url, json={"seat": 0, "samples": 8, "seed": "t"}, headers=game.seats[0])
    assert started.status_code == 202, started.get_data(as_text=True)
    body = started.get_json()
    assert started.headers["Location"] == body["url"] == f"{game.url}/{body['id']}"
    assert (body["seat"], body["samples"], body["seed"], "lines" in body) == (0, 8, "t", False)
    job = done(client, body["url"], game.seats[0])
    assert job["status"] == "done", job
    expected = engine_lines(app, game, 0, "t", 8)
    assert job["lines"] == expected and len(expected) == job["analysed"] > 0
    assert job["progress"]["done"] == job["progress"]["total"] == len(plan(parse(game.doc), 0).decisions)
    assert all(line["seat"] == 0 and "version" in line for line in job["lines"])
    marks = spec_for(game.doc["game"]).analysis.marks  # the seat's accuracy over the game, from these lines
    assert job["accuracy"] == accuracy(expected, marks) and 0 <= job["accuracy"] <= 100
    assert "accuracy" not in body  # only once done


def test_the_progress_goes_to_the_asking_seat_s_stream_alone_without_an_id(make_app):
    app = make_app()
    client, facade = app.test_client(), app.extensions["arbiter"]
    game = finished(client)
    version = client.get(f"{API}/games/{game.id}").get_json()["version"]
    heard: dict[str, list] = {"seat 0": [], "seat 1": [], "spectator": []}
    tokens = {"seat 0": game.seats[0], "seat 1": game.seats[1], "spectator": {}}
    subscriptions = []
    for who, header in tokens.items():
        token = header.get("Authorization", " ").split(" ", 1)[1] or None
        sub, backlog = facade.views.subscribe(game.id, token, version, heard[who].extend)
        assert backlog == []
        subscriptions.append(sub)
    try:
        started = client.post(game.url, json={"seat": 0, "samples": 4}, headers=game.seats[0]).get_json()
        job = done(client, started["url"], game.seats[0])
        end = time.monotonic() + 5
        while time.monotonic() < end and not any(json.loads(e[2])["status"] == "done" for e in heard["seat 0"]):
            time.sleep(0.05)
    finally:
        for sub in subscriptions:
            sub.close()
    told = [json.loads(data) for version_, kind, data in heard["seat 0"] if kind == "analysis_progress"]
    assert len(told) == len(heard["seat 0"]) and all(e[0] is None for e in heard["seat 0"])
    assert told[-1] == {"job": job["id"], "seat": 0, "status": "done", "done": job["progress"]["total"],
                        "total": job["progress"]["total"]}
    assert [t["done"] for t in told] == sorted(t["done"] for t in told)
    assert heard["seat 1"] == [] and heard["spectator"] == []
    sse = message(heard["seat 0"][-1], named=False).decode()
    assert sse.startswith("event: analysis_progress\n") and "id:" not in sse  # never moves where a client resumes


def test_a_seat_asking_for_another_seat_s_analysis_is_refused_403(make_app):
    client = make_app().test_client()
    game = finished(client)
    body = assert_problem(client.post(game.url, json={"seat": 0}, headers=game.seats[1]), 403)
    assert body["detail"] == "a seat may analyse only its own decisions: seat 1 asked for seat 0's"
    own = client.post(game.url, json={"seat": 0, "samples": 2}, headers=game.seats[0]).get_json()
    assert_problem(client.get(own["url"], headers=game.seats[1]), 403)  # nor read it


def test_seats_and_spectators_wait_for_the_end_but_the_referee_analyses_a_running_game(make_app):
    client = make_app().test_client()
    table = create_stacked(client, HANDS)
    play(client, table, {"type": "attack", "cards": ["5S", "5H"]}, seat=0)
    play(client, table, {"type": "pass"}, seat=2)
    url = f"{table.url}/analysis"
    body = assert_problem(client.post(url, json={"seat": 0}, headers=table.seat(0)), 403)
    assert "once the game is over" in body["detail"]
    assert "once it is over" in assert_problem(client.post(url, json={"seat": 0}), 403)["detail"]
    started = client.post(url, json={"seat": 0, "samples": 8}, headers=table.referee)
    assert started.status_code == 202, started.get_data(as_text=True)
    job = done(client, started.get_json()["url"], table.referee)
    assert job["status"] == "done" and job["progress"]["total"] == 1  # North's one decision so far
    assert_problem(client.get(started.get_json()["url"], headers=table.seat(0)), 403)  # not to the seat mid-game
    assert all(line["move_index"] < 2 for line in job["lines"])


def test_a_spectator_analyses_any_seat_of_a_finished_game_as_that_seat_knew_it(make_app):
    client = make_app().test_client()
    game = finished(client)
    watched = client.post(game.url, json={"seat": 1, "samples": 4, "seed": "s"})
    assert watched.status_code == 202, watched.get_data(as_text=True)
    own = client.post(game.url, json={"seat": 1, "samples": 4, "seed": "s"}, headers=game.seats[1]).get_json()
    assert own["id"] == watched.get_json()["id"]  # the same request: the same job, whoever asks
    assert done(client, own["url"], {})["lines"] == done(client, own["url"], game.seats[1])["lines"]


def test_the_same_request_gets_the_same_job_and_another_seed_another(make_app):
    client = make_app(ANALYSIS_JOBS_PER_CALLER=2).test_client()
    game = finished(client)
    first = client.post(game.url, json={"seat": 0, "samples": 4, "seed": "a"}, headers=game.seats[0]).get_json()
    again = client.post(game.url, json={"seat": 0, "samples": 4, "seed": "a"}, headers=game.seats[0])
    assert again.status_code == 202 and again.get_json()["id"] == first["id"]
    other = client.post(game.url, json={"seat": 0, "samples": 4, "seed": "b"}, headers=game.seats[0]).get_json()
    assert other["id"] != first["id"]
    done(client, first["url"], game.seats[0])
    after = client.post(game.url, json={"seat": 0, "samples": 4, "seed": "a"}, headers=game.seats[0]).get_json()
    assert (after["id"], after["status"]) == (first["id"], "done")  # kept once done: asked again, answered at once


def test_one_asker_beyond_its_active_jobs_gets_429_with_retry_after_while_others_still_start(make_app):
    app = make_app(ANALYSIS_MAX_JOBS=4, ANALYSIS_JOBS_PER_CALLER=1)
    client = app.test_client()
    game = finished(client, BATALLION)  # at 1000 samples a move, seconds of work: still running below
    assert client.post(game.url, json={"seat": 0, "seed": "a"}, headers=game.seats[0]).status_code == 202
    busy = client.post(game.url, json={"seat": 0, "seed": "b"}, headers=game.seats[0])
    body = assert_problem(busy, 429)
    assert busy.headers["Retry-After"].isdigit() and "at most 1 at a time for one asker" in body["detail"]
    assert client.post(game.url, json={"seat": 0, "seed": "c"}, headers=game.referee).status_code == 202
    assert len(app.extensions["arbiter"].jobs.table.active()) == 2


def test_beyond_the_process_s_running_jobs_a_new_job_waits_in_the_queue_with_its_place_and_estimate(make_app):
    client = make_app(ANALYSIS_MAX_JOBS=1).test_client()
    game = finished(client, BATALLION)
    first = client.post(game.url, json={"seat": 0, "seed": "a"}, headers=game.seats[0])
    assert first.status_code == 202
    end = time.monotonic() + 10
    while client.get(first.get_json()["url"], headers=game.seats[0]).get_json()["status"] != "running":
        assert time.monotonic() < end
        time.sleep(0.05)
    second = client.post(game.url, json={"seat": 1, "seed": "a"}, headers=game.referee)
    assert second.status_code == 202
    waiting = client.get(second.get_json()["url"], headers=game.referee).get_json()
    assert waiting["status"] == "queued" and waiting["queue"]["position"] == 1
    assert waiting["queue"]["estimate_seconds"] > 0 and waiting["started"] is None
    again = client.post(game.url, json={"seat": 0, "seed": "a"}, headers=game.seats[0])  # the same job is no new job
    assert again.status_code == 202 and again.get_json()["id"] == first.get_json()["id"]
    client.application.extensions["arbiter"].analysis.close()  # a server stopping: its job goes back to the queue
    stopped = client.get(first.get_json()["url"], headers=game.seats[0]).get_json()
    assert (stopped["status"], "lines" in stopped) == ("queued", False)


def test_whoever_started_a_job_or_the_referee_may_cancel_it_and_nobody_else(make_app):
    app = make_app(ANALYSIS_MAX_JOBS=1)
    client = app.test_client()
    game = finished(client, BATALLION)
    running = client.post(game.url, json={"seat": 0, "seed": "a"}, headers=game.seats[0]).get_json()
    queued = client.post(game.url, json={"seat": 0, "seed": "b"}).get_json()  # a spectator's, from its address
    assert_problem(client.delete(running["url"]), 403)  # a spectator did not start it
    body = client.delete(queued["url"]).get_json()  # the spectator's own: cancelled at once
    assert body["status"] == "cancelled" and body["queue"]["position"] is None
    end = time.monotonic() + 10
    while client.get(running["url"], headers=game.seats[0]).get_json()["status"] != "running":
        assert time.monotonic() < end
        time.sleep(0.05)
    asked = time.monotonic()
    assert client.delete(running["url"], headers=game.referee).status_code == 200
    stopped = done(client, running["url"], game.seats[0], seconds=10)
    assert stopped["status"] == "cancelled" and time.monotonic() - asked < 2.0
    assert app.extensions["arbiter"].analysis.running() == 0 or _settles(app)
    again = client.post(game.url, json={"seat": 0, "seed": "b", "samples": 2}).get_json()
    assert again["status"] in ("queued", "running")  # a cancelled request asked again is queued again


def _settles(app) -> bool:
    end = time.monotonic() + 5
    while app.extensions["arbiter"].analysis.running() and time.monotonic() < end:
        time.sleep(0.05)
    return app.extensions["arbiter"].analysis.running() == 0


def test_a_job_id_that_names_no_request_of_the_game_as_it_stands_is_404(make_app):
    client = make_app().test_client()
    game = finished(client)
    version = client.get(f"{API}/games/{game.id}").get_json()["version"]
    for job_id in ("0123456789abcdef", f"{version + 1}~0~2~0", f"{version}~9~2~0", f"{version}~0~0~0",
                   f"{version}~0~2~bad seed", "1~2~3"):
        assert "no analysis job" in assert_problem(client.get(f"{game.url}/{job_id}", headers=game.referee),
                                                   404)["detail"], job_id


def test_a_job_asked_of_two_server_processes_is_one_job_run_once_whose_lines_both_answer(make_app, tmp_path):
    """Two apps on one store stand for two workers (or hosts): the same request asked of both is one row of the
    store, run by one of them once, and its lines, kept in the store, answer a poll on either."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first, second = make_app(DATABASE_URL=url).test_client(), make_app(DATABASE_URL=url).test_client()
    game = finished(first)
    started = first.post(game.url, json={"seat": 0, "samples": 8, "seed": "w"}, headers=game.seats[0]).get_json()
    elsewhere = second.get(started["url"], headers=game.seats[0])
    assert elsewhere.status_code == 200 and elsewhere.get_json()["id"] == started["id"]
    asked_there = second.post(game.url, json={"seat": 0, "samples": 8, "seed": "w"}, headers=game.seats[0])
    assert asked_there.get_json()["id"] == started["id"]
    lines_here = done(first, started["url"], game.seats[0])["lines"]
    lines_there = done(second, started["url"], game.seats[0])["lines"]
    assert lines_here == lines_there and lines_here
    row = first.application.extensions["arbiter"].jobs.get(f"analysis:{game.id}:{started['id']}")
    assert row is not None and row.status == "done"
    assert _attempts(tmp_path / "games.db", row.id) == 1  # taken once, by one of the two
    assert_problem(second.get(started["url"], headers=game.seats[1]), 403)  # another seat may not, there either


def test_a_game_whose_spec_offers_no_analysis_is_422_naming_why():
    with register():  # High Card (tests/toy_game) declares no analysis
        app = create_app({"DATABASE_URL": "memory://", "ANALYSIS_WORKERS": 1})
        app.test_client_class = CheckedClient
        client = app.test_client()
        created = client.post(f"{API}/games", json={"game": "high-card", "options": {"rounds": 2},
                                                    "players": [{"name": "North"}, {"name": "South"}]}).get_json()
        answer = client.post(f"{API}/games/{created['id']}/analysis", json={"seat": 0},
                             headers=bearer(created["referee_token"]))
        body = assert_problem(answer, 422)
    assert "offers no computer analysis" in body["detail"] and body["field"] == "game"


@pytest.mark.parametrize("request_body, field", [
    ({"seat": "0"}, "seat"), ({"seat": 9}, "seat"), ({"seat": -1}, "seat"), ({}, "seat"),
    ({"seat": 0, "samples": 0}, "samples"), ({"seat": 0, "samples": 5000}, "samples"),
    ({"seat": 0, "samples": 2.5}, "samples"), ({"seat": 0, "seed": ""}, "seed"), ({"seat": 0, "seed": "a b"}, "seed"),
    ({"seat": 0, "seed": "x" * 65}, "seed"), ({"seat": 0, "seed": 7}, "seed")])
def test_bad_input_is_a_422_problem_naming_the_field(make_app, request_body, field):
    client = make_app().test_client()
    game = finished(client)
    body = assert_problem(client.post(game.url, json=request_body, headers=game.seats[0]), 422)
    assert body["field"] == field, body
    assert app_jobs(client) == 0


def _attempts(path, job_id: str) -> int:
    import sqlite3

    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT attempts FROM arbiter_jobs WHERE id = ?", (job_id,)).fetchone()[0]


def app_jobs(client) -> int:
    return client.application.extensions["arbiter"].analysis.running()


def test_a_body_that_is_not_json_is_a_400_problem(make_app):
    client = make_app().test_client()
    game = finished(client)
    answer = client.post(game.url, data="{seat: 0", headers={**game.seats[0], "Content-Type": "application/json"})
    assert_problem(answer, 400)


def test_a_held_game_is_not_over_for_its_seats_and_closed_to_spectators_but_open_to_its_referee(make_app):
    """A duplicate board another table still plays (service.access holds): its seats see it as in play."""
    app = make_app()
    client = app.test_client()
    game = finished(client)
    app.extensions["arbiter"].access.holds.append(lambda gid: gid == UUID(game.id))
    assert "not shown to its seats yet" in assert_problem(
        client.post(game.url, json={"seat": 0}, headers=game.seats[0]), 403)["detail"]
    assert "duplicate board" in assert_problem(client.post(game.url, json={"seat": 0}), 403)["detail"]
    started = client.post(game.url, json={"seat": 0, "samples": 2}, headers=game.referee)
    assert started.status_code == 202
    assert_problem(client.get(started.get_json()["url"], headers=game.seats[0]), 403)
