"""The replay viewer's pages (api/pages/replay.py) through Flask's test client: the move list beside the table, links
to every version, audit and dispute links, the record's download and the upload of a record with its verdict.

Games are El Royale's worked example 4 (stacked, seats P0..P3 named after compass points here): 0 attacks 8H,
2 joins with 8S, 3 0 2 pass, 1 beats with KS, 2 throws in KC KD KH and team NS wins.
"""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from tests.integration.api_support import API, TEAMS_NSEW, bearer, create_stacked, play
from tests.unit.test_worked_examples import EX4_HANDS, EX4_OPEN, EX4_REINFORCE

EX4 = [(m[0], m[1], list(m[2]) if len(m) > 2 and m[2] is not None else None) for m in EX4_OPEN + EX4_REINFORCE["revised"]]
ENTRY = re.compile(r'<li id="(v[^"]+)" class="([^"]*)" data-version="(\d+)"[^>]*>(.*?)</li>', re.S)


def move_of(kind: str, cards) -> dict:
    return {"type": kind} | ({"cards": cards} if cards is not None else {})


def entries(page: str) -> list[dict]:
    """The move list's entries of a page: anchor, classes, version and inner HTML."""
    listed = page[page.index('<ol class="move-list"'):]
    listed = listed[:listed.index("</ol>")]
    return [{"anchor": a, "classes": c.split(), "version": int(v), "html": h} for a, c, v, h in ENTRY.findall(listed)]


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def browser(app, token: str | None = None, game_id: str | None = None):
    """A test client as one person: with a token it has opened that private link (the cookie holds it)."""
    client = app.test_client()
    if token:
        assert client.get(f"/join/{game_id}/{token}").status_code == 302
    return client


@pytest.fixture
def ex4(client):
    """Worked example 4 created over the API, nothing played yet."""
    return create_stacked(client, EX4_HANDS, teams=TEAMS_NSEW, dealer=0, starter=0)


def play_ex4(client, table, upto: int | None = None) -> None:
    for seat, kind, cards in EX4[:upto]:
        play(client, table, move_of(kind, cards), seat)


def test_the_move_list_shows_every_logged_event_by_name_with_its_cards_and_clause_and_highlights_the_version_shown(
        app, client, ex4):
    play_ex4(client, ex4)
    events = client.get(f"{ex4.url}/events", headers=ex4.referee).get_json()
    referee = browser(app, ex4.referee_token, ex4.id)
    page = referee.get(f"/games/{ex4.id}/replay?version=5").get_data(as_text=True)
    listed = entries(page)
    assert [e["version"] for e in listed] == [e["version"] for e in events]
    attack = next(e for e in listed if "type-attacked" in e["classes"])
    assert "North" in text_of(attack["html"]) and 'aria-label="8 of hearts"' in attack["html"]
    assert '<span class="clause">ER-3.1</span>' in attack["html"] or "ER-3.1" in text_of(attack["html"])
    assert "P0" not in page and "seat:" not in page, "seats are named, never numbered"
    current = [e for e in listed if "current" in e["classes"]]
    assert [e["version"] for e in current] == [5] and 'aria-current="step"' in page
    assert f'href="/games/{ex4.id}/replay?version=7"' in page, "every entry links to its version"
    assert f'#v5"' in page and 'id="permalink"' in page


def test_without_a_version_the_replay_shows_the_latest_and_an_out_of_range_version_is_clamped(app, client, ex4):
    play_ex4(client, ex4, 3)
    latest = client.get(ex4.url).get_json()["version"]
    referee = browser(app, ex4.referee_token, ex4.id)
    for asked, shown in ((None, latest), (0, 1), (10_000, latest)):
        page = referee.get(f"/games/{ex4.id}/replay" + ("" if asked is None else f"?version={asked}")).get_data(as_text=True)
        assert [e["version"] for e in entries(page) if "current" in e["classes"]] == [shown]


def test_a_refused_attempt_is_listed_in_place_with_clause_and_reason_for_the_referee_and_hidden_from_seats_until_the_end(
        app, client, ex4):
    play_ex4(client, ex4, 1)
    refused = client.post(f"{ex4.url}/moves", json={"type": "beat", "cards": ["2C"]}, headers=ex4.seat(1))
    assert refused.status_code == 422
    rule = refused.get_json()["rule"]
    at = client.get(ex4.url).get_json()["version"]
    page = browser(app, ex4.referee_token, ex4.id).get(f"/games/{ex4.id}/replay?version={at}").get_data(as_text=True)
    refusal = [e for e in entries(page) if "kind-refusal" in e["classes"]]
    assert len(refusal) == 1 and refusal[0]["version"] == at and refusal[0]["anchor"] == f"v{at}-attempt1"
    words = text_of(refusal[0]["html"])
    assert "East" in words and "refused" in words and rule in words and refused.get_json()["detail"] in words
    for seat in (0, 1):  # the refusal stays between the referee and ... nobody else while the game runs
        seat_page = browser(app, ex4.seat_tokens[seat], ex4.id).get(f"/games/{ex4.id}/replay?version={at}").get_data(as_text=True)
        assert not [e for e in entries(seat_page) if "kind-refusal" in e["classes"]]
    spectator_page = app.test_client().get(f"/games/{ex4.id}/replay?version={at}").get_data(as_text=True)
    assert not [e for e in entries(spectator_page) if "kind-refusal" in e["classes"]]


def test_a_dispute_and_its_ruling_are_marked_on_the_disputed_move_with_claim_and_note(app, client, ex4):
    play_ex4(client, ex4, 2)
    disputed = client.get(ex4.url).get_json()["version"]
    assert client.post(f"{ex4.url}/disputes", json={"version": disputed, "claim": "that eight came late"},
                       headers=ex4.seat(1)).status_code in (200, 201)
    assert client.post(f"{ex4.url}/disputes/1/ruling", json={"decision": "rejected", "remedy": "none",
                                                             "note": "it was in time"}, headers=ex4.referee).status_code == 200
    page = browser(app, ex4.seat_tokens[3], ex4.id).get(f"/games/{ex4.id}/replay").get_data(as_text=True)
    listed = entries(page)
    move = next(e for e in listed if e["version"] == disputed)
    assert "disputed" in move["classes"]
    words = text_of(move["html"])
    assert "East" in words and "that eight came late" in words and "rejected" in words and "it was in time" in words
    assert [e["version"] for e in listed if "kind-dispute" in e["classes"]] and [
        e for e in listed if "kind-ruling" in e["classes"] and "it was in time" in text_of(e["html"])]


def test_every_audit_row_and_every_dispute_links_to_the_replay_at_its_version_and_entry(app, client, ex4):
    play_ex4(client, ex4, 3)
    client.post(f"{ex4.url}/moves", json={"type": "pass"}, headers=ex4.seat(1))  # refused: not East's turn
    assert client.post(f"{ex4.url}/disputes", json={"version": 4, "claim": "too slow"}, headers=ex4.seat(1)).status_code in (200, 201)
    referee = browser(app, ex4.referee_token, ex4.id)
    audit = referee.get(f"/games/{ex4.id}/audit").get_data(as_text=True)
    rows = re.findall(r'<tr class="entry[^"]*" data-version="(\d+)">\s*<td[^>]*><a class="to-replay" href="([^"]+)"', audit)
    log = client.get(f"{ex4.url}/events", headers=ex4.referee).get_json()
    assert len(rows) == len(log) >= 8
    replay = referee.get(f"/games/{ex4.id}/replay").get_data(as_text=True)
    anchors = {e["anchor"] for e in entries(replay)}
    for version, href in rows:
        path, anchor = html.unescape(href).split("#")
        assert path == f"/games/{ex4.id}/replay?version={version}" and anchor in anchors
        landed = entries(referee.get(path).get_data(as_text=True))
        assert [e["version"] for e in landed if "current" in e["classes"]] == [int(version)]
    assert f'/games/{ex4.id}/replay?version={log[-1]["version"]}#v{log[-1]["version"]}-attempt1' in audit or any(
        "attempt" in h for _, h in rows)
    disputes = referee.get(f"/games/{ex4.id}/disputes").get_data(as_text=True)
    assert f'href="/games/{ex4.id}/replay?version=4#v4"' in disputes


# -- download and upload -------------------------------------------------------------------------------------------------


def test_the_referee_downloads_the_record_as_a_file_that_post_records_verifies_to_the_same_verdict(app, client, ex4):
    play_ex4(client, ex4, 4)
    response = browser(app, ex4.referee_token, ex4.id).get(f"/games/{ex4.id}/record.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="el-royale-')
    doc = json.loads(response.get_data())
    assert doc == client.get(f"{ex4.url}/record", headers=ex4.referee).get_json()
    assert response.get_data(as_text=True).startswith('{\n  "format": "arbiter.record/1"'), "the document's own key order"
    verdict = client.post(f"{API}/records", json=doc).get_json()["verdict"]
    assert verdict["status"] == "in_progress" and verdict["moves_applied"] == 4


def test_while_the_game_runs_a_seat_cannot_download_the_record_and_sees_why_on_a_page(app, client, ex4):
    play_ex4(client, ex4, 2)
    seat = browser(app, ex4.seat_tokens[0], ex4.id)
    page = seat.get(f"/games/{ex4.id}/replay").get_data(as_text=True)
    assert 'id="download-record"' not in page and 'id="download-later"' in page
    response = seat.get(f"/games/{ex4.id}/record.json")
    assert response.status_code == 403 and response.mimetype == "text/html" and "referee" in response.get_data(as_text=True)
    assert "8H" not in response.get_data(as_text=True)


def test_once_the_game_is_over_a_spectator_downloads_the_record(app, client, ex4):
    play_ex4(client, ex4)
    spectator = app.test_client()
    assert 'id="download-record"' in spectator.get(f"/games/{ex4.id}/replay").get_data(as_text=True)
    doc = json.loads(spectator.get(f"/games/{ex4.id}/record.json").get_data())
    assert doc["format"] == "arbiter.record/1" and len(doc["moves"]) == len(EX4)


def upload(client, content: bytes, name: str = "game.json"):
    """Upload a file; an accepted record redirects to its verdict page, which this follows."""
    return client.post("/records/upload", data={"record": (io.BytesIO(content), name)}, content_type="multipart/form-data",
                       follow_redirects=True)


def finished_record(client, table) -> dict:
    play_ex4(client, table)
    return client.get(f"{table.url}/record", headers=table.referee).get_json()


def test_uploading_a_legal_record_shows_the_verdict_and_its_move_list_and_makes_the_browser_its_referee(app, client, ex4):
    doc = finished_record(client, ex4)
    person = app.test_client()
    response = upload(person, json.dumps(doc).encode())
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'data-status="finished"' in page and "Every move is legal" in page
    listed = entries(page)
    assert not [e for e in listed if "illegal" in e["classes"]]
    assert len([e for e in listed if "type-attacked" in e["classes"]]) == 1
    imported = re.search(r'href="/games/([0-9a-f-]+)/replay" id="open-replay"', page).group(1)
    assert imported != ex4.id
    assert person.get(f"/games/{imported}/replay").status_code == 200


def test_uploading_an_illegal_record_highlights_its_first_illegal_move_with_clause_and_reason(app, client, ex4):
    doc = finished_record(client, ex4)
    doc["moves"] = doc["moves"][:2] + [{"seat": 1, "type": "beat", "cards": ["2C"]}] + doc["moves"][2:]
    expected = client.post(f"{API}/records", json=doc).get_json()["verdict"]["illegal"]
    person = app.test_client()
    page = upload(person, json.dumps(doc).encode()).get_data(as_text=True)
    assert 'data-status="illegal"' in page
    verdict = text_of(page[page.index('id="verdict"'):page.index("</p>", page.index('id="verdict"'))])
    assert f"record move {expected['move_index'] + 1}" in verdict and expected["rule"] in verdict and expected["reason"] in verdict
    illegal = [e for e in entries(page) if "illegal" in e["classes"]]
    assert len(illegal) == 1 and "kind-refusal" in illegal[0]["classes"]
    words = text_of(illegal[0]["html"])
    assert "first illegal move" in words and expected["rule"] in words and expected["reason"] in words and "East" in words
    assert 'aria-label="2 of clubs"' in illegal[0]["html"]


@pytest.mark.parametrize("content, name, status, says", [
    (b"this is not json", "notes.txt", 422, "not JSON"),
    (b"\xff\xfe\x00garbage", "binary.json", 422, "not JSON"),
    (b"[1, 2, 3]", "list.json", 422, "not a valid record"),
    (b'{"format": "arbiter.record/1", "game": "chess"}', "chess.json", 422, "not a valid record"),
    (b'{"format": "arbiter.record/1", "game": "el-royale", "players": 7}', "shape.json", 422, "players"),
    (b"[" * 100 + b"]" * 100, "deep.json", 422, "nested too deeply"),
], ids=["text", "binary", "list", "unknown-game", "wrong-shape", "too-deep"])
def test_a_bad_upload_is_a_clear_error_on_the_page_and_stores_nothing(app, client, content, name, status, says):
    before = len(client.get(f"{API}/games?limit=200").get_json())
    response = upload(app.test_client(), content, name)
    page = response.get_data(as_text=True)
    assert response.status_code == status and response.mimetype == "text/html"
    error = text_of(page[page.index('id="upload-error"'):page.index("</p>", page.index('id="upload-error"'))])
    assert says in error, error
    assert "Traceback" not in page and len(client.get(f"{API}/games?limit=200").get_json()) == before


def test_a_record_file_over_the_size_limit_is_refused_on_the_page(app, client):
    big = b'{"pad": "' + b"x" * (300 * 1024) + b'"}'
    response = upload(app.test_client(), big)
    assert response.status_code == 413 and response.mimetype == "text/html"
    assert "too big" in response.get_data(as_text=True)


def test_an_upload_without_a_file_asks_for_one(app):
    response = app.test_client().post("/records/upload", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "choose a record file" in response.get_data(as_text=True)


def test_the_upload_form_is_a_page_linked_from_the_replay(app, client, ex4):
    replay = app.test_client().get(f"/games/{ex4.id}/replay").get_data(as_text=True)
    assert 'href="/records/upload" id="upload-record"' in replay
    form = app.test_client().get("/records/upload")
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.get_data(as_text=True)


def test_the_lobby_links_to_the_upload_page(app):
    assert 'href="/records/upload" id="lobby-upload"' in app.test_client().get("/").get_data(as_text=True)


def test_the_permalink_names_no_identity_while_entry_links_keep_the_one_the_page_acts_as(app, client, ex4):
    """A browser holding two identities keeps `as` on the list's links; the permalink is for sharing: no `as`."""
    person = browser(app, ex4.referee_token, ex4.id)
    person.get(f"/join/{ex4.id}/{ex4.seat_tokens[0]}")
    page = person.get(f"/games/{ex4.id}/replay?version=2&as=referee").get_data(as_text=True)
    permalink = html.unescape(re.search(r'href="([^"]+)" id="permalink"', page).group(1))
    assert permalink.endswith(f"/games/{ex4.id}/replay?version=2#v2")
    assert f'href="/games/{ex4.id}/replay?version=1&amp;as=referee"' in page


def test_a_long_list_is_drawn_around_the_version_shown_and_its_gaps_link_to_pages_that_draw_them(app, client):
    """Without a script too: a list of more than a few hundred lines comes drawn around the version shown, every
    other block a gap whose link opens a page drawing it, its anchor in place; the script's copy has every line."""
    from service.offline.simulation import make_plan, run

    doc, = run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "window"), 1)
    gid = client.post(f"{API}/records", json=doc).get_json()["id"]
    log = client.get(f"{API}/games/{gid}/events").get_json()
    assert len(log) > 300
    spectator = app.test_client()
    middle = log[len(log) // 2]["version"]
    page = spectator.get(f"/games/{gid}/replay?version={middle}").get_data(as_text=True)
    listed = entries(page)
    assert [e["version"] for e in listed if "current" in e["classes"]] == [middle]
    assert len(listed) <= 300 < len(log)
    gaps = re.findall(r'<li class="block-gap" data-block="\d+" data-first="(\d+)" data-last="(\d+)"[^>]*><a href="([^"]+)"',
                      page)
    assert gaps
    covered = {e["version"] for e in listed} | {v for first, last, _ in gaps for v in range(int(first), int(last) + 1)}
    assert {e["version"] for e in log} <= covered
    for _, _, href in gaps:
        path, anchor = html.unescape(href).split("#")
        assert anchor in {e["anchor"] for e in entries(spectator.get(path).get_data(as_text=True))}
    lines = spectator.get(f"/games/{gid}/replay/moves.json").get_json()["lines"]
    assert [line[0] for line in lines] == [e["version"] for e in log]
