"""Marks you can trust (issue 36 part 4, docs/analysis.md "Marks"): a move the analysis marks blunder, measured again
with ten times the samples on independent deals and rollouts, loses at least the blunder threshold in 95% of cases
or more. Seeded games of the bots (bench.marks, the same road as `python -m bench.marks`); every decision of every
seat analysed at the default cap. The games are fixed by their seeds, so the test is deterministic; their sizes are
in SETS."""

from __future__ import annotations

import json

from bench import marks

# (game, players, options, games): seeded games of the heuristic and the random bot in turn (plan seed
# "marks-<game>"); the random bot's seats analysed, where blunders are. Measured (2026-11-29, about 40 CPU s): 88
# decisions, 87 analysed; the analysis marks 4 blunders and all 4 lose at least 2 chips re-measured. Marking on the
# loss itself (the rule before issue 36 part 4) marks 13 there, of which 7 hold: this test fails on that rule.
# Batallion because its decisions are cheap and its random seats blunder; bench.marks covers every game.
SETS = [("batallion", 4, {"variants": []}, 4)]
SHARE = 0.95
MIN_BLUNDERS = 4


def test_a_move_marked_blunder_loses_at_least_the_blunder_threshold_re_measured_with_ten_times_the_samples():
    rows = [marks.measure(game, players, options, games, seats="random", only="blunder")
            for game, players, options, games in SETS]
    checked = [(m, r["thresholds"][2]) for r in rows for m in r["moves"] if m["bound"] == "blunder"]
    held = [m for m, blunder in checked if m["remeasure"]["loss"] >= blunder]
    assert len(checked) >= MIN_BLUNDERS, f"only {len(checked)} blunders: the test says too little"
    assert len(held) >= SHARE * len(checked), (
        f"{len(held)} of {len(checked)} blunders held: "
        + json.dumps([m for m, b in checked if m["remeasure"]["loss"] < b]))


def test_the_quick_bench_reports_each_rule_and_mark_with_a_wilson_interval(capsys):
    rows = marks.main(["--quick", "--game", "small-battle", "--games", "1", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert [r["game"] for r in out["rows"]] == ["small-battle"] and "moves" not in out["rows"][0]
    row = rows[0]
    assert row["decisions"] >= row["analysed"] > 0
    for m in row["moves"]:  # every move the point rule marked is re-measured; the bound rule's marks are among them
        assert m["point"] is not None and m["remeasure"]["samples"] == marks.FACTOR * m["played_samples"]
        assert m["loss_low"] <= m["loss"]
    tallies = {k: v for k, v in out["pooled"].items() if k != "missed"}
    assert set(tallies) == {f"{rule}:{mark}" for rule in marks.RULES for mark in marks.MARKS}
    for t in tallies.values():
        assert t["share"] is None if t["count"] == 0 else 0 <= t["low"] <= t["share"] <= t["high"] <= 1
