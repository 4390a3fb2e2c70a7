"""The replay page's computer analysis (api/pages/analysis.py, docs/analysis.md "On the replay page") through Flask's
test client, as browsers holding a private link's cookie: the page offers the seats the API would analyse for that
identity and no other, its own route answers the API's lines for the same request, and refuses what the API refuses
(another seat's analysis for a seat's browser; a running game for seats and spectators) with the same problem; the
study link appears where the study rules allow it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api import create_app
from tests.integration.api_support import API, CheckedClient, create_stacked
from tests.integration.test_api_analysis import HANDS, done, finished

RECORDS = Path(__file__).resolve().parent.parent / "records"
OPTION = re.compile(r'<option value="(\d+)"[^>]*>')


@pytest.fixture
def app():
    app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1, "ANALYSIS_WORKERS": 1,
                      "ANALYSIS_JOBS_PER_CALLER": 4, "ANALYSIS_MAX_JOBS": 8})
    app.test_client_class = CheckedClient
    yield app
    app.extensions["arbiter"].analysis.close()


def browser(app, game_id: str, token: str | None = None):
    client = app.test_client()
    if token:
        assert client.get(f"/join/{game_id}/{token}").status_code == 302
    return client


def offered(page: str) -> list[int] | None:
    """The seats the page's analysis control offers (None: no control)."""
    if 'id="analysis"' not in page:
        return None
    select = page[page.index('id="analysis-seat"'):]
    return [int(s) for s in OPTION.findall(select[:select.index("</select>")])]


def token_of(header: dict) -> str:
    return header["Authorization"].split()[1]


def poll(client, job: dict) -> dict:
    return done(client, job["url"], {})


def test_a_seat_s_page_offers_its_own_seat_alone_and_its_route_gives_the_api_s_lines(app):
    api = app.test_client()
    game = finished(api)
    page_client = browser(app, game.id, token_of(game.seats[1]))
    page = page_client.get(f"/games/{game.id}/replay").get_data(as_text=True)
    assert offered(page) == [1]
    answer = page_client.post(f"/games/{game.id}/replay/analysis", json={"seat": 1, "samples": 8, "seed": "p"})
    assert answer.status_code == 202, answer.get_data(as_text=True)
    job = answer.get_json()
    assert answer.headers["Location"] == job["url"] and job["url"].startswith(f"/games/{game.id}/replay/analysis/")
    by_page = poll(page_client, job)
    by_api = done(api, f"{game.url}/{job['id']}", game.seats[1])  # the same request: the same job
    assert by_page["status"] == "done" and by_page["lines"] and by_page["lines"] == by_api["lines"]
    assert all(line["seat"] == 1 and "version" in line for line in by_page["lines"])


def test_a_seat_s_page_route_refuses_another_seat_s_analysis_as_the_api_does(app):
    api = app.test_client()
    game = finished(api)
    page_client = browser(app, game.id, token_of(game.seats[1]))
    by_page = page_client.post(f"/games/{game.id}/replay/analysis", json={"seat": 0, "samples": 8})
    by_api = api.post(game.url, json={"seat": 0, "samples": 8}, headers=game.seats[1])
    assert by_page.status_code == by_api.status_code == 403
    assert by_page.mimetype == "application/problem+json"
    assert by_page.get_json()["detail"] == by_api.get_json()["detail"] == \
        "a seat may analyse only its own decisions: seat 1 asked for seat 0's"
    job = api.post(game.url, json={"seat": 0, "samples": 8}, headers=game.referee).get_json()  # seat 0's, by the referee
    refused = page_client.get(f"/games/{game.id}/replay/analysis/{job['id']}")
    assert refused.status_code == 403 and "lines" not in refused.get_json()


def test_a_spectator_s_page_offers_every_seat_of_a_finished_game_and_links_a_study(app):
    api = app.test_client()
    game = finished(api)
    page = browser(app, game.id).get(f"/games/{game.id}/replay?version=5").get_data(as_text=True)
    assert offered(page) == [0, 1]
    assert re.search(r'href="/games/[^"]+/studies/new\?version=5&amp;seat=0" id="study-here"', page)


def test_a_running_game_offers_the_control_and_the_study_link_to_its_referee_alone(app):
    api = app.test_client()
    game = create_stacked(api, HANDS)
    seat_page = browser(app, game.id, game.seat_tokens[0]).get(f"/games/{game.id}/replay").get_data(as_text=True)
    spectator_page = browser(app, game.id).get(f"/games/{game.id}/replay").get_data(as_text=True)
    referee = browser(app, game.id, game.referee_token)
    referee_page = referee.get(f"/games/{game.id}/replay").get_data(as_text=True)
    assert offered(seat_page) is None and offered(spectator_page) is None
    assert 'id="study-here"' not in seat_page and 'id="study-here"' not in spectator_page
    assert offered(referee_page) == [0, 1, 2, 3] and 'id="study-here"' in referee_page
    refused = browser(app, game.id, game.seat_tokens[0]).post(f"/games/{game.id}/replay/analysis", json={"seat": 0})
    assert refused.status_code == 403 and "once the game is over" in refused.get_json()["detail"]


def test_the_page_route_names_a_bad_field_and_wants_json(app):
    api = app.test_client()
    game = finished(api)
    client = browser(app, game.id)
    bad = client.post(f"/games/{game.id}/replay/analysis", json={"seat": 0, "samples": 0})
    assert bad.status_code == 422 and bad.get_json()["field"] == "samples"
    form = client.post(f"/games/{game.id}/replay/analysis", data={"seat": "0"})
    assert form.status_code == 400 and form.mimetype == "application/problem+json"
    missing = client.get(f"/games/{game.id}/replay/analysis/nope")
    assert missing.status_code == 404


def test_a_game_without_analysis_shows_neither_control_nor_study_link():
    from tests.toy_game import register

    with register():  # High Card (tests/toy_game) declares no analysis
        app = create_app({"DATABASE_URL": "memory://", "ANALYSIS_WORKERS": 1})
        app.test_client_class = CheckedClient
        created = app.test_client().post(f"{API}/games", json={"game": "high-card", "options": {"rounds": 2},
                                                               "players": [{"name": "North"}, {"name": "South"}]})
        body = created.get_json()
        page = browser(app, body["id"], body["referee_token"]).get(f"/games/{body['id']}/replay").get_data(as_text=True)
    assert created.status_code == 201 and 'id="replay"' in page
    assert offered(page) is None and 'id="study-here"' not in page


def test_visitors_of_one_address_each_have_their_own_slot_within_the_larger_address_limit():
    """Spectators' browsers on one address (the test client's 127.0.0.1) are told apart by their own cookie: one
    visitor's second job is refused (one asker), another visitor's first is not, until the address's limit."""
    app = create_app({"DATABASE_URL": "memory://", "ANALYSIS_WORKERS": 1, "ANALYSIS_MAX_JOBS": 1,
                      "ANALYSIS_JOBS_PER_CALLER": 1, "ANALYSIS_JOBS_PER_ADDRESS": 2})
    app.test_client_class = CheckedClient
    try:
        game = finished(app.test_client(), RECORDS / "batallion" / "selfplay-01-3p.json")
        url = f"/games/{game.id}/replay/analysis"
        ann, bob, cy = app.test_client(), app.test_client(), app.test_client()
        first = ann.post(url, json={"seat": 0, "seed": "ann"})
        assert first.status_code == 202 and "arbiter-asker=" in first.headers["Set-Cookie"]
        assert "HttpOnly" in first.headers["Set-Cookie"] and "SameSite=Strict" in first.headers["Set-Cookie"]
        again = ann.post(url, json={"seat": 0, "seed": "ann-2"})
        assert again.status_code == 429 and "one asker" in again.get_json()["detail"]
        assert bob.post(url, json={"seat": 1, "seed": "bob"}).status_code == 202  # another visitor, same address
        third = cy.post(url, json={"seat": 2, "seed": "cy"})
        assert third.status_code == 429 and "one address" in third.get_json()["detail"]
        assert bob.post(f"{first.get_json()['url']}/cancel").status_code == 403  # not bob's job
        assert ann.post(f"{first.get_json()['url']}/cancel").get_json()["status"] == "cancelled"
        assert cy.post(url, json={"seat": 2, "seed": "cy"}).status_code == 202  # a place freed on the address
    finally:
        app.extensions["arbiter"].analysis.close()
