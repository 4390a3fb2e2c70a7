"""Commands start from the game as this process last saved it, without asking the store first: another process's
writes in between must still be seen — by the store's version check for a move that writes, and by a fresh read
for anything else (a refusal, a version conflict). Two Referees on one store stand for two server workers."""

from __future__ import annotations

import random

import pytest

from service.errors import Conflict, IllegalMove

from .service_support import log, new_game, pick, raw_move


@pytest.fixture(params=["sqlite", "postgres"])
def two_workers(request, stores):
    url = stores.url(request.param)
    return stores.referee(url), stores.referee(url)


def _next(app, gid, rng):
    return pick(app.game(gid), rng)


def test_a_move_decided_on_a_stale_copy_is_decided_again_on_the_stored_game(two_workers):
    a, b = two_workers
    gid = new_game(a)
    rng = random.Random(5)
    a.submit_move(gid, (m := _next(a, gid, rng))["seat"], raw_move(m))  # a now holds the game as it saved it
    theirs = _next(b, gid, rng)
    b.submit_move(gid, theirs["seat"], raw_move(theirs))  # written behind a's back
    # the same seat's move again through a: legal on a's stale copy, not on the stored game (another seat is to act)
    stored_before = len(log(a, gid))
    with pytest.raises(IllegalMove):
        a.submit_move(gid, theirs["seat"], raw_move(theirs))
    assert len(log(a, gid)) == stored_before


def test_a_move_legal_only_after_another_workers_write_is_accepted_not_refused(two_workers):
    a, b = two_workers
    gid = new_game(a)
    rng = random.Random(9)
    a.submit_move(gid, (m := _next(a, gid, rng))["seat"], raw_move(m))
    theirs = _next(b, gid, rng)
    b.submit_move(gid, theirs["seat"], raw_move(theirs))
    after = _next(b, gid, rng)  # legal now; on a's stale copy it is another seat's turn, or another position
    answer = a.submit_move(gid, after["seat"], raw_move(after))
    assert answer["version"] == b.game(gid).version
    assert a.attempts(gid) is None, "a stale copy's refusal was kept"


def test_an_expected_version_written_by_another_worker_is_not_a_conflict(two_workers):
    a, b = two_workers
    gid = new_game(a)
    rng = random.Random(13)
    a.submit_move(gid, (m := _next(a, gid, rng))["seat"], raw_move(m))
    theirs = _next(b, gid, rng)
    b.submit_move(gid, theirs["seat"], raw_move(theirs))
    seen = b.game(gid)
    after = _next(b, gid, rng)
    assert a.submit_move(gid, after["seat"], raw_move(after), expected_version=seen.version)["first_version"] == seen.version + 1
    with pytest.raises(Conflict):  # and a version that really is stale still is one
        a.submit_move(gid, after["seat"], raw_move(after), expected_version=seen.version)
