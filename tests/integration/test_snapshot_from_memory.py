"""Snapshots are taken from the game just saved (not rebuilt from the store inside the request): a game loaded
from such a snapshot must be the game that replaying every stored event gives, on every store."""

from __future__ import annotations

import pytest
from eventsourcing.application import project_aggregate

from service.play.referee import Referee

from .service_support import new_game, play
from service.play.new_games import ImportRecord


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_game_loaded_from_its_snapshot_equals_the_full_replay(stores, kind):
    url = stores.url(kind)
    app = stores.referee(url)
    gid = new_game(app, n=4)
    play(app, gid, 260, max_version=260)
    assert app.game(gid).version > 200
    later = stores.referee(url)  # nothing cached: the load starts from the latest snapshot
    snapshots = list(later.snapshots.get(gid))
    assert len(snapshots) >= 2 and all(s.originator_version >= 100 for s in snapshots)
    loaded = later.game(gid)
    replayed = project_aggregate(None, list(later.events.get(gid)))
    assert loaded.version == replayed.version and loaded.chain_head == replayed.chain_head
    assert loaded.state == replayed.state
    assert loaded.to_record() == replayed.to_record()
    assert (loaded.disputes, loaded.answers, loaded.move_versions) == (replayed.disputes, replayed.answers, replayed.move_versions)


def test_an_imported_long_record_has_a_snapshot_at_every_hundred_versions(stores):
    from domain.autoplay import random_game
    import random

    app = stores.referee(stores.url("sqlite"))
    doc = random_game("el-royale", {"edition": "revised"}, [{"name": f"P{i}"} for i in range(4)], "5eed00b2",
                      random.Random(4), max_moves=400)
    gid = app.import_record(ImportRecord.from_body(doc))["game"].id
    length = app.game(gid).version
    assert length >= 300
    versions = [s.originator_version for s in app.snapshots.get(gid)]
    assert versions == list(range(100, length + 1, 100))  # so a load at any version replays at most 99 events
