"""A duplicate board's games have no spectators, and show their own seats nothing they could not see in play, until
every table of the board is over: over HTTP, on every read of a game (view, events, replay, audit, its check, record,
stream, pages, the live feed), for every registered game that a duplicate tournament of two tables can play.

While both tables play board 1.1, and again once table A has finished it while table B still plays it, anyone (no
token) and a browser holding table B's seat are refused table A's game on every read (403, no card, no seed), and a
seat of table B with its own token too (it belongs to another game); the catalogue and the tournament page stay
public and name no card. A seat of table A reads only cards it could see while the game was being played (its own
view after every event, its event log up to the end); the seed appears nowhere. The director's referee token sees
everything; once table B ends (or the director releases the board), spectators read the finished game whole.
"""

from __future__ import annotations

import json
import re
import time
from uuid import UUID

import pytest

from api import create_app
from api.pages.filters import card_parts
from domain.game import Game
from domain.games import DECIDERS, SPECS
from domain.rules import InvalidSetup
from domain.tournament import spec as tspec
from projections.registry import projection_for
from projections.viewers import SPECTATOR, Viewer
from projections.views import event_log
from service.errors import Forbidden
from tests.tournament_support import finish

from .api_support import CheckedClient, bearer

API = "/api/v1"
CARD_STRING = re.compile(r'"((?:[A2-9TJQK][CDHS])|JK)"')
LABEL = re.compile(r'(?:aria-label|title)="([^"]+)"')
ALL_CARDS = [r + s for s in "CDHS" for r in "A23456789TJQK"] + ["JK"]
LABELS = {card_parts(c)["label"]: c for c in ALL_CARDS}
PLAYERS = [{"name": n} for n in ("North", "East", "South", "West")]


def two_table_formats(game: str) -> dict | None:
    """A duplicate tournament spec of `game` whose rounds have two tables (round-robin of four, else four teams of
    two), or None if the game plays neither."""
    for fmt, players in (("round-robin", PLAYERS),
                         ("teams", [{"name": f"{p['name']}{i}", "team": f"T{i % 4}"} for i, p in enumerate(PLAYERS * 2)])):
        spec = {"name": "Duplicate", "game": game, "players": players, "format": fmt, "duplicate": True,
                "games_per_table": 1, "options": SPECS[game].example_options[0]}
        try:
            settings = tspec.validate(spec)
            tspec.tables_check(settings, settings["players"])
        except InvalidSetup:
            continue
        return spec
    return None


DUPLICATE_GAMES = [g for g in SPECS if two_table_formats(g) is not None]


def cards_of_json(text: str) -> set[str]:
    return set(CARD_STRING.findall(text))


def cards_of_page(html: str) -> set[str]:
    return {LABELS[label] for label in LABEL.findall(html) if label in LABELS}


def in_play(app, gid: UUID, viewer: Viewer) -> tuple[dict, list[dict]]:
    """What `viewer` saw of the game at its last move, before the end was told: its table and its event log (the
    projections' own rules for a game in progress, from the stored events), as JSON reads them."""
    events = app.stored_events(gid)
    end = next(i for i, e in enumerate(events) if isinstance(e, Game.SeedRevealed))
    game = app.game(gid, events[end - 1].originator_version)
    table = projection_for(game.game).table(game.state, viewer, False)
    return json.loads(json.dumps(table)), json.loads(json.dumps(event_log(events[:end], viewer)))


def seen_in_play(app, gid: UUID, viewer: Viewer) -> set[str]:
    """Every card `viewer` could see of the game while it was played: its table after each event, its event log up to
    the end (the projections' own rules for a game in progress, read from the stored events)."""
    events = app.stored_events(gid)
    end = next(i for i, e in enumerate(events) if isinstance(e, Game.SeedRevealed))
    created = events[0]
    decider, projection = DECIDERS[created.game], projection_for(created.game)
    state = decider.initial_state(decider.configure(created.options, created.players, created.dealer, created.starter))
    seen = cards_of_json(json.dumps(event_log(events[:end], viewer)))
    for e in events[1:end]:
        if isinstance(e, Game.Happened):
            state = decider.evolve(state, decider.decode_event(e.data))
            seen |= cards_of_json(json.dumps(projection.table(state, viewer, False)))
    return seen


def reads(client, gid: str, token: str | None, final: int) -> list[tuple[str, str, bool]]:
    """(what, body, is_json) of every read of a game through the API and the pages, with `token` (or none)."""
    h = bearer(token) if token else {}
    out = []
    for path in ("", "/view", "/events", "/events?after=1", "/replay?version=2", f"/replay?version={final}",
                 f"/replay?version={final - 1}", "/audit", "/audit/verify", "/record"):
        if path == "/view" and token is None:
            continue
        r = client.get(f"{API}/games/{gid}{path}", headers=h)
        out.append((f"GET {path or '/'} {r.status_code}", r.get_data(as_text=True), True))
    r = client.get(f"{API}/games/{gid}/stream?after=0", headers=h)  # a finished game's stream ends once drained
    out.append((f"GET /stream {r.status_code}", r.get_data(as_text=True), True))
    r = client.get(f"{API}/games?limit=200", headers=h)
    out.append(("GET /games", r.get_data(as_text=True), True))
    for page in ("", "/panel", "/replay", f"/replay?version={final}", "/audit", "/record.json", "/disputes"):
        r = client.get(f"/games/{gid}{page}")
        out.append((f"page {page or '/'} {r.status_code}", r.get_data(as_text=True), False))
    return out


def spectator_reads(client, gid: str, final: int) -> list[tuple[str, int, str, bool]]:
    """(what, status, body, is_json) of every read of a game a spectator (no token) can make, API and pages."""
    out = []
    for path in ("", "/events", "/events?after=1", "/replay?version=2", f"/replay?version={final}", "/audit",
                 "/audit/verify", "/record", "/stream?after=0"):
        r = client.get(f"{API}/games/{gid}{path}")
        out.append((f"GET {path or '/'}", r.status_code, r.get_data(as_text=True), True))
    for page in ("", "/panel", "/live", "/replay", "/replay?version=2", "/audit", "/record.json", "/disputes"):
        r = client.get(f"/games/{gid}{page}")
        out.append((f"page {page or '/'}", r.status_code, r.get_data(as_text=True), False))
    return out


def assert_no_spectator(client, gid: str, final: int, seed: str, who: str) -> None:
    """Every read of the game without a token is refused: 403, saying why, naming no card and not the seed."""
    for what, status, body, is_json in spectator_reads(client, gid, final):
        assert status == 403, f"{who}: {what} answered {status}, not 403"
        assert "duplicate board still being played at another table" in body, f"{who}: {what} does not say why"
        assert seed not in body, f"{who}: {what} shows the board's seed"
        shown = cards_of_json(body) | (set() if is_json else cards_of_page(body))
        assert not shown, f"{who}: {what} shows {sorted(shown)}"


def assert_public_pages_name_no_card(client, tid: str, seed: str) -> None:
    """The catalogue and the tournament (API and page: who is to act, clocks, disputes) stay public, with no card."""
    for path in (f"{API}/games?limit=200", f"{API}/tournaments/{tid}", f"/tournaments/{tid}", "/"):
        r = client.get(path)
        body = r.get_data(as_text=True)
        assert r.status_code == 200, f"{path} answered {r.status_code}"
        assert seed not in body and not cards_of_json(body) | cards_of_page(body), f"{path} names a card"


def play_some(app, gid: str, moves: int) -> None:
    """Play `moves` moves of a stored game (or fewer, if it ends first)."""
    try:
        finish(app, gid, limit=moves)
    except AssertionError:
        pass


def assert_as_in_play(client, app, gid: str, token: str | None, viewer: Viewer, final: int, who: str) -> None:
    """The game's table (now, and replayed at its end) and its event log read as `viewer` saw them at the last move."""
    table, log = in_play(app, UUID(gid), viewer)
    h = bearer(token) if token else {}
    now = client.get(f"{API}/games/{gid}{'/view' if token else ''}", headers=h).get_json()
    assert now["table"] == table, f"{who}: the finished game's table is not the one it saw in play"
    assert client.get(f"{API}/games/{gid}/replay?version={final}", headers=h).get_json()["table"] == table, who
    entries = client.get(f"{API}/games/{gid}/events", headers=h).get_json()
    told = [e for e in entries if e["type"] not in ("seed_revealed", "move_rejected")]
    assert told == [e for e in log if e["type"] != "move_rejected"], f"{who}: the event log is not the one of play"
    assert [e["data"]["seed"] for e in entries if e["type"] == "seed_revealed"] == [None], who


def assert_shows_only(answers, allowed: set[str], seed: str, who: str) -> None:
    for what, body, is_json in answers:
        assert seed not in body, f"{who}: {what} shows the board's seed"
        shown = cards_of_json(body) | (set() if is_json else cards_of_page(body))
        assert shown <= allowed, f"{who}: {what} shows {sorted(shown - allowed)}, never seen in play"


def client_of(app, join: tuple[str, str] | None = None) -> CheckedClient:
    client = app.test_client()
    if join is not None:
        client.get(f"/join/{join[0]}/{join[1]}")
    return client


@pytest.mark.parametrize("game", DUPLICATE_GAMES)
def test_a_duplicate_boards_finished_game_shows_only_what_was_seen_in_play_until_every_table_is_over(tmp_path, game):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    app.test_client_class = CheckedClient
    arbiter = app.extensions["arbiter"]
    director = app.test_client()
    created = director.post(f"{API}/tournaments", json=two_table_formats(game)).get_json()
    tid, dtoken = created["id"], created["director_token"]
    assert director.post(f"{API}/tournaments/{tid}/rounds", headers=bearer(dtoken)).status_code == 201
    links = director.get(f"{API}/tournaments/{tid}/links", headers=bearer(dtoken)).get_json()["games"]
    table_a, table_b = (next(g for g in links if g["table"] == t) for t in (0, 1))
    ga, gb = table_a["game_id"], table_b["game_id"]

    seed = arbiter.app.game(UUID(ga)).seed
    play_some(arbiter.app, ga, 6)  # both tables play board 1.1: table A's cards are table B's deal
    anyone = client_of(app)
    seat_b = table_b["seats"][0]["token"]
    during = arbiter.app.game(UUID(ga)).version
    assert not arbiter.app.game(UUID(ga)).outcome.is_over
    assert_no_spectator(anyone, ga, during, seed, "anyone, during play")
    assert_no_spectator(client_of(app, (gb, seat_b)), ga, during, seed, "a browser holding table B's seat, during play")
    assert anyone.get(f"{API}/games/{ga}", headers=bearer(seat_b)).status_code == 403  # another game's token
    with pytest.raises(Forbidden):
        arbiter.views.subscribe(ga, None, 0, lambda entries: None)  # no spectator's stream opens
    assert_public_pages_name_no_card(anyone, tid, seed)
    for seat in table_a["seats"]:  # the game's own seats and its referee read it as before
        h = bearer(seat["token"])
        own = projection_for(game).table(arbiter.app.game(UUID(ga)).state, Viewer.of_seat(seat["seat"]), False)
        assert anyone.get(f"{API}/games/{ga}/view", headers=h).get_json()["table"] == json.loads(json.dumps(own))
        assert anyone.get(f"{API}/games/{ga}", headers=h).status_code == 200
        assert client_of(app, (ga, seat["token"])).get(f"/games/{ga}").status_code == 200
    assert anyone.get(f"{API}/games/{ga}/view", headers=bearer(table_a["referee_token"])).status_code == 200

    live_seat, live_referee = [], []
    seat_a = table_a["seats"][0]
    sub_s, _ = arbiter.views.subscribe(ga, seat_a["token"], 0, live_seat.extend)
    sub_r, _ = arbiter.views.subscribe(ga, table_a["referee_token"], 0, live_referee.extend)
    finish(arbiter.app, ga)  # table A's board 1.1 is over; table B still plays it
    deadline = time.monotonic() + 20
    while not all(any(e[1] == "seed_revealed" for e in got) for got in (live_seat, live_referee)):
        assert time.monotonic() < deadline, "the live feed did not tell the end"
        time.sleep(0.05)
    sub_s.close()
    sub_r.close()

    game_a = arbiter.app.game(UUID(ga))
    final = game_a.version
    everything = cards_of_json(json.dumps(arbiter.views.view(ga, table_a["referee_token"])))
    seat_saw = seen_in_play(arbiter.app, UUID(ga), Viewer.of_seat(seat_a["seat"]))
    live = json.dumps([e[2] for e in live_seat])
    assert seed not in live and cards_of_json(live) <= seat_saw, "the live feed showed a seat of the table the end"
    assert seed in json.dumps([e[2] for e in live_referee])

    referee_table = anyone.get(f"{API}/games/{ga}/view", headers=bearer(table_a["referee_token"])).get_json()["table"]
    seat_table = in_play(arbiter.app, UUID(ga), Viewer.of_seat(seat_a["seat"]))[0]
    assert referee_table != seat_table, "nothing was hidden at the end: no test"
    assert_no_spectator(anyone, ga, final, seed, "anyone, table A over")
    assert_no_spectator(client_of(app, (gb, seat_b)), ga, final, seed, "a browser holding table B's seat, table A over")
    for what, body, is_json in reads(client_of(app, (gb, seat_b)), ga, seat_b, final):  # its token: another game's
        assert seed not in body and not cards_of_json(body) | (set() if is_json else cards_of_page(body)), what
        assert what == "GET /games" or what.split()[-1] in ("401", "403"), f"a seat of table B: {what}"
    assert_public_pages_name_no_card(anyone, tid, seed)
    for seat in table_a["seats"]:
        saw = seen_in_play(arbiter.app, UUID(ga), Viewer.of_seat(seat["seat"]))
        assert_shows_only(reads(client_of(app, (ga, seat["token"])), ga, seat["token"], final), saw, seed,
                          f"seat {seat['seat']} of table A")
        assert_as_in_play(anyone, arbiter.app, ga, seat["token"], Viewer.of_seat(seat["seat"]), final,
                          f"seat {seat['seat']} of table A")

    referee = table_a["referee_token"]  # the director's key to the game (GET /tournaments/{id}/links)
    ruled = [anyone.get(f"{API}/games/{ga}{p}", headers=bearer(referee)) for p in ("/view", "/record", "/audit")]
    assert all(r.status_code == 200 for r in ruled)
    assert seed in ruled[1].get_data(as_text=True) and everything <= cards_of_json(ruled[0].get_data(as_text=True))
    assert seed in anyone.get(f"{API}/games/{ga}/audit/verify", headers=bearer(referee)).get_data(as_text=True)

    finish(arbiter.app, gb)  # every table of board 1.1 is over: the board is public, spectators see it whole
    public = anyone.get(f"{API}/games/{ga}").get_json()
    assert all(status == 200 for _, status, _, _ in spectator_reads(anyone, ga, final))
    stream = anyone.get(f"{API}/games/{ga}/stream?after=0").get_data(as_text=True)
    assert seed in stream  # a finished game's stream ends once drained
    assert public["seed"] == seed and everything <= cards_of_json(json.dumps(public))
    assert anyone.get(f"{API}/games/{ga}/record").status_code == 200
    assert seed in anyone.get(f"/games/{ga}/audit").get_data(as_text=True)


def test_the_director_releases_a_board_an_abandoned_table_never_finishes_and_nobody_else_can(tmp_path):
    game = DUPLICATE_GAMES[0]
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    app.test_client_class = CheckedClient
    client = app.test_client()
    created = client.post(f"{API}/tournaments", json=two_table_formats(game)).get_json()
    tid, dtoken = created["id"], created["director_token"]
    client.post(f"{API}/tournaments/{tid}/rounds", headers=bearer(dtoken))
    links = client.get(f"{API}/tournaments/{tid}/links", headers=bearer(dtoken)).get_json()["games"]
    ga = next(g for g in links if g["table"] == 0)["game_id"]
    finish(app.extensions["arbiter"].app, ga)  # table B walks away from board 1.1
    seed = app.extensions["arbiter"].app.game(UUID(ga)).seed
    final = app.extensions["arbiter"].app.game(UUID(ga)).version
    assert_no_spectator(client, ga, final, seed, "anyone, before the release")

    release = f"{API}/tournaments/{tid}/boards/1.1/release"
    assert client.post(release).status_code == 401
    seat = links[0]["seats"][0]["token"]
    assert client.post(release, headers=bearer(seat)).status_code in (401, 403)
    wrong = client.post(f"{API}/tournaments/{tid}/boards/9.9/release", headers=bearer(dtoken))
    assert wrong.status_code == 422 and wrong.get_json()["field"] == "board" and "1.1" in wrong.get_json()["detail"]
    assert client.get(f"{API}/games/{ga}").status_code == 403  # a refused release changes nothing

    page = client.get(f"/tournaments/{tid}/director/{dtoken}", follow_redirects=True).get_data(as_text=True)
    assert "/boards/1.1/release" in page
    released = client.post(release, headers=bearer(dtoken))
    assert released.status_code == 200 and released.get_json()["rounds"][0]["boards"][0]["released"] is True
    assert client.post(release, headers=bearer(dtoken)).status_code == 200  # twice: nothing more
    assert client.get(f"{API}/games/{ga}").get_json()["seed"] == seed
    assert all(status == 200 for _, status, _, _ in spectator_reads(client, ga, final))
    assert client.get(f"{API}/games/{ga}/record").status_code == 200


def test_a_spectator_subscribed_before_a_game_was_held_is_told_nothing_more_once_it_is(tmp_path):
    """A tournament records a game it creates in a save just after the game's: a spectator who subscribed in that
    moment must not go on watching the board once the hold knows it (the live feed asks Access.watchable)."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}",
                      "KEY_FILE": str(tmp_path / "key"), "CHECKPOINT_LOG": str(tmp_path / "checkpoints.log")})
    arbiter = app.extensions["arbiter"]
    game = DUPLICATE_GAMES[0]
    created = app.test_client().post(f"{API}/games", json={"game": game, "options": SPECS[game].example_options[0],
                                                          "players": PLAYERS[:2] if game == "small-battle" else PLAYERS})
    assert created.status_code == 201, created.get_data(as_text=True)
    gid, referee = created.get_json()["id"], created.get_json()["referee_token"]
    held = []
    arbiter.access.holds.append(lambda g: bool(held))  # a hold that learns of the game after the subscription
    spectator, ruled = [], []
    subs = [arbiter.views.subscribe(gid, None, 0, spectator.extend)[0],
            arbiter.views.subscribe(gid, referee, 0, ruled.extend)[0]]
    play_some(arbiter.app, gid, 1)
    deadline = time.monotonic() + 20
    while not (spectator and ruled):
        assert time.monotonic() < deadline, "the live feed did not tell the first move"
        time.sleep(0.05)
    held.append(True)
    told = len(spectator)
    finish(arbiter.app, gid)
    while not any(e[1] == "seed_revealed" for e in ruled):
        assert time.monotonic() < deadline, "the live feed did not tell the referee the end"
        time.sleep(0.05)
    time.sleep(0.3)
    for sub in subs:
        sub.close()
    assert len(spectator) == told, "a spectator of a held game was told more"
    with pytest.raises(Forbidden):
        arbiter.views.subscribe(gid, None, 0, spectator.extend)
