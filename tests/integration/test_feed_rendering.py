"""The live feed hands every subscription of one viewer the same list of entries, and the stream's text (SSE) made
from it is made once and kept with that list (service.views.subscription.Entries, api.http.asgi.body_of): a hundred
spectators of a game cost one rendering. The rendering must never cross viewers: a seat's list (its own draws) is
never the list, or the text, another seat, the referee or a spectator is given, and every subscriber's text is
exactly its own event log's."""

from __future__ import annotations

import time
from uuid import UUID


from api.http.asgi import body_of
from api.http.stream import message
from service.views.feed import as_entries
from tests.tournament_support import finish

COPIES = 3  # subscriptions of each viewer


def test_each_viewer_s_stream_text_is_rendered_from_its_own_entries_and_never_serves_another_viewer(feed_game):
    arbiter, game = feed_game
    viewers = {"spectator": None, "referee": game["referee_token"], **{f"seat {s['seat']}": s["token"] for s in game["seats"]}}
    subs, batches = [], {name: [[] for _ in range(COPIES)] for name in viewers}
    for name, token in viewers.items():  # seats first in rendering below: a shared text would reach the others
        for got in batches[name]:
            sub, backlog = arbiter.views.subscribe(game["id"], token, game["version"], got.append)
            assert backlog == []
            subs.append(sub)
    _play(arbiter, game["id"], 60)
    version = arbiter.app.game(UUID(game["id"])).version
    deadline = time.monotonic() + 20
    while not all(got and got[-1][-1][0] == version for copies in batches.values() for got in copies):
        assert time.monotonic() < deadline, "every subscriber is told every move"
        time.sleep(0.02)
    for sub in subs:
        sub.close()

    order = sorted(viewers, key=lambda name: not name.startswith("seat"))
    texts = {name: [b"".join(body_of(batch, True) for batch in got) for got in batches[name]] for name in order}
    for name, token in viewers.items():
        own_log = b"".join(message(e, True) for e in as_entries(arbiter.views.events(game["id"], token, game["version"])))
        assert texts[name] == [own_log] * COPIES, f"{name}'s stream text differs from its own event log"
    assert texts["referee"] != texts["spectator"], "the referee and a spectator were told the same (nothing was hidden)"

    owner: dict[int, str] = {}
    for name in viewers:
        for got in batches[name]:
            for batch in got:
                assert owner.setdefault(id(batch), name) == name, f"{name} was given {owner[id(batch)]}'s entries"
    shared = [len({id(got[i]) for got in batches[name]}) for name in viewers for i in range(len(batches[name][0]))]
    assert set(shared) == {1}, "the subscriptions of one viewer were each given their own copy (rendered once each)"


def _play(arbiter, game_id: str, moves: int) -> None:
    """`moves` moves of bots (the game goes on: a draw or a deal is each seat's own)."""
    try:
        finish(arbiter.app, game_id, limit=moves)
    except AssertionError:
        pass  # the game did not end within them: as wanted
