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


@given(st.integers(min_value=0, max_value=64), st.sampled_from([(3, 4), (5, 6), (3, 3), (4, 4)]))
def test_table_sizes_seat_everyone_who_can_be_seated_at_tables_the_game_allows_largest_first(n, seats):
    low, high = seats
    sizes = pairing.table_sizes(n, low, high)
    assert all(low <= s <= high for s in sizes) and sizes == sorted(sizes, reverse=True)
    assert not sizes or max(sizes) - min(sizes) <= 1, "sizes as even as possible"
    seated = sum(sizes)
    assert seated <= n
    # no larger number of players could have been seated at tables of low..high
    assert not any(k * low <= m <= k * high for m in range(seated + 1, n + 1) for k in range(1, m // low + 1))


def test_table_sizes_of_batallion_fields():
    assert pairing.table_sizes(2, 3, 4) == []
    assert pairing.table_sizes(5, 3, 4) == [4]  # one bye
    assert pairing.table_sizes(6, 3, 4) == [3, 3]
    assert pairing.table_sizes(10, 3, 4) == [4, 3, 3]
    assert pairing.table_sizes(40, 3, 4) == [4] * 10


def _table_split_without_rematch(players, sizes, met):
    """Whether `players` can be split into tables of `sizes` with no two of a table having met (exhaustive)."""
    if not sizes:
        return True
    head, others = players[0], players[1:]
    for mates in itertools.combinations(others, sizes[0] - 1):
        table = (head, *mates)
        if any(frozenset(p) in met for p in itertools.combinations(table, 2)):
            continue
        if _table_split_without_rematch([p for p in others if p not in mates], sizes[1:], met):
            return True
    return False


@st.composite
def table_case(draw):
    n = draw(st.integers(min_value=3, max_value=11))
    order = draw(st.permutations(list(range(n))))
    earlier = draw(st.lists(st.lists(st.integers(0, n - 1), min_size=2, max_size=4, unique=True), max_size=8))
    had_bye = draw(st.lists(st.integers(min_value=0, max_value=n - 1), max_size=n))
    return list(order), earlier, had_bye


@settings(max_examples=300, deadline=None)
@given(table_case())
def test_swiss_tables_seat_everyone_once_and_avoid_every_rematch_where_a_round_without_one_exists(case):
    order, earlier, had_bye = case
    sizes = pairing.table_sizes(len(order), 3, 4)
    tables, byes = pairing.swiss_tables(order, earlier, had_bye, sizes)
    assert sorted(len(t) for t in tables) == sorted(sizes)
    heads = [order.index(t[0]) for t in tables]
    assert heads == sorted(heads) and all(order.index(p) >= heads[i] for i, t in enumerate(tables) for p in
                                          (q for later in tables[i:] for q in later)), \
        "each table is headed by the best-placed player of it and the tables after it"
    seated = [p for t in tables for p in t]
    assert sorted(seated + byes) == sorted(order) and len(set(seated + byes)) == len(order)
    assert all(t == sorted(t, key=order.index) for t in tables), "a table lists its players best first"
    counts = Counter(had_bye)
    for b in byes:  # nobody seated has had fewer byes than one sitting out, nor as many while placed lower
        for p in seated:
            assert (counts[b], -order.index(b)) <= (counts[p], -order.index(p))
    met = {frozenset(p) for g in earlier for p in itertools.combinations(g, 2)}
    rest = [p for p in order if p not in byes]
    if _table_split_without_rematch(rest, sizes, met):
        assert not any(frozenset(p) in met for t in tables for p in itertools.combinations(t, 2)), \
            "a rematch although a round without one exists"


def test_swiss_tables_fill_down_the_order_when_nobody_has_met():
    tables, byes = pairing.swiss_tables([7, 3, 1, 0, 2, 6, 5, 4, 8, 9], [], [], [4, 3, 3])
    assert tables == [[7, 3, 1, 0], [2, 6, 5], [4, 8, 9]] and byes == []


def test_swiss_tables_give_the_bye_to_the_lowest_placed_player_with_the_fewest_byes():
    tables, byes = pairing.swiss_tables([0, 1, 2, 3, 4], [], [4], [4])
    assert byes == [3] and tables == [[0, 1, 2, 4]]


@given(st.lists(st.integers(0, 9), min_size=2, max_size=4, unique=True),
       st.dictionaries(st.integers(0, 9), st.dictionaries(st.integers(0, 3), st.integers(0, 5))))
def test_balanced_seats_send_nobody_to_a_seat_more_often_than_needed_then_fewest_repeats_in_all(table, history):
    counts = {p: Counter(h) for p, h in history.items()}
    seating = pairing.balanced_seats(table, counts)
    assert sorted(seating) == sorted(table)

    def cost(s):
        sat = [counts.get(p, Counter())[i] for i, p in enumerate(s)]
        return max(sat), sum(sat)

    assert cost(seating) == min(cost(s) for s in itertools.permutations(table))
    if all(cost(s) == cost(table) for s in itertools.permutations(table)):
        assert seating == table, "on a tie, the table's order (best first in seat 0)"
