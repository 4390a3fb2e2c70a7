"""bench.durable_library_floor: every variant plays the corpus to the expected versions, and the prepared payloads
(variant "pre") are the events the bare decider gives in the move (variant "dec")."""

import pytest

from bench import durable as D
from bench.durable_library_floor import VARIANTS, LibGame, LibraryFloor, open_app


@pytest.fixture(scope="module")
def corpus():
    return D.move_corpus(dict(D.QUICK, move_games=2, moves_per_game=30))


def _stored(app, gid):
    return [(e.kind, e.data, e.actor, e.clause) for e in app.events.get(gid) if isinstance(e, LibGame.Moved)]


def test_every_variant_reaches_the_expected_versions_and_stores_the_same_events(tmp_path, corpus):
    apps = {"cached": open_app(f"sqlite:///{tmp_path}/a.db", cache=False),
            "ff": open_app(f"sqlite:///{tmp_path}/b.db", cache=True)}
    try:
        stored = {}
        for v in VARIANTS:
            app = apps[v.split("-")[0]]
            D.run_library_floor(app, corpus, v)  # raises SystemExit on a wrong version
            floor = LibraryFloor(app, corpus, D.GAME, v)
            plan = D.schedule(floor.ids(), corpus)
            for p in plan:
                floor.move(*p)
            stored[v] = [_stored(app, gid) for gid in floor.ids()]
            assert [floor.version(gid) for gid in floor.ids()] == [g["final_version"] for g in corpus]
            assert all(len(s) == g["final_version"] - g["start_version"] for s, g in zip(stored[v], corpus))
        assert stored["cached-pre"] == stored["cached-dec"] == stored["ff-pre"] == stored["ff-dec"]
    finally:
        for app in apps.values():
            app.close()


def test_ff_fast_forwards_over_another_writer(tmp_path, corpus):
    """The ff variant reads what another application wrote to the same store (it is a real fast-forward)."""
    url = f"sqlite:///{tmp_path}/c.db"
    app, other = open_app(url, cache=True), open_app(url, cache=True)
    try:
        floor = LibraryFloor(app, corpus[:1], D.GAME, "ff-pre")
        gid = floor.ids()[0]
        agg = app.repository.get(gid)
        foreign = other.repository.get(gid)
        foreign.trigger_event(LibGame.Moved, kind="say", data={}, actor="seat:0", clause=None, engine_version="x",
                              idempotency_key=None, automatic=False, prev="p")
        other.save(foreign)
        assert app.repository.get(gid).version == agg.version + 1
    finally:
        app.close()
        other.close()
