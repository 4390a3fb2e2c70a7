"""The desk's fair-play report of a tournament (docs/fairplay.md): only the tournament's referee (its director, whose
link the browser keeps) may open it, since it is computed from every card of the games; a seat, a spectator or
another tournament's director is refused, an unknown tournament is named, and nothing shows a traceback."""

from __future__ import annotations

import time

from tests import tournament_support
from service.tournaments.commands import CreateTournament


def played_tournament(app) -> dict:
    return tournament_support.played_tournament(app, "Screened", ["Ann", "Bob"])


def test_the_director_sees_each_player_s_line_and_nobody_else_sees_the_report(app, client):
    created = played_tournament(app)
    tid, token = created["id"], created["director_token"]
    url = f"/tournaments/{tid}/fairplay"
    spectator = client.get(url)
    assert spectator.status_code == 401 and 'id="fairplay"' not in spectator.get_data(as_text=True)
    assert "director" in spectator.get_data(as_text=True)
    games = app.extensions["arbiter"].tournaments.links(tid, token)["games"]
    seat_token = games[0]["seats"][0]["token"]
    client.get(f"/join/{games[0]['game_id']}/{seat_token}")  # the browser now holds a seat's link, not the director's
    as_seat = client.get(url)
    assert as_seat.status_code == 401 and 'id="fairplay"' not in as_seat.get_data(as_text=True)
    client.set_cookie("arbiter_td_" + tid.replace("-", ""), seat_token, path="/tournaments/")  # a seat token posing
    assert client.get(url).status_code in (401, 403)
    other = app.extensions["arbiter"].tournaments.create(CreateTournament.from_body({"name": "Other", "game": "small-battle", "players": ["C", "D"],
                                                 "format": "round-robin"}))
    client.set_cookie("arbiter_td_" + tid.replace("-", ""), other["director_token"], path="/tournaments/")
    assert client.get(url).status_code == 403
    assert client.get(url + "/progress").status_code == 403 and app.extensions["arbiter"].analysis.running() == 0
    client.get(f"/tournaments/{tid}/director/{token}")
    first = client.get(url)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-store"
    report_done(client, url)
    page = client.get(url)
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="fairplay"' in text and 'id="fairplay-job"' not in text
    assert 'data-player="Ann"' in text and 'data-player="Bob"' in text and "never a verdict" in text
    assert 'id="fairplay-stages"' in text and "Stage one, the screen" in text and "1 in 1,000,000" in text
    assert 'id="fairplay-calibrated"' in text and "10,000 simulated honest players" in text  # Small Battle's, measured
    assert "its glance: whether the strike removed a card" in " ".join(text.split())  # how the screen judged
    assert "not referred by the screen (p = " in text  # honest bots: the screen refers neither
    assert page.headers["Cache-Control"] == "no-store"
    assert 'id="fairplay-link"' in client.get(f"/tournaments/{tid}").get_data(as_text=True)


def report_done(client, url: str, seconds: float = 60) -> dict:
    """Poll the report's progress as the page's script does, until the job is done; returns its last answer."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = client.get(url + "/progress")
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
        body = answer.get_json()
        assert "report" not in body  # counts of decisions only: the report is the page's
        if body["status"] not in ("queued", "running"):
            assert body["status"] == "done", body
            return body
        time.sleep(0.2)
    raise AssertionError("the fair-play report did not finish")


def test_the_report_is_one_background_job_per_set_of_finished_games_with_its_progress(app, client):
    created = played_tournament(app)
    tid, token = created["id"], created["director_token"]
    url = f"/tournaments/{tid}/fairplay"
    client.get(f"/tournaments/{tid}/director/{token}")
    page = client.get(url).get_data(as_text=True)
    assert 'id="fairplay-job"' in page and "fairplay.js" in page and 'http-equiv="refresh"' in page
    client.get(url)  # asked again: the same job, no second one
    assert len(app.extensions["arbiter"].jobs.table.active()) <= 1
    done = report_done(client, url)
    assert done["games"] == 1 and done["progress"]["done"] == done["progress"]["total"] > 0
    assert done["stage"] == "screen"  # nobody referred: the report ended with the screen
    assert app.extensions["arbiter"].analysis.running() == 0
    assert 'data-player="Ann"' in client.get(url).get_data(as_text=True)
    assert app.extensions["arbiter"].analysis.running() == 0  # the done job answered, nothing started again


def test_players_the_screen_refers_get_the_full_test_on_the_page_and_the_job_tells_both_stages(app, client):
    from dataclasses import replace

    jobs = app.extensions["arbiter"].fairplay
    jobs.settings = replace(jobs.settings, own_samples=2, perfect_samples=1, worlds=2, refer=1.0)  # refers everyone
    created = played_tournament(app)
    tid, token = created["id"], created["director_token"]
    url = f"/tournaments/{tid}/fairplay"
    client.get(f"/tournaments/{tid}/director/{token}")
    first = client.get(url).get_data(as_text=True)
    assert "Stage 1 of 2, the screen:" in first
    stages, deadline = set(), time.monotonic() + 60
    while time.monotonic() < deadline:
        body = client.get(url + "/progress").get_json()
        if body["status"] == "running":
            stages.add(body["stage"])
            assert body["progress"]["total"] is None or body["progress"]["done"] <= body["progress"]["total"]
        if body["status"] not in ("queued", "running"):
            break
        time.sleep(0.05)
    assert body["status"] == "done" and body["stage"] == "full" and body["progress"]["done"] == body["progress"]["total"]
    assert "full" in stages or "screen" in stages  # polled while running (one poll may miss a short stage)
    text = client.get(url).get_data(as_text=True)
    assert text.count('data-referred="yes"') == 2 and "not referred by the screen" not in text
    assert "referred by the screen (p = " in text and "the full test: over " in text
    assert "percentile" in text and "1 times" not in text and "ASK A PANEL" not in text


def test_a_report_waits_in_the_queue_with_its_place_and_a_full_queue_makes_the_page_wait_with_429(app, client):
    from dataclasses import replace

    app.extensions["arbiter"].analysis.configure(max_running=1, queued=1)
    jobs = app.extensions["arbiter"].fairplay  # every player on to the full test, so that the first report is still
    jobs.settings = replace(jobs.settings, refer=1.0)  # running when the third is asked (the screen alone is quick)
    first, second, third = played_tournament(app), played_tournament(app), played_tournament(app)
    for t in (first, second, third):
        client.get(f"/tournaments/{t['id']}/director/{t['director_token']}")
    assert client.get(f"/tournaments/{first['id']}/fairplay").status_code == 200
    end = time.monotonic() + 10
    while client.get(f"/tournaments/{first['id']}/fairplay/progress").get_json()["status"] != "running":
        assert time.monotonic() < end
        time.sleep(0.05)
    waiting = client.get(f"/tournaments/{second['id']}/fairplay")
    assert waiting.status_code == 200 and "place 1 in the queue" in waiting.get_data(as_text=True)
    polled = client.get(f"/tournaments/{second['id']}/fairplay/progress").get_json()
    assert polled["status"] == "queued" and polled["queue"]["position"] == 1 and polled["queue"]["estimate_seconds"] > 0
    busy = client.get(f"/tournaments/{third['id']}/fairplay")
    assert busy.status_code == 429 and busy.headers["Retry-After"].isdigit()
    assert "wait in the queue already" in busy.get_data(as_text=True) and 'id="fairplay-job"' in busy.get_data(as_text=True)
    assert client.get(f"/tournaments/{third['id']}/fairplay/progress").get_json()["status"] == "unknown"  # none started
    report_done(client, f"/tournaments/{first['id']}/fairplay")
    report_done(client, f"/tournaments/{second['id']}/fairplay")
    assert client.get(f"/tournaments/{third['id']}/fairplay").status_code == 200  # its turn now
    report_done(client, f"/tournaments/{third['id']}/fairplay")


def test_the_director_cancels_a_report_and_asks_for_it_again(app, client):
    from dataclasses import replace

    app.extensions["arbiter"].analysis.configure(max_running=1)
    jobs = app.extensions["arbiter"].fairplay
    jobs.settings = replace(jobs.settings, refer=1.0)  # the full test too: the first report keeps the worker busy
    first, created = played_tournament(app), played_tournament(app)
    for t in (first, created):
        client.get(f"/tournaments/{t['id']}/director/{t['director_token']}")
    client.get(f"/tournaments/{first['id']}/fairplay")  # the worker is busy with this one
    tid = created["id"]
    page = client.get(f"/tournaments/{tid}/fairplay").get_data(as_text=True)
    assert 'id="fairplay-cancel"' in page
    cancelled = client.post(f"/tournaments/{tid}/fairplay/cancel")
    assert cancelled.status_code == 200 and 'id="fairplay-cancelled"' in cancelled.get_data(as_text=True)
    assert client.get(f"/tournaments/{tid}/fairplay/progress").get_json()["status"] == "cancelled"
    client.delete_cookie("arbiter_td_" + tid.replace("-", ""), path="/tournaments/")
    assert client.post(f"/tournaments/{tid}/fairplay/cancel").status_code == 401  # nobody else may
    client.get(f"/tournaments/{tid}/director/{created['director_token']}")
    again = client.get(f"/tournaments/{tid}/fairplay")  # asked again: queued again
    assert again.status_code == 200 and 'id="fairplay-job"' in again.get_data(as_text=True)
    report_done(client, f"/tournaments/{first['id']}/fairplay")
    report_done(client, f"/tournaments/{tid}/fairplay")


def test_an_unknown_tournament_is_named(client):
    missing = client.get("/tournaments/00000000-0000-0000-0000-000000000001/fairplay")
    assert missing.status_code == 404 and "no tournament with id" in missing.get_data(as_text=True)
    garbage = client.get("/tournaments/not-an-id/fairplay")
    assert garbage.status_code == 404


def test_the_command_screens_a_stored_tournament_s_finished_games(tmp_path):
    import json

    from click.testing import CliRunner

    from api.cli.group import group
    from service.facade import Arbiter

    url = f"sqlite:///{tmp_path / 'store.db'}"
    arbiter = Arbiter(url)
    try:
        desk = arbiter.tournaments
        created = desk.create(CreateTournament.from_body({"name": "Stored", "game": "small-battle", "players": ["Ann", "Bob"],
                               "format": "round-robin"}))
        desk.start_round(created["id"], created["director_token"])
        for g in desk.seatings(created["id"])["games"]:
            tournament_support.finish(arbiter.app, g["game_id"])
    finally:
        arbiter.app.close()
    result = CliRunner().invoke(group, ["fairplay", "--tournament", created["id"], "--database-url", url,
                                        "--samples", "4", "--perfect-samples", "2", "--worlds", "2", "--workers", "1",
                                        "--json"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    assert doc["games"] >= 1 and [p["player"] for p in doc["players"]] == ["Ann", "Bob"]
    assert all(p["screen"]["decisions"] > 0 for p in doc["players"])
    assert result.exit_code == (1 if any(p["referred"] for p in doc["players"]) else 0)
