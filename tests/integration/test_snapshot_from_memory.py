"""Snapshots are taken from the game just saved (not rebuilt from the store inside the request): a game loaded
from such a snapshot must be the game that replaying every stored event gives, on every store."""

from __future__ import annotations

import pytest
from eventsourcing.application import project_aggregate

from service.application import Referee

from .service_support import new_game, play


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
