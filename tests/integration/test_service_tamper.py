"""Tampering with stored rows behind the service's back is caught by the hash chain (check_chain).

Each test plays a game of about 50 moves (under 100 events, so no snapshot is taken), edits the
events table directly (SQLite file, PostgreSQL schema), and verifies through a fresh Referee so that
nothing cached hides the change. A changed event breaks the link to its successor (its own `prev`
still matches), so the first broken version is the one after the change; a changed `prev` breaks at
its own version; a deleted, swapped or inserted row breaks where the versions or links stop matching.
"""

from __future__ import annotations

import json
import re

import pytest

from service.verification.checks import check_chain
from tests.integration.service_support import RawEvents, new_game, play

STORES = ["sqlite", "postgres"]
TIMESTAMP = rb'"_data_":"[^"+]*'  # up to the timestamp's last digit before its UTC offset


def next_digit(b: int) -> int:
    assert chr(b).isdigit()
    return ord("0") + (b - ord("0") + 1) % 10


@pytest.fixture(params=STORES)
def played(request, stores):
    """(url, game id, raw table, head and length published before tampering) of a game of ~50 moves."""
    url = stores.url(request.param)
    app = stores.referee(url)
    gid = new_game(app, n=3)
    play(app, gid, 50, max_version=90)
    game = app.game(gid)
    assert 40 <= game.version < 100, "the game is long enough and has no snapshot"
    raw = RawEvents(request.param, url)
    try:
        yield url, gid, raw, game.chain_head, game.version
    finally:
        raw.close()


def assert_untampered(stores, url, gid, head: str, length: int) -> None:
    """Before tampering the game verifies (so what the test catches afterwards is the tampering)."""
    report = verify(stores, url, gid, kept_head=head, kept_length=length)
    assert report["ok"] is True, report


def verify(stores, url, gid, **kept) -> dict:
    """check_chain through a fresh Referee (no cache between the tampering and the check)."""
    return check_chain(stores.referee(url), gid, **kept)


def move_row(raw, gid, length: int) -> int:
    """A version in the middle of the log whose event records a seat's move with cards."""
    for version in range(length // 2, length):
        state = raw.json(gid, version)
        if state.get("actor", "").startswith("seat:") and state.get("data", {}).get("cards"):
            return version
    raise AssertionError("no move with cards in the second half of the game")


def with_one_byte_changed(state: bytes, pattern: bytes, replace) -> bytes:
    """`state` with one byte inside the first match of `pattern` changed; stays valid JSON."""
    match = re.search(pattern, state)
    assert match, pattern
    at = match.end() - 1
    changed = state[:at] + bytes([replace(state[at])]) + state[at + 1:]
    assert len(changed) == len(state) and changed != state
    json.loads(changed)
    return changed


def test_an_untampered_game_verifies_and_matches_its_published_head(stores, played):
    url, gid, raw, head, length = played
    report = verify(stores, url, gid)
    assert report["ok"] is True and report["broken_at"] is None
    assert report["length"] == length and report["head"] == head
    assert verify(stores, url, gid, kept_head=head, kept_length=length)["ok"] is True


@pytest.mark.parametrize("where", ["timestamp digit", "card letter", "actor digit"])
def test_one_changed_byte_that_keeps_the_json_valid_breaks_the_link_to_the_next_event(stores, played, where):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    version = move_row(raw, gid, length)
    state = raw.state(gid, version)
    if where == "timestamp digit":
        changed = with_one_byte_changed(state, TIMESTAMP, next_digit)
    elif where == "card letter":  # the suit of the first card played: C <-> D
        changed = with_one_byte_changed(state, rb'"cards":\["[0-9TJQKA]+[CDHS]', lambda b: ord("D") if b == ord("C") else ord("C"))
    else:
        changed = with_one_byte_changed(state, rb'"actor":"seat:\d', lambda b: ord("0") + (b - ord("0") + 1) % 3)
    raw.set_state(gid, version, changed)

    report = verify(stores, url, gid)

    assert report["ok"] is False
    assert report["broken_at"] == version + 1, report
    assert "does not follow" in report["problem"]


def test_a_changed_predecessor_hash_breaks_at_its_own_version(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    version = length // 2
    state = raw.state(gid, version)
    raw.set_state(gid, version, with_one_byte_changed(state, rb'"prev":"[0-9a-f]', lambda b: ord("a") if b != ord("a") else ord("b")))

    report = verify(stores, url, gid)

    assert report["ok"] is False and report["broken_at"] == version, report


def test_a_change_to_the_last_event_is_caught_against_the_published_head(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    state = raw.state(gid, length)
    raw.set_state(gid, length, with_one_byte_changed(state, TIMESTAMP, next_digit))

    report = verify(stores, url, gid, kept_head=head, kept_length=length)

    assert report["ok"] is False and report["broken_at"] == length, report


def test_a_row_that_is_no_longer_json_is_reported_as_unreadable(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    version = length // 2
    state = raw.state(gid, version)
    raw.set_state(gid, version, state[:-1])  # the closing brace is gone

    report = verify(stores, url, gid)

    assert report["ok"] is False
    assert "cannot be read" in report["problem"]


def test_a_deleted_middle_event_breaks_at_its_version(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    version = length // 2
    raw.delete(gid, version)

    report = verify(stores, url, gid)

    assert report["ok"] is False and report["broken_at"] == version, report
    assert "deleted" in report["problem"]


def test_a_deleted_last_event_is_caught_as_truncation_against_the_published_head_and_length(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    raw.delete(gid, length)

    assert verify(stores, url, gid)["ok"] is True, "a shorter log is consistent in itself"
    report = verify(stores, url, gid, kept_head=head, kept_length=length)
    assert report["ok"] is False and report["broken_at"] == length, report
    assert "truncated" in report["problem"]
    without_length = verify(stores, url, gid, kept_head=head)
    assert without_length["ok"] is False and "not in this log" in without_length["problem"]


def test_two_swapped_events_break_at_the_first_of_them(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    happened = [v for v in range(length // 3, length) if raw.topic(gid, v).endswith("Game.Happened")]
    a, b = happened[0], happened[len(happened) // 2]  # same event class: both rows still decode
    state_a, state_b = raw.state(gid, a), raw.state(gid, b)
    raw.set_state(gid, a, state_b)
    raw.set_state(gid, b, state_a)

    report = verify(stores, url, gid)

    assert report["ok"] is False and report["broken_at"] == a, report


def test_a_copied_row_appended_at_a_new_version_breaks_at_that_version(stores, played):
    url, gid, raw, head, length = played
    assert_untampered(stores, url, gid, head, length)
    copied = length // 2
    raw.insert(gid, length + 1, raw.topic(gid, copied), raw.state(gid, copied))
    assert raw.versions(gid)[-1] == length + 1

    report = verify(stores, url, gid)

    assert report["ok"] is False and report["broken_at"] == length + 1, report


@pytest.mark.parametrize("kind", STORES)
def test_a_changed_snapshot_is_either_ignored_or_caught(stores, kind):
    """Past 100 events the Referee loads a game from its snapshot: swapping two hands there must not go unnoticed."""
    url = stores.url(kind)
    app = stores.referee(url)
    gid = new_game(app, n=3)
    play(app, gid, 200, max_version=130)
    assert app.game(gid).version > 100
    snapshots = RawEvents(kind, url, table="snapshots")
    try:
        (version,) = snapshots.versions(gid)
        doc = snapshots.json(gid, version)
        hands = doc["state"]["state"]["_data_"]["hands"]
        assert hands[0] != hands[1]
        hands[0], hands[1] = hands[1], hands[0]
        snapshots.set_state(gid, version, json.dumps(doc, separators=(",", ":")).encode())
    finally:
        snapshots.close()

    fresh = stores.referee(url)
    served = fresh.game(gid)
    folded = None
    for event in fresh.events.get(gid):
        folded = event.mutate(folded)

    assert served.state == folded.state or check_chain(fresh, gid)["ok"] is False
