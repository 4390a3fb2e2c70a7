"""Studies are stored with the games (a SQLite file, PostgreSQL): a study read by another application on the same
store shows the same moves, comments and view; a game id is no study and a study id no game."""

from __future__ import annotations

import pytest

from service.access import Access
from service.errors import NotFound
from service.play.new_games import ImportRecord
from service.studies.commands import StartStudy
from service.studies.facade import Studies

from .test_api_studies import FINISHED


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_study_is_stored_with_the_games_and_read_back_by_another_process(stores, kind):
    url = stores.url(kind)
    app = stores.referee(url)
    started = app.import_record(ImportRecord.from_body(FINISHED))
    gid = str(started["game"].id)
    studies = Studies(app, Access(app))
    study = studies.open(None, StartStudy.from_body(gid, {"version": 20, "seat": 0, "seed": "store"}))
    referee = f"{started['game'].id.hex}.{started['referee_token']}"
    studies.comment(study["id"], referee, 0, "from here")
    other = Studies(stores.referee(url), Access(stores.referee(url)))  # a second process on the same store
    again = other.read(study["id"], None)
    assert again["positions"][0]["comments"][0]["text"] == "from here"
    assert again["view"] == study["view"] and again["positions"][1:] == study["positions"][1:]
    with pytest.raises(NotFound):
        other.read(gid, None)
    with pytest.raises(NotFound):
        Access(app).viewer(study["id"], None)
