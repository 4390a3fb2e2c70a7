"""bench.fairplay_pairs (issue 37 part 3): the pair screen measured as the report's screen runs it, by the game's
glance where it has one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bench.fairplay_pairs import run


def test_the_pair_bench_judges_by_the_games_glance_as_the_report_does_and_says_so():
    with ThreadPoolExecutor(1) as pool:
        out = run("el-royale", {"honest": 1}, 1, 0, pool, "pairs-test", 2, 1)
        rolled = run("el-royale", {"honest": 1}, 1, 0, pool, "pairs-test", 2, 1, glance=False)
    assert out["glance"] is True and rolled["glance"] is False
    assert out["honest"]["pairs"] == 1 and out["decisions_per_pair_game"] > 0
    assert out["decisions_per_pair_game"] == rolled["decisions_per_pair_game"]  # the same game, the same decisions
    assert out["p_values"] != rolled["p_values"]  # judged another way
