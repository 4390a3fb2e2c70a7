"""Standings: points, byes, Buchholz, head-to-head, score totals (BA-5.2) and duplicate matchpoints."""

from __future__ import annotations

import random

import pytest

from domain.tournament.standings import KEY_NAMES, ORDER, RANKINGS, standings

P = [{"name": n} for n in "ABCD"]


def g(players, winner=None, scores=None, board=None, result="win"):
    return {"players": list(players), "status": "finished", "result": result if winner is not None else "draw",
            "winner": None if winner is None else {"seats": [winner], "team": None}, "scores": scores, "board": board}


def test_points_count_wins_draws_and_byes_and_games_in_progress_count_for_nothing():
    games = [g((0, 1), 0), g((2, 3)), {**g((0, 2), 1), "status": "in_progress"}]
    rows = {r["name"]: r for r in standings(P, games, byes=[(2, 3)])["players"]}
    assert (rows["A"]["played"], rows["A"]["won"], rows["A"]["points"]) == (1, 1, 1)
    assert (rows["B"]["lost"], rows["B"]["points"]) == (1, 0)
    assert (rows["C"]["drawn"], rows["C"]["points"]) == (1, 0.5)
    assert (rows["D"]["played"], rows["D"]["byes"], rows["D"]["points"]) == (1, 1, 1.5)


def test_buchholz_breaks_a_tie_on_points_before_head_to_head():
    # A and C both win once; A beat B (who then beat D), C beat D (who lost again): A's opponents scored more
    games = [g((0, 1), 0), g((2, 3), 0), g((1, 3), 0)]
    order = [r["name"] for r in standings(P, games)["players"]]
    assert order.index("A") < order.index("C")


def test_head_to_head_breaks_a_tie_that_buchholz_leaves():
    # A and B each beat the other once... then A beats B a third time: equal Buchholz is impossible to avoid here,
    # so build a pure two-player case: A beat B, B beat A, A beat B gives A 2, B 1 (points decide); with a draw added
    games = [g((0, 1), 0), g((0, 1), 1)]
    rows = standings(P[:2], games)["players"]
    assert rows[0]["rank"] == rows[1]["rank"] == 1  # equal on everything: a shared rank
    games.append(g((0, 1), 0))
    assert standings(P[:2], games)["players"][0]["name"] == "A"


def test_rank_by_score_puts_the_chip_total_first_as_BA_5_2_says():
    games = [g((0, 1, 2), 0, scores=[12, 9, 0]), g((0, 1, 2), 1, scores=[0, 5, 1]), g((0, 1, 2), 2, scores=[1, 20, 3])]
    rows = standings(P[:3], games, rank_by="score")["players"]
    assert [r["name"] for r in rows] == ["B", "A", "C"]
    assert [r["score"] for r in rows] == [34, 13, 4]


def test_duplicate_matchpoints_compare_each_seat_with_the_same_seat_at_other_tables():
    # one board at three tables: seat 0 won at tables 1 and 2, lost at table 3
    games = [g((0, 1), 0, board="1.1"), g((2, 3), 0, board="1.1"), g((4, 5), 1, board="1.1")]
    players = [{"name": str(i)} for i in range(6)]
    mp = {r["name"]: r["matchpoints"] for r in standings(players, games, rank_by="matchpoints")["players"]}
    assert mp == {"0": 3, "2": 3, "4": 0, "1": 1, "3": 1, "5": 4}


def test_team_rows_count_a_game_once_per_team():
    players = [{"name": "A", "team": "N"}, {"name": "B", "team": "E"}, {"name": "C", "team": "N"}, {"name": "D", "team": "E"}]
    games = [{"players": [0, 1, 2, 3], "status": "finished", "result": "win", "winner": {"seats": [0, 2], "team": "N"},
              "scores": None}]
    teams = {r["team"]: r for r in standings(players, games)["teams"]}
    assert (teams["N"]["played"], teams["N"]["won"], teams["E"]["lost"]) == (1, 1, 1)
    assert teams["N"]["rank"] == 1


def _random_games(rng, n, rounds, boards=False, scores=False):
    games = []
    for r in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        for t in range(0, n - 1, 2):
            pair = (order[t], order[t + 1])
            winner = rng.choice([0, 1, None])
            games.append(g(pair, winner, scores=[rng.randrange(10), rng.randrange(10)] if scores else None,
                           board=f"{r + 1}.1" if boards else None))
    return games


@pytest.mark.parametrize("rank_by", RANKINGS)
def test_rows_are_in_the_order_the_legend_names_and_the_legend_names_every_key_sorted_by(rank_by):
    """One list (ORDER) drives both: every pair of neighbouring rows compares as the legend reads, key by key."""
    rng = random.Random(rank_by)
    players = [{"name": f"P{i}"} for i in range(8)]
    for _ in range(40):
        doc = standings(players, _random_games(rng, 8, 3, boards=rank_by == "matchpoints", scores=rank_by == "score"),
                        rank_by=rank_by)
        named = doc["legend"].removeprefix("ranked by ").replace("; tie-breaks:", ",").split(", ")
        assert named == [KEY_NAMES[k] for k in doc["order"]] and doc["order"] == list(ORDER[rank_by])
        rows = doc["players"]
        for a, b in zip(rows, rows[1:]):
            assert [a[k] or 0 for k in doc["order"]] >= [b[k] or 0 for k in doc["order"]], (a, b)
            assert (a["rank"] == b["rank"]) == ([a[k] or 0 for k in doc["order"]] == [b[k] or 0 for k in doc["order"]])


def test_at_equal_matchpoints_points_decide_before_buchholz_and_the_legend_says_so():
    """The room's report: Nia (Buchholz 4) above Otto (Buchholz 5) at equal matchpoints, because Nia has more points;
    the legend must name points before Buchholz."""
    players = [{"name": n} for n in ("Nia", "Otto", "A", "B", "C", "D")]
    games = [g((5, 2), 1, board="1.1"), g((3, 0), board="1.1"), g((1, 4), 1, board="1.1"),
             g((5, 0), 1, board="2.1"), g((1, 3), board="2.1"), g((2, 4), board="2.1")]
    doc = standings(players, games, rank_by="matchpoints")
    rows = {r["name"]: r for r in doc["players"]}
    assert rows["Nia"]["matchpoints"] == rows["Otto"]["matchpoints"]
    assert rows["Nia"]["points"] > rows["Otto"]["points"] and rows["Nia"]["buchholz"] < rows["Otto"]["buchholz"]
    names = [r["name"] for r in doc["players"]]
    assert names.index("Nia") < names.index("Otto")
    assert doc["legend"] == "ranked by matchpoints; tie-breaks: points, Buchholz, head-to-head, score"


def test_a_provisional_result_counts_as_recorded_and_is_named_on_the_rows_and_the_document():
    games = [{**g((0, 1), 0), "round": 1, "table": 0, "game_id": "x", "provisional": True}, g((2, 3), 2)]
    doc = standings(P, games)
    rows = {r["name"]: r for r in doc["players"]}
    assert rows["A"]["points"] == 1 and rows["A"]["provisional"] == [1] and rows["B"]["provisional"] == [1]
    assert rows["C"]["provisional"] == []
    assert doc["provisional"] == [{"round": 1, "table": 0, "game_id": "x", "players": ["A", "B"]}]
def test_the_legend_names_every_key_in_the_order_the_ranking_applies_it():
    """Issue 35: "matchpoints; tie-breaks: Buchholz, …" while points broke the tie first (Nia, Buchholz 4, above
    Otto, Buchholz 5, at equal matchpoints): the order is the ranking's own, and the rows follow it."""
    from domain.tournament.standings import order_of

    assert order_of("points") == ["points", "buchholz", "head_to_head", "score"]
    assert order_of("matchpoints") == ["matchpoints", "points", "buchholz", "head_to_head", "score"]
    assert order_of("score") == ["score", "points", "buchholz", "head_to_head"]
    for rank_by in ("points", "score", "matchpoints"):
        games = [g((0, 1), 0, scores=[3, 1]), g((2, 3), 1, scores=[0, 2]), g((0, 2), 0, scores=[2, 2]), g((1, 3), scores=[1, 1])]
        table = standings(P, games, rank_by=rank_by)
        assert table["order"] == order_of(rank_by)
        keys = [tuple(-(r[k] or 0) for k in table["order"] if k != "head_to_head") for r in table["players"]]
        firsts = [k[:len(table["order"]) - 2] for k in keys]  # the keys before head-to-head: sorted
        assert firsts == sorted(firsts), (rank_by, table["players"])
