"""Open seats: a referee offers a seat, the lobby's list names it without any token, the first to take it gets that
seat's token (and only once), a withdrawn or played seat is no longer listed, and nobody but the referee offers."""

from __future__ import annotations

import threading

import pytest

from service.errors import Forbidden, NotFound, Unauthorized
from service.facade import Arbiter
from service.play.new_games import CreateGame


@pytest.fixture(params=["sqlite", "postgres", "memory"])
def arbiter(stores, tmp_path, request):
    arbiter = Arbiter(stores.url(request.param), str(tmp_path / "key"), str(tmp_path / "checkpoints.log"))
    stores._apps.append(arbiter.app)
    return arbiter


def _game(arbiter: Arbiter) -> dict:
    return arbiter.play.create_game(CreateGame.from_body({"game": "small-battle", "options": {}, "players": [{"name": "Ann"}, {"name": "Guest"}]}))


def _listed(arbiter: Arbiter) -> list[dict]:
    return arbiter.play.open_seats.listed(arbiter.lobby.catalogue(limit=100))


def test_an_offered_seat_is_listed_without_a_token_and_taken_once_for_that_seats_token_only(arbiter):
    created = _game(arbiter)
    gid, referee = created["id"], created["referee_token"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert arbiter.play.open_seats.offer(gid, referee, 1) == [1]
    listed = _listed(arbiter)
    assert listed == [{"game_id": gid, "game": "small-battle", "players": ["Ann", "Guest"], "seat": 1, "name": "Guest"}]
    assert not any(t.split(".")[1] in repr(listed) for t in [*tokens.values(), referee])
    stored = repr([n.state for n in arbiter.app.recorder.select_notifications(1, 1000)])
    assert "sealed" in stored and "Guest" in stored  # the stored events are readable here
    assert tokens[1].split(".")[1] not in stored, "an offered seat's token is stored in clear"

    got: list = []

    def take():
        try:
            got.append(arbiter.play.open_seats.take(gid, 1))
        except NotFound:
            got.append(None)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got, key=str) == sorted([tokens[1], None, None, None], key=str)
    assert arbiter.access.viewer(gid, tokens[1]).seat == 1
    assert _listed(arbiter) == []
    with pytest.raises(NotFound):
        arbiter.play.open_seats.take(gid, 0)  # never offered: the other seat's link is not handed out


def test_only_the_referee_offers_and_a_withdrawn_seat_is_no_longer_listed(arbiter):
    created = _game(arbiter)
    gid, referee = created["id"], created["referee_token"]
    with pytest.raises(Forbidden):
        arbiter.play.open_seats.offer(gid, created["seats"][0]["token"], 1)
    with pytest.raises(Unauthorized):
        arbiter.play.open_seats.offer(gid, None, 1)
    arbiter.play.open_seats.offer(gid, referee, 0)
    arbiter.play.open_seats.offer(gid, referee, 1)
    assert [s["seat"] for s in _listed(arbiter)] == [0, 1]
    assert arbiter.play.open_seats.withdraw(gid, referee, 0) == [1]
    assert [s["seat"] for s in _listed(arbiter)] == [1]
    with pytest.raises(NotFound):
        arbiter.play.open_seats.take(gid, 0)
