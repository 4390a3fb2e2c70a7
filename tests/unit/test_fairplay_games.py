"""The fair-play report works for every registered game (issue 37): each game's rollout player is called the one way
generic code calls it (domain.analysis.play_on, with the keywords its spec declares), and the report runs end to end,
through service.fairplay.stages' `screen` (the CLI's and the desk's road), both stages, on a short game of each. The Four Virtues, whose
playout needs `before=`, failed here before with "playout() missing 1 required positional argument: 'before'"."""

from __future__ import annotations

import random

import pytest

from domain.autoplay import random_game
from domain.fairplay import perfect_information_decision, true_states, world_rank
from domain.games import GAMES, spec_for
from domain.records import parse
from projections.knowledge import seat_knowledge
from service.fairplay.facade import GameInput, Settings
from service.fairplay.stages import screen

FEW = Settings(own_samples=2, perfect_samples=1, worlds=2, seed="unit")  # a smoke test's precision, not a report's
EVERYONE = Settings(own_samples=2, perfect_samples=1, worlds=2, seed="unit", screen_worlds=2, refer=1.0)  # refers all


def short_game(game: str, moves: int) -> object:
    """The first `moves` moves of a seeded random legal game of `game` (its first example options, fewest seats)."""
    spec = spec_for(game)
    players = [{"name": f"P{k}"} for k in range(spec.seats[0].low)]
    doc = random_game(game, spec.example_options[0], players, "ab" * 32, random.Random(f"fairplay|{game}"),
                      max_moves=moves)
    return parse(doc)


def test_a_four_virtues_decision_is_judged_with_every_card_and_against_the_honest_baseline():
    record = short_game("four-virtues", 12)
    spec = spec_for("four-virtues")
    states = true_states(record, {0})
    seen, decisions = seat_knowledge(record, 0)
    judged = 0
    for k, x in enumerate(decisions):
        rows = perfect_information_decision(spec, states[x.move_index], 0, x.move, "s", k, 2)
        if rows is None:
            continue
        assert len(rows) >= 2 and all(r["samples"] == 2 and isinstance(r["value"], float) for r in rows)
        share, variance, support = world_rank(spec, record.setup, 0, seen[:x.index], x.move, "s", k, 3, 2, rows)
        assert 0 < share < 1 and variance >= 0 and len(support) == 4 and support[0] == round(share * 8)
        assert perfect_information_decision(spec, states[x.move_index], 0, x.move, "s", k, 2) == rows  # seeded
        judged += 1
    assert judged > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_the_report_runs_both_stages_end_to_end_for_every_registered_game(game):
    record = short_game(game, 16)
    names = [f"P{k}" for k in range(record.setup.n)]
    result = screen([GameInput(f"{game}-short", record, names)], EVERYONE)  # the screen refers everyone: both stages
    assert result["games"] == 1 and [p["player"] for p in result["players"]] == sorted(names)
    assert sum(p["screen"]["decisions"] for p in result["players"]) > 0, "no decision judged: the test shows nothing"
    for p in result["players"] + result["pairs"]:
        assert p["referred"] and p["full"] is not None and 0 <= p["full"]["p_value"] <= 1 and p["reason"]
        assert 0 <= p["screen"]["p_value"] <= 1 and p["full"]["decisions"] == p["screen"]["decisions"]
    assert bool(result["pairs"]) == (record.setup.n >= 3 and result["pair_test"])


def test_only_play_on_calls_a_game_s_playout():
    """Generic code reaches a game's rollout through domain.analysis.play_on alone, which hands it the keywords its
    spec declares: a second caller (as domain.fairplay was) could forget one, and fail for that game only."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    callers = []
    for package in ("api", "service", "projections", "domain", "bots"):
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "playout":
                    callers.append(str(path.relative_to(root)))
    assert callers == ["domain/analysis.py"]
