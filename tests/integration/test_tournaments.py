"""Tournaments against a real store: rotation between games (ER-2.4, BA-5.2), duplicate boards, standings rebuilt
from scratch, the bundle verified by `arbiter replay`, access and leaks."""

from __future__ import annotations

import json
from uuid import UUID

import pytest
from click.testing import CliRunner

from service.adapters.standings_store import Standings, fold_all
from service.errors import BadInput, Conflict, Forbidden, Unauthorized
from service.facade import Arbiter
from service.tournaments.facade import Tournaments
from tests.tournament_support import _bot_move, finish
from service.play.commands import PlayMove
from service.tournaments.commands import CreateTournament


@pytest.fixture(params=["sqlite"])
def desk(stores, tmp_path, request):
    arbiter = Arbiter(stores.url(request.param), str(tmp_path / "key"), str(tmp_path / "checkpoints.log"))
    stores._apps.append(arbiter.app)
    return arbiter.tournaments


def run(desk: Tournaments, spec: dict, watch=None) -> tuple[str, str, dict]:
    """Create a tournament and play it to the end (bots play every game), starting each round when allowed."""
    created = desk.create(CreateTournament.from_body(spec))
    tid, token = created["id"], created["director_token"]
    for _ in range(200):
        view = desk.view(tid)
        if view["status"] == "finished":
            return tid, token, view
        if view["can_start_round"]:
            desk.start_round(tid, token)
            continue
        for r in view["rounds"]:
            for table in r["tables"]:
                for g in table["games"]:
                    if g["status"] != "finished":
                        if watch is not None:
                            watch(view)
                        finish(desk.app, g["game_id"])
    raise AssertionError("the tournament did not end")


def stored_games(desk: Tournaments, tid: str) -> list[str]:
    """The tournament's games as its stored events have them (no read through the tournament's views, which advance)."""
    return [g["game_id"] for g in desk._load(UUID(tid)).games()]


def games_of(view: dict) -> list[dict]:
    return [{**g, "seats": t["players"]} for r in view["rounds"] for t in r["tables"] for g in t["games"]]


def test_el_royale_match_each_next_dealer_is_a_loser_with_most_cards_and_the_winner_starts(desk):
    tid, _, view = run(desk, {"name": "ER", "game": "el-royale", "options": {"battle_limit": 150},
                              "players": ["N", "E", "S", "W"], "format": "match", "games_per_table": 4})
    games = games_of(view)
    assert len(games) == 4 and games[0]["clause"] == "ER-2.4" and games[0]["dealer"] is None
    several = 0
    for before, after in zip(games, games[1:]):
        prev = desk.app.game(UUID(before["game_id"]))
        nxt = desk.app.game(UUID(after["game_id"]))
        assert after["clause"] == "ER-2.4"
        assert (nxt.setup.dealer, nxt.setup.starter) == (after["dealer"], after["starter"])  # what the game was given
        if prev.outcome.result not in ("win", "elimination"):
            assert (after["dealer"], after["starter"]) == (None, None)
            continue
        winner = prev.state.last_player if prev.outcome.result == "win" else prev.outcome.seats[0]
        cards = {s: bin(prev.state.hands[s]).count("1") for s in range(4) if s != winner}
        most = max(cards.values())
        expected = min((s for s in cards if cards[s] == most), key=lambda s: (s - winner) % 4)
        assert (after["dealer"], after["starter"]) == (expected, winner)
        several += 1
    assert several >= 1, "no game of the match ended with a winner and several losers"


def test_batallion_tournament_every_player_deals_once_and_chip_totals_add_up(desk):
    tid, _, view = run(desk, {"name": "BA", "game": "batallion", "options": {"variants": []},
                              "players": ["Ann", "Bob", "Cy", "Di"], "format": "match"})
    games = games_of(view)
    assert len(games) == 4  # BA-5.2: one game per player as dealer
    dealers = [desk.app.game(UUID(g["game_id"])).state.dealer for g in games]
    assert sorted(dealers) == [0, 1, 2, 3]
    assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:])), "the deal rotates left"
    assert [g["clause"] for g in games] == ["BA-5.2"] * 4
    totals = [sum(desk.app.game(UUID(g["game_id"])).outcome.scores[seat] for g in games) for seat in range(4)]
    rows = view["standings"]["players"]
    assert view["standings"]["rank_by"] == "score"
    assert {r["name"]: r["score"] for r in rows} == dict(zip(["Ann", "Bob", "Cy", "Di"], totals))
    assert rows[0]["score"] == max(totals)


@pytest.mark.parametrize("game", ["el-royale", "small-battle"])
def test_duplicate_boards_deal_identical_cards_at_every_table_under_one_commitment(desk, game):
    seen_hidden = []

    def watch(view):  # while a board is being played somewhere, its seed is not shown
        for r in view["rounds"]:
            for b in r["boards"] or []:
                tables = [g for t in r["tables"] for g in t["games"] if g["board"] == b["board"]]
                if any(g["status"] != "finished" for g in tables):
                    seen_hidden.append(b["seed"] is None)

    tid, _, view = run(desk, {"name": "D", "game": game, "players": ["A", "B", "C", "D"], "format": "round-robin",
                              "duplicate": True, "games_per_table": 2 if game == "small-battle" else 1}, watch)
    assert seen_hidden and all(seen_hidden)
    for r in view["rounds"]:
        assert len(r["tables"]) == 2
        for b in r["boards"]:
            games = [desk.app.game(UUID(g["game_id"])) for t in r["tables"] for g in t["games"] if g["board"] == b["board"]]
            assert len(games) == 2
            assert {x.commitment for x in games} == {b["commitment"]}
            openings = [desk.app.stored_events(x.id)[1].data for x in games]  # the deal (or high-card draw and pile)
            assert openings[0] == openings[1]
            assert b["seed"] is not None  # shown once every table of the board is over
    assert view["standings"]["rank_by"] == "matchpoints"


@pytest.mark.parametrize("desk", ["sqlite", "postgres", "memory"], indirect=True)
def test_standings_rebuilt_from_scratch_equal_the_live_ones(desk):
    tid, _, view = run(desk, {"name": "S", "game": "small-battle", "players": ["A", "B", "C", "D", "E"],
                              "format": "swiss", "rounds": 3})
    live = Standings.for_app(desk.app)
    live.catch_up()
    rebuilt = Standings.for_app(desk.app, table="tournament_standings_rebuilt")
    assert rebuilt.position() == 0
    rebuilt.catch_up()
    assert rebuilt.get(tid) == live.get(tid) == fold_all(desk.app)[f"t:{tid}"]
    assert sum(r["byes"] for r in view["standings"]["players"]) == 3  # five players: one bye a round
    assert all(r["played"] + r["byes"] == 3 for r in view["standings"]["players"])


def test_the_bundle_verifies_in_one_replay_and_a_changed_result_is_caught(desk, tmp_path):
    from api.cli.main import main

    tid, token, _ = run(desk, {"name": "B", "game": "small-battle", "players": ["A", "B", "C"], "format": "round-robin"})
    path = tmp_path / "t.jsonl"
    path.write_text("".join(desk.bundle(tid)))
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    lines = [json.loads(x) for x in result.output.splitlines()]
    assert result.exit_code == 0, result.output
    assert lines[-1]["status"] == "finished" and lines[-1]["tournament"] == tid and len(lines) == 4

    header, *records = path.read_text().splitlines()
    doc = json.loads(header)
    game = doc["rounds"][0]["tables"][0]["games"][0]
    game["winner"] = {"seats": [1 - game["winner"]["seats"][0]], "team": None}
    path.write_text("\n".join([json.dumps(doc), *records]) + "\n")
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert "the header says" in json.loads(result.output.splitlines()[-1])["error"] or "differ" in result.output


def test_director_only_commands_and_clear_refusals(desk):
    created = desk.create(CreateTournament.from_body({"name": "X", "game": "small-battle", "players": ["A", "B"], "format": "round-robin"}))
    other = desk.create(CreateTournament.from_body({"name": "Y", "game": "small-battle", "players": ["A", "B"], "format": "round-robin"}))
    tid, token = created["id"], created["director_token"]
    with pytest.raises(Unauthorized):
        desk.start_round(tid, None)
    with pytest.raises(Forbidden):
        desk.start_round(tid, other["director_token"])
    with pytest.raises(Unauthorized):
        desk.links(tid, token.split(".")[0] + ".nope")
    with pytest.raises(BadInput) as e:
        desk.enter(tid, token, {"name": "A"})
    assert e.value.field == "player.name"
    with pytest.raises(BadInput) as e:
        desk.create(CreateTournament.from_body({"name": "Z", "game": "batallion", "players": ["A", "B"], "format": "round-robin", "rounds": 0}))
    assert e.value.field == "rounds"
    with pytest.raises(BadInput) as e:  # a round-robin plays pairs: refused at creation, with the reason
        desk.create(CreateTournament.from_body({"name": "W", "game": "batallion", "players": ["A", "B"], "format": "round-robin"}))
    assert e.value.field == "format" and "swiss" in e.value.detail
    bad = desk.create(CreateTournament.from_body({"name": "W", "game": "batallion", "players": ["A", "B"], "format": "swiss"}))
    with pytest.raises(BadInput) as e:  # Batallion is never played by two
        desk.start_round(bad["id"], bad["director_token"])
    assert e.value.field == "players" and "3" in e.value.detail
    assert desk.view(bad["id"])["rounds"] == []  # nothing changed
    desk.start_round(tid, token)
    with pytest.raises(Conflict):
        desk.enter(tid, token, {"name": "C"})
    with pytest.raises(Conflict):
        desk.start_round(tid, token)  # round 1 is still being played


def test_the_public_tournament_view_shows_no_token_and_no_seed_of_a_game_in_progress(desk):
    created = desk.create(CreateTournament.from_body({"name": "L", "game": "el-royale", "players": ["A", "B", "C", "D"], "format": "round-robin",
                           "duplicate": True}))
    tid, token = created["id"], created["director_token"]
    desk.start_round(tid, token)
    links = desk.links(tid, token)
    secrets = [token.split(".")[1]] + [g["referee_token"] for g in links["games"]] + \
              [s["token"] for g in links["games"] for s in g["seats"]]
    t = desk.app.repository.get(UUID(tid))
    secrets += [s for seeds in t.board_seeds.values() for s in seeds]
    text = json.dumps(desk.view(tid)) + json.dumps(desk.standings(tid)) + json.dumps(desk.list())
    for secret in secrets:
        assert secret.split(".")[-1] not in text
    with pytest.raises(Forbidden):
        list(desk.bundle(tid))  # nobody's but the director's while it runs


def test_the_move_that_ends_a_game_creates_the_tables_next_game_at_once_without_anyone_reading(desk):
    """A match of two Small Battle games: the seat's last move of game 1, through the facade, leaves game 2 stored
    with the dealer and starter its rules give, before any page, API call or standings read of the tournament."""
    import random

    created = desk.create(CreateTournament.from_body({"name": "SB", "game": "small-battle", "options": {}, "players": ["Ann", "Bob"],
                           "format": "match", "games_per_table": 2}))
    tid, token = created["id"], created["director_token"]
    desk.start_round(tid, token)
    first = stored_games(desk, tid)
    assert len(first) == 1
    seats = {s["seat"]: s["token"] for s in desk.links(tid, token)["games"][0]["seats"]}
    gid, rng, bots = UUID(first[0]), random.Random(3), {}
    while True:
        game = desk.app.game(gid)
        raw = _bot_move(game.game, game.decider, game.state, bots, dict(game.options), game.players, rng)
        seat = raw.pop("seat")
        answer = desk.play.move(seats[seat], PlayMove.from_body(str(gid), raw))
        if any(e["type"] == "seed_revealed" for e in answer["events"]):
            break
        assert stored_games(desk, tid) == first, "the next game was created before this one ended"
    after = stored_games(desk, tid)
    assert len(after) == 2 and after[0] == first[0]
    assert desk.app.game(UUID(after[1])).outcome.is_over is False


def test_with_auto_rounds_the_end_of_a_rounds_last_game_starts_the_next_round_and_without_it_the_round_reads_over(desk):
    """Round-robin of three (one table and a bye a round): with `auto_rounds` the round after starts itself when
    the round's only game ends; without it the view says the round is over (not still being played) and offers
    the next round to the director."""
    spec = {"name": "RR", "game": "small-battle", "options": {}, "players": ["Ann", "Bob", "Cy"],
            "format": "round-robin"}
    auto = desk.create(CreateTournament.from_body(spec | {"auto_rounds": True}))
    desk.start_round(auto["id"], auto["director_token"])
    finish(desk.app, stored_games(desk, auto["id"])[0])
    view = desk.view(auto["id"])
    assert len(view["rounds"]) == 2 and view["between_rounds"] is False and view["can_start_round"] is False
    assert [g["status"] for t in view["rounds"][1]["tables"] for g in t["games"]] == ["in_progress"]

    manual = desk.create(CreateTournament.from_body(spec))
    desk.start_round(manual["id"], manual["director_token"])
    assert desk.view(manual["id"])["between_rounds"] is False
    finish(desk.app, stored_games(desk, manual["id"])[0])
    view = desk.view(manual["id"])
    assert len(view["rounds"]) == 1 and view["between_rounds"] is True and view["can_start_round"] is True


def test_the_crosstable_gives_each_pair_one_result_from_each_side_in_standings_order(desk):
    tid, _, view = run(desk, {"name": "RR", "game": "small-battle", "options": {}, "players": ["A", "B", "C", "D"],
                              "format": "round-robin"})
    rows = view["crosstable"]
    assert [r["name"] for r in rows] == [r["name"] for r in view["standings"]["players"]]
    opposite = {"1": "0", "0": "1", "½": "½"}
    for i, row in enumerate(rows):
        assert row["cells"][i] is None
        for j, marks in enumerate(row["cells"]):
            if j != i:
                assert len(marks) == 1 and rows[j]["cells"][i] == [opposite[marks[0]]]
        wins = sum(1 for m in row["cells"] if m == ["1"]) + sum(0.5 for m in row["cells"] if m == ["½"])
        assert wins == next(r["points"] for r in view["standings"]["players"] if r["name"] == row["name"])
