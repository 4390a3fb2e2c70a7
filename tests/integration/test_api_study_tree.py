"""A study's tree over HTTP and on its page (issue 36 part 7, docs/studies.md): a move at a node that has another
child starts a branch, the same move again leads to the same node; a node's permalink reads the study there; the page
draws the table's own board, refuses an illegal move in place with its clause, answers table.js with the node
reached, and shows no comment form to a spectator."""

from __future__ import annotations

import pytest

from service.offline.simulation import make_plan, run

from .api_support import API, assert_problem, bearer
from .test_api_studies import _import, _open

FINISHED = list(run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "studies-e2e"), 1))[0]

VERSION = 44  # seat 2 is to act at the study's start (pass or throw in: two moves played by the board)


@pytest.fixture
def study(client):
    gid, tokens, referee = _import(client, FINISHED)
    opened = _open(client, gid, {"version": VERSION, "seat": 2, "seed": "e2e1280"}, tokens[2]).get_json()
    return gid, tokens, referee, opened


def _whole(study: dict) -> list[dict]:
    return [m for m in study["view"]["table"]["legal_moves"] if set(m) <= {"type", "cards", "seat"}]


def test_a_different_move_at_a_node_starts_a_branch_and_the_same_move_leads_to_the_same_node(client, study):
    s = study[3]
    start, (one, other) = s["node"], _whole(s)[:2]
    url = f"{API}/studies/{s['id']}/nodes/{start}/moves"
    first = client.post(url, json={"move": one}).get_json()
    again = client.post(url, json={"move": one}).get_json()
    assert again["node"] == first["node"] and len(again["nodes"]) == len(first["nodes"])  # no node added twice
    branch = client.post(url, json={"move": other}).get_json()
    assert len(branch["nodes"][start]["children"]) == 2
    assert branch["path"][:branch["path"].index(start) + 1] == first["path"][:first["path"].index(start) + 1]
    assert branch["nodes"][branch["path"][branch["path"].index(start) + 1]]["by"] == "user"
    at = client.get(f"{API}/studies/{s['id']}/nodes/{first['node']}").get_json()  # the first line's permalink
    assert at["node"] == first["node"] and at["view"] == first["view"]
    assert at["node_permalink"] == f"/studies/{s['id']}/nodes/{first['node']}"
    assert client.get(f"{API}/studies/{s['id']}").get_json()["node"] == first["node"]  # the main line's end


def test_a_node_the_study_does_not_have_is_a_clear_4xx(client, study):
    _, tokens, referee, s = study
    n = len(s["nodes"])
    assert "nodes 0.." in assert_problem(client.get(f"{API}/studies/{s['id']}/nodes/{n}"), 422)["detail"]
    assert_problem(client.post(f"{API}/studies/{s['id']}/nodes/{n}/moves", json={"move": {"type": "pass"}}), 422)
    assert "node" in assert_problem(client.post(f"{API}/studies/{s['id']}/comments", json={"node": n, "text": "x"},
                                                headers=bearer(referee)), 422)["detail"]
    assert client.get(f"{API}/studies/{s['id']}/nodes/-1").status_code == 404
    commented = client.post(f"{API}/studies/{s['id']}/comments", json={"node": 0, "text": "from here"},
                            headers=bearer(tokens[2]))
    assert commented.status_code == 201 and commented.get_json()["nodes"][0]["comments"][0]["text"] == "from here"
    assert commented.get_json()["may_comment"] is True
    assert client.get(f"{API}/studies/{s['id']}").get_json()["may_comment"] is False  # a spectator


def test_the_page_draws_the_tables_board_and_refuses_an_illegal_move_in_place(client, study):
    gid, tokens, _, s = study
    client.get(f"/join/{gid}/{tokens[2]}")  # this browser holds seat 2's link
    page = client.get(f"/studies/{s['id']}").get_data(as_text=True)
    assert 'id="controls"' in page and 'id="hand"' in page and 'id="battle-pile"' in page
    assert 'name="move"' not in page.split('id="study-side"')[0]  # no JSON box on the board
    assert len(page) < 60_000
    act = f"/studies/{s['id']}/nodes/{s['node']}/move"
    refused = client.post(act, data={"type": "throw_in", "card_moves": "attack throw_in beat show take"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'id="error"' in text and 'class="clause"' in text
    assert 'id="controls"' in text and "Back to the lobby" not in text
    inline = client.post(act, data={"type": "throw_in", "card_moves": "throw_in"},
                         headers={"X-Arbiter-Partial": "1", "X-Arbiter-Refusal-In-Header": "1"})
    assert inline.status_code == 200 and inline.headers["X-Arbiter-Status"] == "422"
    assert "<html" not in inline.get_data(as_text=True) and 'id="error"' in inline.get_data(as_text=True)
    played = client.post(act, data={"type": "pass"}, headers={"X-Arbiter-Partial": "1"})
    assert played.status_code == 200 and played.headers["X-Arbiter-Location"].startswith(f"/studies/{s['id']}/nodes/")
    assert client.post(act, data={"type": "pass"}).status_code == 303


def test_a_spectator_sees_no_comment_form_and_a_seat_keeps_its_refused_text(client, study):
    gid, tokens, _, s = study
    spectator = client.get(f"/studies/{s['id']}/nodes/0").get_data(as_text=True)
    assert 'id="study-comment-form"' not in spectator and 'id="comment-who"' in spectator
    client.get(f"/join/{gid}/{tokens[2]}")
    seat = client.get(f"/studies/{s['id']}/nodes/0").get_data(as_text=True)
    assert 'id="study-comment-form"' in seat
    refused = client.post(f"/studies/{s['id']}/nodes/0/comment", data={"text": "bell\x07 rings"})
    assert refused.status_code == 422 and "bell\x07 rings" in refused.get_data(as_text=True)


def test_the_analysis_candidates_of_the_start_show_beside_the_board_once_an_analysis_is_done(client, study,
                                                                                               monkeypatch):
    import time

    from api.pages import study_candidates

    gid, tokens, _, s = study
    client.get(f"/join/{gid}/{tokens[2]}")
    before = client.get(f"/studies/{s['id']}/nodes/0").get_data(as_text=True)
    assert 'id="candidates-start"' in before and 'id="candidates-table"' not in before  # a link to start one
    monkeypatch.setattr(study_candidates, "SAMPLES", (4,))
    job = client.post(f"{API}/games/{gid}/analysis", json={"seat": 2, "samples": 4}, headers=bearer(tokens[2]))
    assert job.status_code == 202, job.get_data(as_text=True)
    url = f"{API}/games/{gid}/analysis/{job.get_json()['id']}"
    for _ in range(600):
        done = client.get(url, headers=bearer(tokens[2])).get_json()
        if done["status"] not in ("queued", "running"):
            break
        time.sleep(0.1)
    assert done["status"] == "done", done
    line = next(x for x in done["lines"] if x["version"] == VERSION + 1)
    page = client.get(f"/studies/{s['id']}/nodes/0").get_data(as_text=True)
    assert 'id="candidates-table"' in page and page.count('class="play-candidate"') == len(line["moves"])
    reached = client.post(f"{API}/studies/{s['id']}/nodes/0/moves", json={"move": {"type": "pass"}}).get_json()
    later = client.get(f"/studies/{s['id']}/nodes/{reached['node']}")
    assert later.status_code == 200 and 'id="candidates-table"' not in later.get_data(as_text=True)  # the analysis judged the recorded game's positions, not the study's


@pytest.mark.parametrize("every_seat", [False, True])
def test_every_game_s_study_page_draws_its_own_board_hand_and_controls(client, every_seat):
    """The table's partial of each game with a sampler draws a study's node (the view the page builds for it)."""
    import json

    from domain.records import to_document
    from tests.unit.test_analysis_hidden import CASES, _game

    for game, players, options in CASES:
        record = _game(game, players, options)
        doc = to_document(record.game, record.setup, record.seed, record.outcomes, record.moves)
        gid, tokens, referee = _import(client, doc)
        top = client.get(f"{API}/games/{gid}").get_json()["version"]
        s = _open(client, gid, {"version": top // 2, "seat": 1, "seed": "boards", "every_seat": every_seat},
                  referee).get_json()
        client.get(f"/join/{gid}/{tokens[1]}")
        page = client.get(f"/studies/{s['id']}")
        text = page.get_data(as_text=True)
        assert page.status_code == 200, (game, json.dumps(options), text[:500])
        assert 'class="status panel"' in text and 'id="study-tree"' in text, game
        if not s["over"] and s["view"]["seat"] in s["to_act"]:
            assert 'id="controls"' in text, game
