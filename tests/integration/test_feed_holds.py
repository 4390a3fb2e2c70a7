"""The live feed asks whether a game is held (a duplicate board still played elsewhere: service.access.Access.holds,
service.tournaments.embargo) once per game and batch of events, never once per viewer or subscriber: with many
subscribers of a game (its seats, its referee, spectators), one move, or one event after the end (when each viewer's
answer decides whether it sees the end), costs one question to the holds. Before, the follower asked per game and per
viewer, and each answer caught the standings up by scanning the notification log: 77 % of the follower's time under
1,000 subscribers (docs/benchmarks.md). The holds still decide exactly as strictly (tests/integration/
test_duplicate_embargo.py); here a hold that answers "held" still keeps every spectator from the events and the end
from the seats."""

from __future__ import annotations

import json
import time
from uuid import UUID

from tests.tournament_support import finish

SUBSCRIBERS = 36  # 6 of each viewer: the 4 seats, the referee and spectators


def subscribe_many(arbiter, game: dict) -> tuple[list, list[list], list]:
    """SUBSCRIBERS subscriptions of the game, each viewer several times; returns them, their sinks, their viewers."""
    tokens = [None, game["referee_token"], *(s["token"] for s in game["seats"])]
    subs, sinks, who = [], [], []
    for i in range(SUBSCRIBERS):
        sink: list = []
        token = tokens[i % len(tokens)]
        sub, backlog = arbiter.views.subscribe(game["id"], token, game["version"], sink.extend)
        sink.extend(backlog)
        subs.append(sub)
        sinks.append(sink)
        who.append("spectator" if token is None else "referee" if token == game["referee_token"] else "seat")
    return subs, sinks, who


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def counted_hold(arbiter, answer: bool) -> list:
    """A hold that records every question it is asked (and answers `answer`)."""
    asked: list = []
    arbiter.access.holds.append(lambda gid: asked.append(gid) or answer)
    return asked


def test_one_move_asks_the_hold_once_for_all_the_subscribers_of_its_game(feed_game):
    arbiter, game = feed_game
    asked = counted_hold(arbiter, False)
    subs, sinks, who = subscribe_many(arbiter, game)
    asked.clear()  # (each spectator's subscription asked once, as every spectator's read does)
    version = arbiter.app.game(UUID(game["id"])).version
    try:
        finish(arbiter.app, game["id"], limit=1)
    except AssertionError:
        pass  # one move: the game goes on
    moved = arbiter.app.game(UUID(game["id"])).version
    assert moved > version
    wait_for(lambda: all(s and s[-1][0] == moved for s in sinks), "every subscriber is told the move")
    for sub in subs:
        sub.close()
    assert asked == [UUID(game["id"])], f"{len(asked)} questions to the hold for one move and {SUBSCRIBERS} subscribers"


def test_an_event_after_the_end_asks_the_hold_once_though_each_viewer_s_answer_differs(feed_game):
    arbiter, game = feed_game
    gid = UUID(game["id"])
    finish(arbiter.app, gid)
    held = counted_hold(arbiter, False)
    subs, sinks, _ = subscribe_many(arbiter, game)
    held.clear()
    first_move = min(arbiter.app.game(gid).move_versions)
    dispute = arbiter.app.file_dispute(gid, 0, first_move, "the first card was not mine to play")
    version = arbiter.app.game(gid).version
    wait_for(lambda: all(s and s[-1][0] == version for s in sinks), "every subscriber is told the dispute")
    for sub in subs:
        sub.close()
    assert dispute and held == [gid], f"{len(held)} questions to the hold for one event after the end"


def test_a_held_game_s_batch_keeps_every_spectator_out_and_its_end_from_its_seats_with_one_question(feed_game):
    arbiter, game = feed_game
    gid = UUID(game["id"])
    subs, sinks, who = subscribe_many(arbiter, game)  # (subscribed while the game was not held)
    asked = counted_hold(arbiter, True)
    feed, batches = arbiter.views.feed, []
    fan_out = feed._fan_out
    feed._fan_out = lambda notifications: batches.append(len(notifications)) or fan_out(notifications)
    finish(arbiter.app, gid)
    end = arbiter.app.game(gid).version
    referee = [s for s, w in zip(sinks, who) if w == "referee"]
    wait_for(lambda: all(s and s[-1][0] == end for s in referee), "the referee is told the end")
    time.sleep(0.2)
    for sub in subs:
        sub.close()
    spectators = [s for s, w in zip(sinks, who) if w == "spectator"]
    assert all(s == [] for s in spectators), "a spectator of a held game was told an event"
    seats = [s for s, w in zip(sinks, who) if w == "seat"]
    for sink in seats:
        reveal = [json.loads(e[2]) for e in sink if e[1] == "seed_revealed"]
        assert reveal and all(not r["data"].get("seed") for r in reveal), "a seat of a held game was shown the seed"
    for sink in referee:
        assert any(e[1] == "seed_revealed" and json.loads(e[2])["data"].get("seed") for e in sink)
    assert 0 < len(asked) <= len(batches), f"{len(asked)} questions to the hold in {len(batches)} batches of events"
