"""Standings: points, byes, Buchholz, head-to-head, score totals (BA-5.2) and duplicate matchpoints."""

from __future__ import annotations

from domain.tournament.standings import standings

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
