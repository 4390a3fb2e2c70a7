"""Numbers in words (domain/wording.py), as the fair-play report prints them: "53rd" never "53th", "once" never
"1 times"."""

from __future__ import annotations

import pytest

from domain.wording import count, one_in, ordinal, times


@pytest.mark.parametrize("n, said", [
    (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"), (13, "13th"),
    (21, "21st"), (22, "22nd"), (23, "23rd"), (50, "50th"), (53, "53rd"), (100, "100th"), (101, "101st"),
    (111, "111th"), (112, "112th"), (113, "113th"), (121, "121st"), (0, "0th"),
])
def test_an_ordinal_takes_st_nd_rd_after_1_2_3_except_in_the_teens(n, said):
    assert ordinal(n) == said


@pytest.mark.parametrize("n, said", [(0, "0 times"), (1, "once"), (2, "twice"), (3, "3 times"), (21, "21 times")])
def test_a_count_of_times_says_once_and_twice_in_words(n, said):
    assert times(n) == said


def test_a_counted_noun_is_singular_for_one_only():
    assert [count(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert count(1, "decision") == "1 decision" and count(3, "body", "bodies") == "3 bodies"


def test_a_threshold_that_is_one_over_a_whole_number_is_said_as_odds():
    assert one_in(1e-3) == "1 in 1,000" and one_in(1e-6) == "1 in 1,000,000" and one_in(0.5) == "1 in 2"
    assert one_in(0.0025) == "1 in 400" and one_in(0.003) == "0.003" and one_in(0.3) == "0.3"
