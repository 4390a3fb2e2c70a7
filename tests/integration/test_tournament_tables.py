"""Swiss rounds for a game of 3–4 seats (Batallion) against a real store: tables of 3–4 by score, byes where the
field does not divide, no two players meeting again where it can be avoided, seats balanced (docs/tournaments.md,
"Pairings")."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from service.facade import Arbiter

from .test_tournaments import run


@pytest.fixture
def desk(stores, tmp_path):
    arbiter = Arbiter(stores.url("sqlite"), str(tmp_path / "key"), str(tmp_path / "checkpoints.log"))
    stores._apps.append(arbiter.app)
    return arbiter.tournaments


def test_a_batallion_swiss_of_seven_plays_tables_of_four_and_three_without_a_rematch_it_could_avoid(desk):
    _, _, view = run(desk, {"name": "BA", "game": "batallion", "format": "swiss", "games_per_table": 1,
                            "players": [f"P{i}" for i in range(7)], "rounds": 2})
    assert view["status"] == "finished" and len(view["rounds"]) == 2
    met = set()
    for r in view["rounds"]:
        sizes = [len(t["players"]) for t in r["tables"]]
        assert sizes == [4, 3] and r["byes"] == [] and r["pairing"] == "swiss"
        pairs = {frozenset(p) for t in r["tables"] for p in itertools.combinations([x["player"] for x in t["players"]], 2)}
        if r["number"] == 2:  # 7 players, round 1's tables of 4 and 3: round 2 cannot avoid every rematch ...
            assert len(pairs & met) == 3, "... but meets the fewest again: one of each pair of round 1's table of 3"
        met |= pairs
    assert sum(row["played"] for row in view["standings"]["players"]) == 14


def test_a_batallion_swiss_of_five_gives_one_bye_a_round_to_a_different_player(desk):
    _, _, view = run(desk, {"name": "BA", "game": "batallion", "format": "swiss", "games_per_table": 1,
                            "players": [f"P{i}" for i in range(5)], "rounds": 3})
    byes = [r["byes"] for r in view["rounds"]]
    assert all(len(b) == 1 for b in byes) and len({b[0] for b in byes}) == 3
    rows = {row["name"]: row for row in view["standings"]["players"]}
    assert sum(row["byes"] for row in rows.values()) == 3


def test_seats_at_a_batallion_swiss_are_balanced_round_by_round(desk):
    _, _, view = run(desk, {"name": "BA", "game": "batallion", "format": "swiss", "games_per_table": 1,
                            "players": [f"P{i}" for i in range(8)], "rounds": 4})
    seats: dict[str, list[int]] = {}
    for r in view["rounds"]:
        for t in r["tables"]:
            for seat, p in enumerate(t["players"]):
                seats.setdefault(p["name"], []).append(seat)
    for name, history in seats.items():
        assert history[1] != history[0], f"{name} sat in the same seat in round 2 as in round 1"
        assert max(Counter(history).values()) <= 2, (name, history)  # 4 rounds at 4 seats: nobody 3 times in one
