"""Several hosts on one store (issue 25, "nothing lives in one host's memory"): two Arbiter instances ("hosts") on one
PostgreSQL schema or one SQLite file, each with its own duty loop (service.duty). A bot seated through host A keeps
playing after A dies; two hosts never hold one lease (and never play one seat) at once; a tournament's next round is
created exactly once, by another host when the one that saw the end dies; a flag is raised once whichever host is
alive. A host's death is its duty loop stopped and its lease connection closed, releasing nothing."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from uuid import UUID, uuid4

import pytest

import service.duty
from bots import SeatView, make_bot
from domain.bot_seats import GAME_OVER
from service.adapters.leases import leases_for
from service.errors import Conflict, NotFound
from service.facade import Arbiter
from service.play.clocks import ClockWatch
from service.store.server_clock import server_ms
from service.tournaments.facade import Tournaments
from tests.tournament_support import finish
from service.play.commands import PlayMove
from service.play.new_games import CreateGame
from service.tournaments.commands import CreateTournament

GAME_CREATED = "domain.game:Game.Created"
TIME_EXPIRED = "domain.game:Game.TimeExpired"


class Host:
    def __init__(self, arbiter: Arbiter):
        self.arbiter = arbiter
        self.tournaments = arbiter.tournaments
        self.duty = arbiter.play.duty
        self.bots = arbiter.play.bot_duty


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(service.duty, "ROUND_SECONDS", 0.02)
    monkeypatch.setattr(service.duty, "CLAIM_SECONDS", 0.2)


@pytest.fixture(params=["sqlite", "postgres"])
def url(stores, request):
    return stores.url(request.param)


@pytest.fixture
def hosts(stores, tmp_path, url, quick):
    made = []

    def host() -> Host:
        arbiter = Arbiter(url, str(tmp_path / "key"), str(tmp_path / "checkpoints.log"))
        stores._apps.append(arbiter.app)
        made.append(Host(arbiter))
        return made[-1]

    yield host
    for h in made:
        h.duty.stop()


def wait_for(check, seconds: float = 10.0, what: str = "the condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def person_moves(arbiter: Arbiter, gid: str, token: str, bot) -> bool:
    """Seat 0's move through a host when it has one; whether it moved."""
    view = arbiter.views.view(gid, token)
    if view["status"] == "finished" or not view["table"]["legal_moves"]:
        return False
    move = {k: v for k, v in bot.choose(SeatView.from_http(view)).items() if k != "seat"}
    try:
        arbiter.play.move(token, PlayMove.from_body(gid, {**move, "expected_version": view["version"]}))
    except Conflict:
        return False  # the bot moved first
    return True


def bot_moves(arbiter: Arbiter, gid: str, seat: int) -> int:
    return sum(1 for m in arbiter.app.game(UUID(gid)).moves if m.get("seat") == seat)


def test_a_bot_seated_through_host_a_keeps_playing_after_a_dies_and_host_b_finishes_the_game(hosts):
    a, b = hosts(), hosts()
    created = a.arbiter.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": "Ann"}, {"name": "Bot"}], "seed": "b0b0"}))
    gid, person, seat1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    a.arbiter.play.seat_bot(gid, seat1, "random")
    wait_for(lambda: UUID(gid) in a.duty.leases.held, what="host A taking the game's lease")
    b.duty.start()
    me = make_bot("random", "small-battle", 0, random.Random(7))
    wait_for(lambda: person_moves(a.arbiter, gid, person, me) and False or a.bots.moves >= 2, what="A's bot playing")
    assert not (a.duty.leases.held & b.duty.leases.held)

    a.duty.abandon()  # host A dies: its loop stops, its lease connection closes, nothing is released
    died = time.monotonic()
    wait_for(lambda: UUID(gid) in b.duty.leases.held, what="host B taking the lease")
    handover = time.monotonic() - died
    print(f"\nlease hand-over after host A's death: {handover * 1000:.0f} ms")
    wait_for(lambda: person_moves(b.arbiter, gid, person, me) and False or b.arbiter.views.view(gid, person)["status"] == "finished",
             seconds=20, what="the game's end")

    wait_for(lambda: b.arbiter.play.bot_seats.seats(gid) == {}, what="the bot released at the game's end")
    assert handover < 2.0
    assert a.bots.moves >= 2 and b.bots.moves >= 1, "each host played the bot while it held the lease"
    assert a.bots.moves + b.bots.moves == bot_moves(b.arbiter, gid, 1), "every bot move once: none lost, none doubled"
    assert b.arbiter.app.attempts(UUID(gid)) is None, "no move of the bot was refused"
    released = b.arbiter.app.recorder.select_events(UUID(str(b.arbiter.play.bot_seats.load(gid).id)))[-1]
    assert GAME_OVER in released.state.decode()


def test_two_running_hosts_never_hold_one_lease_at_once_and_every_bot_move_is_played_once(hosts):
    a, b = hosts(), hosts()
    games = []
    for i in range(4):
        host = (a, b)[i % 2]
        created = host.arbiter.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": "X"}, {"name": "Y"}], "seed": f"c0c{i}"}))
        games.append(created["id"])
        for seat in (0, 1):
            (a, b)[(i + seat) % 2].arbiter.play.seat_bot(created["id"], created["seats"][seat]["token"], "heuristic")
    a.duty.start(), b.duty.start()
    overlaps = []

    def all_over() -> bool:
        overlaps.append(a.duty.leases.held & b.duty.leases.held)
        return all(a.arbiter.app.game(UUID(g)).outcome.is_over for g in games)

    wait_for(all_over, seconds=20, what="every game's end")
    wait_for(lambda: all(not a.arbiter.play.bot_seats.seats(g) for g in games), what="every bot released")
    assert not any(overlaps), "a lease held by both hosts at once"
    played = sum(bot_moves(a.arbiter, g, s) for g in games for s in (0, 1))
    assert a.bots.moves + b.bots.moves == played
    assert a.bots.conflicts == b.bots.conflicts == 0, "no move of one host lost a race with the other's"
    assert all(a.arbiter.app.attempts(UUID(g)) is None for g in games)


def test_a_lease_is_one_hosts_until_it_dies_and_then_the_others(url):
    lease = uuid4()
    first, second = leases_for(url), leases_for(url)
    try:
        assert first.holds(lease) and not second.holds(lease)
        assert first.holds(lease), "holding again is still holding"
        first.release(lease)
        assert second.holds(lease) and not first.holds(lease)
        second.close()  # the database ends the session a few milliseconds later
        wait_for(lambda: first.holds(lease), seconds=2, what="the lease passing back")
    finally:
        first.close(), second.close()


def test_a_lease_passes_within_a_second_of_its_holder_being_killed(url, tmp_path):
    """A real process takes a lease and is killed with SIGKILL: the lease is free as soon as the database (or the
    kernel, for a SQLite file's flock) sees the process gone."""
    lease = uuid4()
    script = ("import sys, time; from uuid import UUID; from service.adapters.leases import leases_for\n"
              f"l = leases_for({url!r}); assert l.holds(UUID({str(lease)!r})); print('held', flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    other = leases_for(url)
    try:
        assert child.stdout.readline().strip() == "held"
        assert not other.holds(lease)
        os.kill(child.pid, signal.SIGKILL)
        killed = time.monotonic()
        wait_for(lambda: other.holds(lease), seconds=5, what="the lease passing")
        print(f"\nlease free after SIGKILL of its holder: {(time.monotonic() - killed) * 1000:.0f} ms")
    finally:
        child.kill()
        child.wait()
        other.close()


def tournament_games(host: Host, tid: str) -> list[list[str]]:
    """Each round's games as the tournament's stored events have them (no read through its views, which advance)."""
    t = host.tournaments._load(UUID(tid))
    return [[g["game_id"] for table in r["tables"] for g in table["games"]] for r in t.rounds]


def stored_games(host: Host) -> int:
    return len(host.arbiter.app.recorder.select_notifications(start=1, limit=10_000, topics=[GAME_CREATED]))


def test_the_next_round_is_created_once_by_the_lease_holder_and_by_another_host_when_the_holder_dies(hosts):
    a, b = hosts(), hosts()
    created = a.tournaments.create(CreateTournament.from_body({"name": "RR", "game": "small-battle", "options": {}, "format": "round-robin",
                                    "players": ["Ann", "Bob", "Cy", "Di", "Ed"], "auto_rounds": True}))
    tid, director = created["id"], created["director_token"]
    a.tournaments.start_round(tid, director)
    a.duty.start()
    wait_for(lambda: UUID(tid) in a.duty.leases.held, what="host A taking the tournament's lease")
    b.duty.start()

    for gid in tournament_games(b, tid)[0]:
        finish(b.arbiter.app, gid)  # round 1 ends through the Referee: no listener, nobody reads the tournament
    wait_for(lambda: [len(r) for r in tournament_games(b, tid)] == [2, 2], what="round 2, created by the holder's loop")

    first, last = tournament_games(b, tid)[1]
    finish(b.arbiter.app, first)
    views = [threading.Thread(target=h.tournaments.view, args=(tid,)) for h in (a, b) for _ in range(3)]
    for v in views:
        v.start()  # both hosts read the tournament while its round ends
    finish(b.arbiter.app, last)
    for v in views:
        v.join()
    wait_for(lambda: len(tournament_games(b, tid)) == 3 and len(tournament_games(b, tid)[2]) == 2, what="round 3")
    time.sleep(0.3)
    assert [len(r) for r in tournament_games(b, tid)] == [2, 2, 2], "one next round each time, two tables each"

    a.tournaments.advance = lambda tournament_id: None  # A sees round 3 end and dies before creating round 4
    for gid in tournament_games(b, tid)[2]:
        finish(b.arbiter.app, gid)
    time.sleep(0.3)
    assert len(tournament_games(b, tid)) == 3 and UUID(tid) not in b.duty.leases.held
    a.duty.abandon()
    wait_for(lambda: len(tournament_games(b, tid)) == 4 and len(tournament_games(b, tid)[3]) == 2,
             what="round 4, created by host B")
    time.sleep(0.3)
    assert [len(r) for r in tournament_games(b, tid)] == [2, 2, 2, 2]
    assert stored_games(b) == 8, "no game created and left out of the tournament"


def test_a_seat_out_of_time_is_flagged_exactly_once_by_the_hosts_alive(stores, tmp_path, url):
    creator = Arbiter(url, str(tmp_path / "key"), str(tmp_path / "checkpoints.log"))
    created = creator.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": "A"}, {"name": "B"}],
                                   "time_control": {"move_seconds": 1}}))
    gid = UUID(created["id"])
    creator.app.close()  # the host that created the game is gone
    watchers = []
    for _ in range(3):
        app = stores.referee(url)
        watchers.append(ClockWatch(app))
    later = server_ms() + 5_000
    ticks = [threading.Thread(target=w.tick, args=(later,)) for w in watchers]
    for t in ticks:
        t.start()
    for t in ticks:
        t.join()
    for w in watchers:
        w.tick(later + 1)
    app = watchers[0].app
    flags = [app.mapper.to_domain_event(n) for n in app.recorder.select_notifications(start=1, limit=1000, topics=[TIME_EXPIRED])
             if n.originator_id == gid]
    due = [(f.seat, f.control, f.turn) for f in flags]
    assert len(due) == 2 and len(set(due)) == 2, f"each seat out of time flagged once: {due}"
    assert {seat for seat, _, _ in due} == {0, 1}, "both seats arrange at once: both clocks ran out"


def test_reading_an_unknown_tournament_takes_no_lease(hosts):
    """A lease is an entry of PostgreSQL's shared lock table: a read of any id must not leave one behind."""
    a = hosts()
    a.duty.start()
    unknown = uuid4()
    for _ in range(3):
        with pytest.raises(NotFound):
            a.tournaments.view(str(unknown))
    time.sleep(0.1)
    assert unknown not in a.duty.leases.held


def test_a_stopped_duty_loop_gives_back_its_leases_and_a_closed_store_ends_its_loop(hosts):
    a, b = hosts(), hosts()
    created = a.arbiter.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": "P"}, {"name": "Bot"}]}))
    a.arbiter.play.seat_bot(created["id"], created["seats"][1]["token"], "random")
    wait_for(lambda: UUID(created["id"]) in a.duty.leases.held, what="host A taking the lease")
    a.duty.stop()
    assert not a.duty.running and a.duty.leases.held == set()
    b.duty.start()
    wait_for(lambda: UUID(created["id"]) in b.duty.leases.held, what="host B taking the lease")
    b.arbiter.app.close()
    wait_for(lambda: not b.duty.running, seconds=2, what="host B's loop ending with its store")
