"""The fair-play report can tell a cheat from an honest player (issue 27 part 4, docs/fairplay.md): over Small Battle
games from fixed seeds, the test-only bot that peeks at the enemy formation (tests/fairplay_support.py) is flagged
and the honest heuristic bot is not. The numbers are kept small (60 + 10 games, a cheap precision: about 30 s on
one core); the full validation (200 peeking games, 1,000 honest games) is bench/fairplay.py."""

from __future__ import annotations

import pytest

from domain.fairplay import report
from domain.records import parse
from service.fairplay.facade import GameInput, Settings, judge_all
from tests.fairplay_support import play

SETTINGS = Settings(own_samples=4, perfect_samples=2, worlds=6, seed="validation")


def screened(kind: str, games: int, peek_rate: float | None) -> list[dict]:
    inputs = [GameInput(f"{kind}-{i}", parse(play(f"unit-fairplay|{kind}|{i}", (kind, "opponent"), peek_rate)),
                        [kind, "opponent"]) for i in range(games)]
    return judge_all(inputs, SETTINGS, workers=1, only={kind})[kind]


@pytest.mark.slow
def test_the_peeking_bot_is_flagged_and_the_honest_bot_is_not():
    lines = {x["player"]: x for x in report({"peeking": screened("peeking", 60, 1.0),
                                             "honest": screened("honest", 10, None)})}
    cheat, fair = lines["peeking"], lines["honest"]
    assert cheat["flagged"], cheat["reason"]
    assert not fair["flagged"], fair["reason"]
    assert cheat["decisions"] > 400 and fair["decisions"] > 60
    assert cheat["rank_mean"] > fair["rank_mean"]
