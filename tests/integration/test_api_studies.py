"""The study routes and page (issue 27 parts 3 and 5, docs/studies.md): who may open, read, play and comment; bad
input is a clear 4xx; the recorded game never changes; comments show (escaped) in the page's move list."""

from __future__ import annotations

import pytest

from service.offline.simulation import make_plan, run

from .api_support import API, CheckedClient, assert_problem, bearer, players

FINISHED = list(run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "studies"), 1))[0]


def _import(client, doc):
    response = client.post(f"{API}/records", json=doc)
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    return body["id"], [s["token"] for s in body["seats"]], body["referee_token"]


@pytest.fixture
def finished(client):
    return _import(client, FINISHED)


@pytest.fixture
def running(client):
    return _import(client, {**FINISHED, "moves": FINISHED["moves"][:10]})


def _open(client, gid, body, token=None):
    return client.post(f"{API}/games/{gid}/studies", json=body, headers=bearer(token) if token else {})


def _version(client, gid) -> int:
    return client.get(f"{API}/games/{gid}").get_json()["version"]


def test_anyone_opens_a_study_of_a_finished_game_and_plays_it_against_the_bots(client, finished):
    gid, _, _ = finished
    before = _version(client, gid)
    r = _open(client, gid, {"version": 30, "seat": 2, "seed": "s1"})
    assert r.status_code == 201, r.get_data(as_text=True)
    study = r.get_json()
    assert r.headers["Location"].endswith(f"/api/v1/studies/{study['id']}")
    assert study["permalink"] == f"/studies/{study['id']}" and study["variation"] is True
    assert study["view"]["seat"] == 2 and study["to_act"] == [2]
    legal = study["view"]["table"]["legal_moves"]
    move = next(m for m in legal if set(m) <= {"type"} or m["type"] in ("attack", "beat", "throw_in"))
    r = client.post(f"{API}/studies/{study['id']}/moves", json={"move": move})
    assert r.status_code == 200, r.get_data(as_text=True)
    after = r.get_json()
    k = len(study["positions"])  # the bots may have played up to seat 2's turn when the study opened
    assert all(p["by"] == "bot" and p["move"]["seat"] != 2 for p in study["positions"][1:])
    assert after["positions"][:k] == study["positions"]
    assert after["positions"][k]["by"] == "user" and after["positions"][k]["move"]["seat"] == 2
    assert all(p["by"] == "bot" and p["move"]["seat"] != 2 for p in after["positions"][k + 1:])
    assert after["over"] or 2 in after["to_act"]
    again = client.get(f"{API}/studies/{study['id']}").get_json()
    assert again["positions"] == after["positions"] and again["view"] == after["view"]
    assert _version(client, gid) == before  # the recorded game is untouched


def test_the_same_seed_opens_the_same_sandbox(client, finished):
    gid, _, _ = finished
    a = _open(client, gid, {"version": 25, "seat": 1, "seed": "same"}).get_json()
    b = _open(client, gid, {"version": 25, "seat": 1, "seed": "same"}).get_json()
    assert a["id"] != b["id"] and a["view"] == b["view"] and a["positions"] == b["positions"]


def test_an_illegal_or_malformed_variation_move_is_a_422_that_changes_nothing(client, finished):
    gid, _, _ = finished
    study = _open(client, gid, {"version": 30, "seat": 2, "seed": "s1"}).get_json()
    url = f"{API}/studies/{study['id']}/moves"
    body = assert_problem(client.post(url, json={"move": {"type": "claim"}}), 422)
    assert "claim" in body["detail"] or body.get("rule")
    assert "unknown move type" in assert_problem(client.post(url, json={"move": {"type": "fly"}}), 422)["detail"]
    assert_problem(client.post(url, json={"move": {"type": "pass", "seat": 0}}), 422)
    assert_problem(client.post(url, json={"nope": 1}), 422)
    assert client.get(f"{API}/studies/{study['id']}").get_json()["positions"] == study["positions"]


def test_every_seat_lets_the_user_play_each_seat_in_turn(client, finished):
    gid, _, _ = finished
    study = _open(client, gid, {"version": 30, "seat": 2, "seed": "s1", "every_seat": True}).get_json()
    for _ in range(3):
        seat = study["to_act"][0]
        assert study["view"]["seat"] == seat
        move = study["view"]["table"]["legal_moves"][0]
        move = {k: v for k, v in move.items() if k in ("type",)} if set(move) <= {"type"} else move
        r = client.post(f"{API}/studies/{study['id']}/moves", json={"move": move})
        if r.status_code != 200:
            break  # a summarised entry (a take from a list) is not a whole move: enough seats were played
        study = r.get_json()
        assert all(p["by"] == "user" for p in study["positions"][1:])
    assert len(study["positions"]) >= 2


def test_a_seat_studies_only_its_own_seat_and_only_once_the_game_is_over(client, finished, running):
    gid, tokens, _ = finished
    assert _open(client, gid, {"version": 20, "seat": 1}, tokens[1]).status_code == 201
    assert_problem(_open(client, gid, {"version": 20, "seat": 2}, tokens[1]), 403)
    rid, rtokens, rref = running
    assert_problem(_open(client, rid, {"version": 5, "seat": 1}, rtokens[1]), 403)
    assert_problem(_open(client, rid, {"version": 5, "seat": 1}), 403)
    study = _open(client, rid, {"version": 5, "seat": 1}, rref)
    assert study.status_code == 201
    sid = study.get_json()["id"]
    assert_problem(client.get(f"{API}/studies/{sid}"), 403)  # a study of a game still on is the referee's
    assert_problem(client.get(f"{API}/studies/{sid}", headers=bearer(rtokens[1])), 403)
    assert client.get(f"{API}/studies/{sid}", headers=bearer(rref)).status_code == 200


def test_bad_study_requests_are_clear_4xx(client, finished):
    gid, _, _ = finished
    top = _version(client, gid)
    assert "version" in assert_problem(_open(client, gid, {"version": top + 1, "seat": 0}), 422)["detail"]
    assert "seat" in assert_problem(_open(client, gid, {"version": 3, "seat": 4}), 422)["detail"]
    assert_problem(_open(client, gid, {"version": "3", "seat": 0}), 422)
    assert_problem(_open(client, gid, {"seat": 0}), 422)
    assert_problem(_open(client, gid, {"version": 3, "seat": 0, "seed": "x" * 101}), 422)
    assert_problem(_open(client, "no-such-game", {"version": 3, "seat": 0}), 404)
    assert_problem(client.get(f"{API}/studies/not-a-study"), 404)
    assert_problem(client.get(f"{API}/studies/{gid}"), 404)  # a game's id is no study


def test_a_game_without_a_sampler_cannot_be_studied():
    from api import create_app
    from tests.toy_game import register

    with register():  # High Card (tests/toy_game) declares no analysis, so no sampler
        app = create_app({"DATABASE_URL": "memory://"})
        app.test_client_class = CheckedClient
        client = app.test_client()
        created = client.post(f"{API}/games", json={"game": "high-card", "options": {"rounds": 2},
                                                    "players": players(2)}).get_json()
        body = assert_problem(_open(client, created["id"], {"version": 1, "seat": 0}, created["referee_token"]), 422)
    assert "sampler" in body["detail"]


def test_seats_and_the_referee_comment_spectators_do_not_and_limits_hold(client, finished):
    gid, tokens, referee = finished
    study = _open(client, gid, {"version": 30, "seat": 2, "seed": "c"}).get_json()
    url = f"{API}/studies/{study['id']}/comments"
    assert_problem(client.post(url, json={"version": 0, "text": "hi"}), 403)
    r = client.post(url, json={"version": 0, "text": "<script>x</script> why?"}, headers=bearer(tokens[3]))
    assert r.status_code == 201, r.get_data(as_text=True)
    r = client.post(url, json={"version": 0, "text": "ruled fine"}, headers=bearer(referee))
    comments = r.get_json()["positions"][0]["comments"]
    assert [(c["author"], c["text"]) for c in comments] == [("seat 3", "<script>x</script> why?"),
                                                            ("referee", "ruled fine")]
    assert_problem(client.post(url, json={"version": 0, "text": "x" * 501}, headers=bearer(referee)), 422)
    assert_problem(client.post(url, json={"version": 0, "text": "a\x07b"}, headers=bearer(referee)), 422)
    last = len(study["positions"]) - 1
    assert "positions" in assert_problem(
        client.post(url, json={"version": last + 1, "text": "later"}, headers=bearer(referee)), 422)["detail"]
    page = client.get(f"/studies/{study['id']}").get_data(as_text=True)
    assert "&lt;script&gt;x&lt;/script&gt; why?" in page and "<script>x</script>" not in page
    assert "not part of the recorded game" in page


def test_the_page_plays_a_move_and_comments_through_its_forms(client, finished):
    gid, tokens, _ = finished
    client.get(f"/join/{gid}/{tokens[2]}")  # this browser now holds seat 2's private link
    r = client.post(f"/games/{gid}/studies", data={"version": "30", "seat": "2", "seed": "page"})
    assert r.status_code == 303, r.get_data(as_text=True)
    page_url = r.headers["Location"]
    sid = page_url.rsplit("/", 1)[1]
    study = client.get(f"{API}/studies/{sid}").get_json()
    assert study["by"] == "seat 2"
    import json
    move = next(m for m in study["view"]["table"]["legal_moves"] if set(m) <= {"type", "cards"})
    assert client.post(f"/studies/{sid}/move", data={"move": json.dumps(move)}).status_code == 303
    assert client.post(f"/studies/{sid}/comment", data={"version": "1", "text": "my try"}).status_code == 303
    page = client.get(page_url).get_data(as_text=True)
    assert "my try" in page and "seat 2" in page
    bad = client.post(f"/studies/{sid}/move", data={"move": "{not json"})
    assert bad.status_code == 422 and "JSON" in bad.get_data(as_text=True)


def test_two_stored_games_differing_only_in_cards_the_seat_had_not_seen_give_the_same_study(client):
    """The whole road (store, version cut, knowledge, sampler, bots, projection): the recorded game's hidden cards
    never reach a study. Two imported games, the second's deal swapping two cards seat 1 had not seen."""
    import random

    from domain.records import parse, to_document
    from tests.unit.test_analysis_hidden import _altered, _cut

    record = parse(FINISHED)
    rng = random.Random(5)
    for upto in (30, 24, 40, 18):
        altered = _altered(record, 1, upto, rng)
        if altered is not None:
            break
    assert altered is not None
    original = _cut(record, upto)
    answers = []
    for r in (original, altered):
        doc = to_document(r.game, r.setup, r.seed, r.outcomes, r.moves)
        gid, _, referee = _import(client, doc)
        version = _version(client, gid)
        study = _open(client, gid, {"version": version, "seat": 1, "seed": "same"}, referee).get_json()
        legal = [m for m in study["view"]["table"].get("legal_moves") or [] if set(m) <= {"type", "cards"}]
        if legal and not study["over"]:
            study = client.post(f"{API}/studies/{study['id']}/moves", json={"move": legal[0]},
                                headers=bearer(referee)).get_json()
        answers.append({k: study[k] for k in ("positions", "view", "to_act", "over", "version")})
    assert answers[0] == answers[1]


def test_a_rewind_of_the_game_after_a_study_was_opened_does_not_move_the_study(client):
    """A study starts from the game as it was at its version (read at that version), not from today's moves."""
    from .api_support import TEAMS_NSEW, create_stacked, play
    from .fuzz_support import HANDS

    table = create_stacked(client, HANDS, TEAMS_NSEW)
    first = play(client, table, {"type": "attack", "cards": ["5S", "5H"]}, seat=0)
    attacked = first["events"][0]["version"]
    play(client, table, {"type": "pass"})
    version = _version(client, table.id)
    study = _open(client, table.id, {"version": version, "seat": 2, "seed": "r"}, table.referee_token).get_json()
    filed = client.post(f"{table.url}/disputes", headers=table.seat(0), json={"version": attacked, "claim": "early"})
    assert filed.status_code == 201
    ruled = client.post(f"{table.url}/disputes/1/ruling", headers=table.referee,
                        json={"decision": "upheld", "remedy": "rewind", "note": "replay it"})
    assert ruled.status_code == 200, ruled.get_data(as_text=True)
    client.application.extensions["arbiter"].studies.forget_starts()  # read again from the store, not from memory
    again = client.get(f"{API}/studies/{study['id']}", headers=table.referee).get_json()
    assert again["view"] == study["view"] and again["positions"] == study["positions"]


def test_the_new_study_form_opens_a_study_for_the_seat_it_names(client, finished):
    gid, _, _ = finished
    form = client.get(f"/games/{gid}/studies/new?version=12&seat=3")
    assert form.status_code == 200
    text = form.get_data(as_text=True)
    assert 'value="12"' in text and 'value="3" selected' in text
    r = client.post(f"/games/{gid}/studies", data={"version": "12", "seat": "3", "every_seat": "on"})
    assert r.status_code == 303
    study = client.get(f"{API}/studies/{r.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert (study["version"], study["seat"], study["every_seat"], study["by"]) == (12, 3, True, "spectator")
    assert client.post(f"/games/{gid}/studies", data={"version": "x", "seat": "3"}).status_code == 422
