"""Uploading a record on the page redirects to its verdict's own address (POST/redirect/GET): reloading the verdict
page imports nothing again, and it shows the same verdict as the upload's answer, read back from the stored game
(the illegal move from the import's refusal, `Attempts.Refused.record_move`)."""

from __future__ import annotations

import io
import json

import pytest

from tests.integration.api_support import API
from tests.integration.test_replay_page import entries, ex4, finished_record, text_of  # noqa: F401 (ex4: a fixture)
from service.play.new_games import ImportRecord


def post(client, doc: dict, name: str = "game.json"):
    return client.post("/records/upload", data={"record": (io.BytesIO(json.dumps(doc).encode()), name)},
                       content_type="multipart/form-data")


def games(client) -> list[dict]:
    return client.get(f"{API}/games?limit=200").get_json()


def illegal_record(client, table) -> dict:
    doc = finished_record(client, table)
    doc["moves"] = doc["moves"][:2] + [{"seat": 1, "type": "beat", "cards": ["2C"]}] + doc["moves"][2:]
    return doc


@pytest.mark.parametrize("illegal", [False, True], ids=["legal", "illegal"])
def test_reloading_the_verdict_page_imports_nothing_and_shows_the_upload_s_verdict(app, client, ex4, illegal):
    doc = illegal_record(client, ex4) if illegal else finished_record(client, ex4)
    expected = client.post(f"{API}/records", json=doc).get_json()["verdict"]
    before = len(games(client))
    person = app.test_client()
    response = post(person, doc, "club night.json")
    assert response.status_code == 303
    address = response.headers["Location"]
    assert address.startswith("/records/") and address.split("?")[0].endswith("/verdict") and "club+night.json" in address
    pages = [person.get(address) for _ in range(3)]  # the redirect followed, then two reloads
    assert len(games(client)) == before + 1, "one upload, one game"
    gid = address.split("/")[2]
    assert [g["imported"] for g in games(client) if g["id"] == gid] == [True]
    for page in pages:
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
        text = page.get_data(as_text=True)
        assert f'data-status="{expected["status"]}"' in text and "club night.json" in text
        verdict = text_of(text[text.index('id="verdict"'):text.index("</p>", text.index('id="verdict"'))])
        if illegal:
            assert f"record move {expected['illegal']['move_index'] + 1}" in verdict
            assert expected["illegal"]["rule"] in verdict and expected["illegal"]["reason"] in verdict
            assert len([e for e in entries(text) if "illegal" in e["classes"]]) == 1
        else:
            assert "Every move is legal" in verdict
    facade = app.extensions["arbiter"]
    imported = facade.play.import_record(ImportRecord.from_body(doc))  # read back from the store, the verdict is the import's answer
    assert facade.play.verdict(imported["id"], imported["referee_token"])["verdict"] == imported["verdict"] == expected


def test_an_in_progress_upload_s_verdict_is_the_uploader_s_and_a_created_game_has_none(app, client, ex4):
    whole = finished_record(client, ex4)
    doc = {**whole, "moves": whole["moves"][:3]}  # still in progress: the verdict's `final` holds every hand
    address = post(app.test_client(), doc).headers["Location"]
    stranger = app.test_client().get(address)
    assert stranger.status_code == 403 and "referee" in stranger.get_data(as_text=True)
    created = app.test_client().get(f"/records/{ex4.id}/verdict")
    assert created.status_code == 404 and "not made from an uploaded record" in created.get_data(as_text=True)
    finished = post(app.test_client(), whole).headers["Location"]
    assert app.test_client().get(finished).status_code == 200  # a finished game's verdict is anyone's
