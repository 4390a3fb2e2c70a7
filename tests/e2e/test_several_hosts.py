"""Several hosts on one PostgreSQL (issue 25): three `arbiter serve`, one killed mid-run, nothing acknowledged lost.

Three hosts (tests/e2e/hosts_support.py: real `arbiter serve` process groups, one worker each) on three ports serve one
fresh schema of the database named by ARBITER_TEST_POSTGRES_URL (skipped without it). Each host has its own working
folder and ARBITER_STATE_DIR; they share no file: the one signing key is copied into each folder (--key-file).

- Client threads play games of every registered game (the random bot choosing among the legal moves a seat's view
  lists), each request going to the next host round-robin; every move carries an Idempotency-Key and
  `expected_version`, and a request that meets a connection error is sent again, the same key and body, to the next
  host. Each game also sends one move from a seat that is not to act (a refused attempt, evidence too).
- Host A seats random bots at every seat of a game; just before A dies it creates a game with a 3-second move clock
  whose seat never moves.
- A is killed with SIGKILL (its master and worker at once) mid-run; a fresh host D is started on a new port in a new
  folder and takes A's place in the rotation.

Then, read through the surviving hosts' API and from the database: every acknowledged move (a 200) is in its game's
event log exactly once, in order, and the log holds no other move of those seats; every acknowledged refusal is in
the log once; every receipt any host issued verifies on every other surviving host; the timed game is flagged exactly
once; `arbiter verify --all` from a fourth folder holding only the database URL and the key exits 0, and 1 once an
event row is deleted.

Live streams (tests/e2e/hosts_streams.py): a seat, the referee and a spectator of every El Royale game the clients
start read its stream, each from another host than the others (the moves go round-robin through all); a stream on A
is cut by A's death and resumes on another host with Last-Event-ID = the last id it received. At the end each holds
exactly the entries GET /games/{id}/events?after=<its start> gives its token: same versions, order and JSON. A game
is watched from the version after its one refused attempt: the feed forwards refused attempts (the referee's) only in
a (re)connection's backlog, never live.

Also: a bot seated at every seat of a game through the host that is killed keeps playing on another (the game's
lease passes); `verify --all` exits 1 naming the game once its last refused-attempt row, or a middle row of the
checkpoint table, is deleted; it needs only the database URL and the public key; a host started with another key
refuses to serve and says so.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timezone

import pytest

from bots import SeatView, make_bot
from domain.attempts import attempts_id
from domain.games import SPECS

from .hosts_streams import Streams, Subscriber
from .hosts_support import (ARBITER, POSTGRES_ENV, Host, Rotation, call, clean_env, drop_schema, give_key,
                            public_key_hex, schema_url, signing_key_pem)

PLAY_SECONDS = 16.0    # clients start no new move after this
KILL_AFTER = 6.0       # host A dies this long after the clients start
GAMES_PER_KIND = 2     # client threads per registered game (each plays its games one after another)
MAX_MOVES = 60         # a client's moves in one game (El Royale between random bots rarely ends)
CLOCK_SECONDS = 3      # the timed game's move clock
FLAG_WAIT = 20.0       # seconds after its creation by which the timed game must be flagged
RECEIPTS_PER_PAIR = 25  # receipts of one host checked on each other host
BOT_GAME = "el-royale"
EVENTS_TABLE = "arbiter_events"
STREAM_GAME = "el-royale"  # the games watched live: random bots rarely end them (an ended game's log is disclosed)
WATCH_MARGIN = 4.0         # no game is watched from this long before the end of play

pytestmark = pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")


class Played:
    """A game a client created: its tokens and every answer its moves got."""

    def __init__(self, kind: str, created: dict):
        self.kind, self.id, self.referee = kind, created["id"], created["referee_token"]
        self.tokens = [s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
        self.acks: list[dict] = []       # {"seat", "key", "answer", "host"}
        self.refusals: list[dict] = []   # {"seat", "key", "attempt", "rule"}


class Run:
    """Everything the scenario saw, for the tests to judge."""

    def __init__(self, rotation: Rotation, tmp, url: str, schema: str, pem: bytes):
        self.rotation, self.tmp, self.url, self.schema, self.pem = rotation, tmp, url, schema, pem
        self.games: list[Played] = []
        self.receipts: list[tuple[dict, str]] = []  # (receipt, name of the host that issued it)
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.play_until = 0.0
        self.streams = Streams(rotation)

    def post_move(self, game: Played, seat: int, move: dict, version: int) -> int:
        key = f"hosts-{uuid.uuid4().hex}"
        body = {**move, "expected_version": version}
        status, answer, host = self.rotation.request("POST", f"/games/{game.id}/moves", game.tokens[seat], body, key)
        if status == 200:
            game.acks.append({"seat": seat, "key": key, "answer": answer, "host": host.name})
            with self.lock:
                self.receipts.append((answer["receipt"], host.name))
        elif status == 422 and answer.get("attempt") is not None and answer.get("field") != "idempotency_key":
            game.refusals.append({"seat": seat, "key": key, "attempt": answer["attempt"], "rule": answer.get("rule")})
        else:
            raise AssertionError(f"move {body} of seat {seat}, {game.kind} game {game.id}, on {host}: {status} {answer}")
        return status

    def play(self, game: Played, rng: random.Random) -> None:
        """The game's seats play through the rotation until it ends, MAX_MOVES, or the run's time is up."""
        n = len(game.tokens)
        bots = [make_bot("random", game.kind, seat, rng) for seat in range(n)]
        seat = idle = moves = 0
        while moves < MAX_MOVES and time.monotonic() < self.play_until and not self.errors:
            status, view, host = self.rotation.request("GET", f"/games/{game.id}/view", game.tokens[seat])
            assert status == 200, f"view of seat {seat}, {game.kind} game {game.id}, on {host}: {status} {view}"
            if view["status"] == "finished":
                return
            if not view["table"].get("legal_moves"):
                idle += 1
                assert idle <= 2 * n, f"{game.kind} game {game.id} is in progress but no seat may move"
                to_act = view["table"].get("to_act")
                seat = to_act if isinstance(to_act, int) and to_act != seat else (seat + 1) % n
                continue
            idle = 0
            move = {k: v for k, v in bots[seat].choose(SeatView.from_http(view)).items() if k != "seat"}
            if moves == 2 and not game.refusals:  # the same move from the next seat: refused (not its turn) as a rule
                self.post_move(game, (seat + 1) % n, move, view["version"])
                moves += 1
                continue
            self.post_move(game, seat, move, view["version"])
            moves += 1

    def client(self, kind: str, number: int) -> None:
        rng = random.Random(f"several-hosts|{kind}|{number}")
        players = [{"name": f"P{i}"} for i in range(SPECS[kind].min_players)]
        try:
            while time.monotonic() < self.play_until and not self.errors:
                status, created, host = self.rotation.request("POST", "/games", body={"game": kind, "players": players})
                assert status == 201, f"create {kind} on {host}: {status} {created}"
                game = Played(kind, created)
                with self.lock:
                    self.games.append(game)
                    self.receipts.append((created["receipt"], host.name))
                self.play(game, rng)
        except BaseException as e:  # reported by the tests
            self.errors.append(f"client {kind}#{number}: {type(e).__name__}: {e}")


    def watch(self) -> None:
        """Subscribe a seat, the referee and a spectator (each on another host) to every STREAM_GAME game the clients
        start, once it holds its refused attempt (the feed forwards refusals only in a (re)connection's backlog)."""
        try:
            while time.monotonic() < self.play_until - WATCH_MARGIN and not self.errors:
                for game in list(self.games):
                    if (game.kind == STREAM_GAME and game.refusals and game.id not in self.streams.watched
                            and len(game.acks) < MAX_MOVES // 2):
                        self.streams.watch(game.id, game.tokens, game.referee)
                time.sleep(0.1)
        except BaseException as e:  # reported by the tests
            self.errors.append(f"stream watcher: {type(e).__name__}: {e}")


def ok(host: Host, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict | list:
    status, answer = call(host.port, method, path, token, body)
    assert status < 300, f"{method} {path} on {host}: {status} {answer}"
    return answer


def events(run: Run, gid: str, referee: str) -> list[dict]:
    status, answer, host = run.rotation.request("GET", f"/games/{gid}/events", referee)
    assert status == 200, f"events of {gid} on {host}: {status} {answer}"
    return answer


def stream_log(run: Run, sub: Subscriber) -> list[dict]:
    """GET /games/{id}/events?after=<the subscriber's start> with its token, through the rotation."""
    status, answer, host = run.rotation.request("GET", f"/games/{sub.game_id}/events?after={sub.start}", sub.token)
    assert status == 200, f"events of {sub} on {host}: {status} {answer}"
    return answer


def seat_moves(log: list[dict]) -> list[dict]:
    return [e for e in log if (e["actor"] or "").startswith("seat:") and e["type"] != "move_rejected"]


def check_receipts(run: Run, survivors: list[Host]) -> tuple[list[str], int]:
    """Receipts of every host checked on every other surviving host: RECEIPTS_PER_PAIR of each issuer's, spread over
    the run, on each; (what did not verify as intact, how many checks). All of them name the one key (a test)."""
    jobs = []
    for issuer in sorted({name for _, name in run.receipts}):
        mine = [receipt for receipt, name in run.receipts if name == issuer]
        sample = mine[:: max(1, len(mine) // RECEIPTS_PER_PAIR)] + mine[-3:]
        jobs += [(receipt, issuer, host) for receipt in sample for host in survivors if host.name != issuer]

    def one(job) -> str | None:
        receipt, issuer, host = job
        status, answer = call(host.port, "POST", "/receipts/verify", body=receipt)
        if status != 200 or not answer.get("ok"):
            return f"a receipt of host {issuer} (game {receipt['game']} v{receipt['version']}) on {host}: {status} {answer}"
        return None

    with ThreadPoolExecutor(4) as pool:
        return [problem for problem in pool.map(one, jobs) if problem], len(jobs)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    base = os.environ[POSTGRES_ENV]
    schema, url = schema_url(base, "arbiter_hosts")
    tmp = tmp_path_factory.mktemp("several_hosts")
    pem = signing_key_pem()
    hosts = [Host(name, tmp / f"host-{name}", url, pem) for name in "ABC"]
    started = list(hosts)
    t0, phases, r = time.monotonic(), {}, None
    try:
        for host in hosts:  # all three at once on the new store (issue 23's first start)
            host.start()
        for host in hosts:
            host.wait_ready()
        phases["boot"] = time.monotonic() - t0
        a, b = hosts[0], hosts[1]
        r = Run(Rotation(hosts), tmp, url, schema, pem)
        r.key_ids = {h.name: ok(h, "GET", "/keys")["key_id"] for h in hosts}

        # a game whose every seat is played by a bot seated through A
        bot_game = ok(a, "POST", "/games", body={"game": BOT_GAME, "players": [{"name": f"Bot{i}"} for i in range(3)]})
        for seat in bot_game["seats"]:
            ok(a, "POST", f"/games/{bot_game['id']}/bot", seat["token"], {"bot": "random"})
        r.bot_game = bot_game

        r.play_until = time.monotonic() + PLAY_SECONDS
        threads = [threading.Thread(target=r.client, args=(kind, i), daemon=True)
                   for kind in SPECS for i in range(GAMES_PER_KIND)]
        threads.append(threading.Thread(target=r.watch, daemon=True))
        for t in threads:
            t.start()
        time.sleep(KILL_AFTER)

        # a timed game created by A, whose seat to act never moves; then A dies
        r.clock_game = ok(a, "POST", "/games", body={"game": "el-royale", "players": [{"name": "Slow"}, {"name": "Fast"}],
                                                    "time_control": {"move_seconds": CLOCK_SECONDS}})
        r.clock_created = time.monotonic()
        a.kill()
        r.killed_at = datetime.now(timezone.utc)
        r.bot_version_at_kill = ok(b, "GET", f"/games/{bot_game['id']}/view", bot_game["referee_token"])["version"]
        d = Host("D", tmp / "host-D", url, pem)
        started.append(d)
        d.start().wait_ready()
        r.rotation.replace(a, d)
        r.key_ids["D"] = ok(d, "GET", "/keys")["key_id"]
        for t in threads:
            t.join(timeout=PLAY_SECONDS + 120)
        if any(t.is_alive() for t in threads):
            r.errors.append("a client thread did not finish")

        phases["play"] = time.monotonic() - t0
        r.streams.settle(lambda sub: stream_log(r, sub))
        r.stream_logs = [stream_log(r, sub) for sub in r.streams.subscribers]
        phases["streams"] = time.monotonic() - t0
        survivors = [h for h in started if h.alive()]
        clock_id, clock_referee = r.clock_game["id"], r.clock_game["referee_token"]
        while time.monotonic() < r.clock_created + FLAG_WAIT:
            if any(e["type"] == "time_expired" for e in events(r, clock_id, clock_referee)):
                break
            time.sleep(0.5)
        time.sleep(2.0)  # long enough for every surviving host's clock watcher to have looked again
        r.clock_log = events(r, clock_id, clock_referee)
        r.bot_log = events(r, bot_game["id"], bot_game["referee_token"])
        r.bot_views = [ok(r.rotation.next(), "GET", f"/games/{bot_game['id']}/view", bot_game["referee_token"])]
        time.sleep(1.5)  # a bot table that is not stranded has moved again by now, or is over
        r.bot_views.append(ok(r.rotation.next(), "GET", f"/games/{bot_game['id']}/view", bot_game["referee_token"]))
        r.logs = {g.id: events(r, g.id, g.referee) for g in r.games}
        phases["flag and logs"] = time.monotonic() - t0
        r.receipt_problems, r.receipt_checks = check_receipts(r, survivors)
        phases["receipts"] = time.monotonic() - t0
        r.survivor_logs = {h.name: h.log() for h in survivors}
        r.served = dict(r.rotation.served)
        moves = sum(len(g.acks) for g in r.games)
        replayed = sum(1 for g in r.games for a in g.acks if a["answer"].get("replayed"))
        print(f"several hosts: {len(r.games)} games, {moves} acknowledged moves ({replayed} answered again to a retry), "
              f"{sum(len(g.refusals) for g in r.games)} refusals, {r.rotation.retries} requests sent again after a "
              f"connection error, requests per host {r.served}, {r.receipt_checks} receipt checks; bot game at "
              f"v{r.bot_version_at_kill} when A died, v{r.bot_log[-1]['version']} at the end; seconds since the start "
              f"{ {k: round(v, 1) for k, v in phases.items()} }")
        print(f"streams: {len(r.streams.subscribers)} subscribers of {len(r.streams.watched)} games, "
              f"{sum(len(s.got) for s in r.streams.subscribers)} entries received, "
              f"{sum(len(s.lost) for s in r.streams.subscribers)} connections lost and resumed")
        for host in started:
            host.stop()
        yield r
    finally:
        if r is not None:
            r.streams.stop()
        for host in started:
            if host.alive():
                host.stop()
        drop_schema(base, schema)


# -- through the surviving hosts' API ----------------------------------------------------------------------------------


def test_clients_spread_over_every_host_met_no_unexpected_answer_while_a_host_was_killed_and_replaced(run):
    assert not run.errors, "\n".join(run.errors)
    assert {g.kind for g in run.games} == set(SPECS), "every registered game was played"
    assert all(run.served.get(name, 0) >= 10 for name in "ABCD"), run.served
    assert run.rotation.retries > 0, "no request met the dead host: the kill did not happen mid-run"
    assert len(set(run.key_ids.values())) == 1, f"the hosts sign with different keys: {run.key_ids}"


def test_no_acknowledged_move_is_lost_or_doubled(run):
    played = 0
    for game in run.games:
        log = run.logs[game.id]
        by_version = {e["version"]: e for e in log if e["type"] != "move_rejected"}
        assert sorted(by_version) == list(range(1, max(by_version) + 1)), f"game {game.id}: versions with gaps"
        firsts = []
        for ack in game.acks:
            first = ack["answer"]["events"][0]  # as the seat saw it: its data may be redacted, nothing else differs
            stored = {k: v for k, v in by_version.get(first["version"], {}).items() if k != "data"}
            assert stored == {k: v for k, v in first.items() if k != "data"}, \
                f"{game.kind} game {game.id}: the move acknowledged at v{first['version']} by {ack['host']} is not in the log"
            assert first["actor"] == f"seat:{ack['seat']}"
            firsts.append(first["version"])
        assert len(firsts) == len(set(firsts)), f"{game.kind} game {game.id}: two requests were told the same move"
        assert firsts == sorted(firsts), f"{game.kind} game {game.id}: acknowledged moves out of order"
        assert [e["version"] for e in seat_moves(log)] == firsts, \
            f"{game.kind} game {game.id}: the log's moves differ from the acknowledged ones (a lost or doubled move)"
        played += len(firsts)
    assert played >= 100, f"only {played} moves were acknowledged"


def test_every_acknowledged_refusal_is_in_the_log_once(run):
    refused = 0
    for game in run.games:
        attempts = Counter(e["data"]["attempt"] for e in run.logs[game.id] if e["type"] == "move_rejected")
        assert all(n == 1 for n in attempts.values()), f"game {game.id}: an attempt recorded twice {attempts}"
        assert sorted(r["attempt"] for r in game.refusals) == sorted(attempts), f"game {game.id}: {game.refusals}"
        refused += len(game.refusals)
    assert refused >= len(SPECS), "too few refused attempts were made"


def test_every_receipt_any_host_issued_verifies_on_every_other_host(run):
    issuers = Counter(issuer for _, issuer in run.receipts)
    assert set(issuers) == set("ABCD"), issuers
    assert {receipt["key"] for receipt, _ in run.receipts} == set(run.key_ids.values())
    assert not run.receipt_problems, "\n".join(run.receipt_problems[:10])


def test_a_seat_out_of_time_is_flagged_exactly_once_though_the_host_that_created_its_game_died(run):
    flags = [e for e in run.clock_log if e["type"] == "time_expired"]
    assert len(flags) == 1, f"time_expired events of the timed game: {flags}"
    assert flags[0]["actor"] == "clock" and flags[0]["data"]["control"] == "move", flags
    assert datetime.fromisoformat(flags[0]["at"]) > run.killed_at, "the flag was raised before its game's host died"


def test_the_surviving_hosts_logged_no_error(run):
    for name, log in run.survivor_logs.items():
        assert "Traceback" not in log and "[ERROR]" not in log, f"host {name}:\n{log[-4000:]}"


def test_a_bot_seated_through_a_host_keeps_playing_after_that_host_dies(run):
    before = [e for e in seat_moves(run.bot_log) if e["version"] <= run.bot_version_at_kill]
    after = [e for e in seat_moves(run.bot_log) if e["version"] > run.bot_version_at_kill]
    assert before, "the bots played no move before their host died"
    assert len(after) >= 10, f"bot moves after host A died: {Counter(e['actor'] for e in after)}"
    # no seat stranded: at the end the game is over, or it is still moving (a seat that went out of play, as a random
    # bot's seat may, is asked for nothing and rightly moves no more)
    first, last = run.bot_views
    assert last["status"] == "finished" or last["version"] > first["version"], \
        f"the bot table stood still at version {first['version']} after its host died"


# -- live streams, read on every host -------------------------------------------------------------------------------


def first_difference(got: list, want: list) -> str:
    i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return (f"received {len(got)} entries, the log has {len(want)}; first difference at #{i}: "
            f"received {got[i] if i < len(got) else None}, the log {want[i] if i < len(want) else None}")


def test_a_live_stream_on_any_host_carries_exactly_the_viewers_event_log_across_a_hosts_death(run):
    subs = run.streams.subscribers
    assert {s.role.split()[0] for s in subs} == {"seat", "referee", "spectator"}
    assert len(run.streams.watched) >= 3 and {s.first_host for s in subs} >= set("ABC"), \
        f"{len(run.streams.watched)} games watched, first hosts {Counter(s.first_host for s in subs)}"
    exact = 0
    for sub, log in zip(subs, run.stream_logs):
        assert not sub.errors, f"{sub}: {sub.errors}"
        got, want = sub.received(), [(e["version"], e) for e in log]
        if any(e["type"] == "seed_revealed" for e in log):  # over: the log now discloses what the stream hid then
            got, want = [(v, e["type"]) for v, e in got], [(v, e["type"]) for v, e in want]
        else:
            exact += 1
        assert got == want, f"{sub}, from v{sub.start}, connections {sub.connects}: {first_difference(got, want)}"
    assert exact >= 9, f"only {exact} streams of games still in play were compared entry by entry"
    # the streams carried moves that other hosts took (clients send every request to the next host in turn)
    elsewhere = total = 0
    for sub in subs:
        game = next(g for g in run.games if g.id == sub.game_id)
        after = [a for a in game.acks if a["answer"]["events"][0]["version"] > sub.start]
        taken_elsewhere = [a for a in after if a["host"] != sub.first_host]
        assert taken_elsewhere or not sub.got, f"{sub}: no move after v{sub.start} was taken by another host"
        elsewhere, total = elsewhere + len(taken_elsewhere), total + len(after)
    assert elsewhere > total / 2, f"only {elsewhere} of {total} moves the streams carried went through other hosts"


def test_a_stream_cut_by_its_hosts_death_resumes_on_another_host_from_the_last_id_it_received(run):
    cut = [s for s in run.streams.subscribers if s.first_host == "A" and s.connects[0][0] == "A"
           and "A" in s.lost and not s.ended]
    assert cut, f"no stream on host A was cut by its death: {[(s, s.lost) for s in run.streams.subscribers]}"
    resumed = 0
    for sub in cut:
        on_a = [v for v, host, _ in sub.got if host == "A"]
        assert len(sub.connects) >= 2, f"{sub} lost its connection on A and did not connect again: {sub.connects}"
        (_, _), (second, sent) = sub.connects[:2]
        assert second != "A", f"{sub} reconnected to the dead host: {sub.connects}"
        assert sent == (on_a[-1] if on_a else sub.start), f"{sub}: Last-Event-ID {sent}, last received {on_a[-1:]}"
        resumed += any(host != "A" for _, host, _ in sub.got)
    assert resumed, "no stream cut by A's death received an entry from the host it resumed on"


# -- `arbiter verify --all` from a fourth folder, against the database -------------------------------------------------


def verify_all(run, folder_name: str, *options: str) -> tuple[int, dict[str, dict], str]:
    """`arbiter verify --all --json` in a new folder with nothing but what `options` name: (exit, reports by id, output)."""
    folder = run.tmp / folder_name
    folder.mkdir(exist_ok=True)
    env = clean_env(folder / "state")  # the default maximum merge delay: every host stopped cleanly had a last round
    done = subprocess.run([str(ARBITER), "verify", "--all", "--json", "--workers", "1", "--database-url", run.url,
                           *options], cwd=folder, env=env, capture_output=True, text=True, timeout=180)
    reports = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            doc = json.loads(line)
            reports[doc.get("id")] = doc
    return done.returncode, reports, done.stdout[-3000:] + done.stderr[-3000:]


def with_key(run) -> tuple[str, ...]:
    return ("--key-file", str(give_key(run.tmp / "auditor", run.pem)))


@contextmanager
def row_deleted(run, table: str, where: str, params: tuple):
    """One row deleted for the time of the block, then put back as it was."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(run.url.split("?", 1)[0], autocommit=True, connect_timeout=10) as conn:
        cur = conn.execute(sql.SQL("SELECT * FROM {} WHERE " + where).format(sql.Identifier(*table.split("."))), params)
        rows = cur.fetchall()
        assert len(rows) == 1, f"{len(rows)} rows of {table} where {where} {params}"
        columns = [d.name for d in cur.description]
        conn.execute(sql.SQL("DELETE FROM {} WHERE " + where).format(sql.Identifier(*table.split("."))), params)
        try:
            yield
        finally:
            conn.execute(sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
                sql.Identifier(*table.split(".")), sql.SQL(", ").join(map(sql.Identifier, columns)),
                sql.SQL(", ").join(sql.Placeholder() * len(columns))), rows[0])


def longest_game(run) -> Played:
    return max(run.games, key=lambda g: len(run.logs[g.id]))


def test_verify_all_from_a_fourth_folder_passes_and_fails_once_an_event_row_is_deleted(run):
    code, reports, out = verify_all(run, "auditor", *with_key(run))
    assert code == 0, out
    assert {g.id for g in run.games} <= set(reports)
    game = longest_game(run)
    with row_deleted(run, f"{run.schema}.{EVENTS_TABLE}", "originator_id = %s AND originator_version = %s",
                     (uuid.UUID(game.id), 4)):
        code, reports, out = verify_all(run, "auditor", *with_key(run))
    assert code == 1, out
    assert [gid for gid, r in reports.items() if not r["ok"]] == [game.id], out


def test_verify_all_fails_naming_the_game_once_its_last_attempts_row_is_deleted(run):
    game = max((g for g in run.games if g.refusals), key=lambda g: len(run.logs[g.id]))  # checkpointed after it
    stream = attempts_id(uuid.UUID(game.id))
    import psycopg

    with psycopg.connect(run.url.split("?", 1)[0], connect_timeout=10) as conn:
        last = conn.execute(f'SELECT max(originator_version) FROM "{run.schema}".{EVENTS_TABLE} WHERE originator_id = %s',
                            (stream,)).fetchone()[0]
    with row_deleted(run, f"{run.schema}.{EVENTS_TABLE}", "originator_id = %s AND originator_version = %s",
                     (stream, last)):
        code, reports, out = verify_all(run, "auditor", *with_key(run))
    assert code == 1, out
    assert game.id in [gid for gid, r in reports.items() if not r["ok"]], out


def checkpoint_table(run) -> str:
    """The table of the store's checkpoint log ("schema.table"): in the store's schema or a schema named after it."""
    import psycopg

    with psycopg.connect(run.url.split("?", 1)[0], connect_timeout=10) as conn:
        found = conn.execute("SELECT table_schema, table_name FROM information_schema.tables WHERE table_name ILIKE "
                             "'%%checkpoint%%' AND (table_schema = %s OR table_schema LIKE %s)",
                             (run.schema, run.schema + "%")).fetchall()
    assert len(found) == 1, f"the checkpoint log's table of schema {run.schema}: found {found}"
    return ".".join(found[0])


def test_verify_all_fails_once_a_checkpoint_row_is_deleted(run):
    table = checkpoint_table(run)
    import psycopg

    with psycopg.connect(run.url.split("?", 1)[0], connect_timeout=10) as conn:
        schema, name = table.split(".")
        lines = conn.execute(f'SELECT count(*) FROM "{schema}"."{name}"').fetchone()[0]
    assert lines >= 3, f"{lines} checkpoints"
    with row_deleted(run, table, "seq = %s", (lines // 2,)):  # a middle line: the last one shows only against a kept head
        code, _, out = verify_all(run, "auditor", *with_key(run))
    assert code == 1, out


def test_verify_all_needs_only_the_database_url_and_the_public_key_and_holds_every_game_to_the_one_log(run):
    code, reports, out = verify_all(run, "auditor-public", "--public-key", public_key_hex(run.pem))
    assert code == 0, out
    checked = [gid for gid, r in reports.items() if r["checkpoint"]["ok"] is True]
    assert {g.id for g in run.games if g.acks} <= set(checked), out


def test_a_host_started_with_another_key_refuses_to_serve_and_says_so(run):
    intruder = Host("E", run.tmp / "host-E", run.url, signing_key_pem()).start()
    try:
        intruder.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a host with another key is still running:\n{intruder.log()[-3000:]}")
    finally:
        intruder.stop()
    assert intruder.proc.returncode != 0
    assert "key" in intruder.log().lower(), intruder.log()[-3000:]
