"""Pairings: the circle method's round-robin, Swiss rounds (hypothesis) and the seat rotation of team play."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings, strategies as st

from domain.tournament import pairing


@given(st.integers(min_value=2, max_value=24))
def test_round_robin_everyone_meets_everyone_exactly_once_and_plays_at_most_once_a_round(n):
    rounds = pairing.round_robin(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    for r in rounds:
        seen = [p for pair in r for p in pair if p is not None]
        assert len(seen) == len(set(seen)) == n  # everyone once a round (a bye included)
        assert sum(1 for a, b in r if b is None) == n % 2
        for a, b in r:
            if b is not None:
                met[frozenset((a, b))] += 1
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
    assert set(met.values()) == {1}


def _rematch_free_exists(players, met):
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(frozenset((first, o)) not in met and _rematch_free_exists([p for p in rest if p != o], met) for o in rest)


@st.composite
def swiss_case(draw):
    n = draw(st.integers(min_value=2, max_value=9))
    order = draw(st.permutations(list(range(n))))
    all_pairs = list(itertools.combinations(range(n), 2))
    met = draw(st.lists(st.sampled_from(all_pairs), max_size=12, unique=True))
    had_bye = draw(st.lists(st.integers(min_value=0, max_value=n - 1), unique=True, max_size=n))
    return list(order), met, had_bye


@settings(max_examples=300, deadline=None)
@given(swiss_case())
def test_swiss_pairs_everyone_once_gives_one_bye_to_an_odd_field_and_avoids_rematches_where_it_can(case):
    order, met, had_bye = case
    pairs, bye = pairing.swiss(order, met, had_bye)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated))
    assert sorted(seated + ([bye] if bye is not None else [])) == sorted(order)
    assert (bye is not None) == (len(order) % 2 == 1)
    if bye is not None:
        without = [p for p in order if p not in had_bye]
        if without:
            assert bye == without[-1], "the bye goes to the lowest-placed player who has not had one"
    met_set = {frozenset(p) for p in met}
    rest = [p for p in order if p != bye]
    if _rematch_free_exists(rest, met_set):
        assert not any(frozenset(p) in met_set for p in pairs), "a rematch although a pairing without one exists"


def test_swiss_pairs_neighbours_in_the_order_when_nobody_has_met():
    pairs, bye = pairing.swiss([3, 1, 0, 2], [], [])
    assert pairs == [(3, 1), (0, 2)] and bye is None


def test_swiss_accepts_rematches_only_when_every_pairing_has_one():
    pairs, _ = pairing.swiss([0, 1], [(0, 1)], [])
    assert pairs == [(0, 1)]


def test_team_rotation_interleaves_the_teams_and_gives_new_neighbours_each_round():
    teams = [[0, 1, 2], [3, 4, 5]]
    seatings = [pairing.team_round(teams, (0, 1), r) for r in range(3)]
    for seats in seatings:
        assert sorted(seats) == list(range(6))
        team = {p: 0 if p < 3 else 1 for p in range(6)}
        assert all(team[seats[i]] != team[seats[(i + 1) % 6]] for i in range(6)), "partners side by side"
    lefts = [{seats[i]: seats[(i + 1) % 6] for i in range(6)} for seats in seatings]
    for p in (0, 1, 2):
        assert len({left[p] for left in lefts}) == 3, "a player kept a left neighbour"
