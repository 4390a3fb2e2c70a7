"""`bench.strength` (issue 36 part 1, docs/analysis.md "Strength"): duplicate matches between the analysis and the
heuristic bot, and between the analysis with and without inference. The quick form runs end to end; the pairing,
the interval and the resumable output are held here. Nothing is timed."""

from __future__ import annotations

import json
import math

from bench import strength


def test_the_quick_duplicate_match_runs_and_reports_an_interval_per_row(capsys):
    rows = strength.main(["--quick", "--game", "small-battle", "--game", "batallion", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert [(r["game"], r["row"]) for r in out["rows"]] == [
        (game, row) for game in ("small-battle", "batallion") for row in ("heuristic", "guarded", "inference")]
    assert [r["deals"] for r in rows] == [1, 1, 0] * 2  # no inference model in these games: nothing to play
    assert all("no inference model" in r["note"] for r in rows if r["row"] == "inference")
    for r in rows:
        if r["row"] == "inference":
            continue
        assert r["deals"] == 1 and r["half_width"] == math.inf  # one deal: no interval, and none pretended
        assert r["cpu_per_decision_pimc"] > 0 and r["decisions_pimc"] > 0
        if r["row"] == "guarded":
            assert r["cpu_per_decision_guarded"] > 0 and r["decisions_guarded"] > 0


def test_a_policy_against_itself_differs_by_exactly_zero_on_every_deal():
    """The duplicate pairing: the same deal, seat and streams on both sides. Where inference has no model (Small
    Battle: the others' strikes say nothing of their own formation), infer and pimc are one policy, so each deal's
    difference is 0, not noise around it."""
    for deal in range(2):
        x = strength.duplicate(("small-battle", "inference", deal, None, 4, False))
        assert x["diff"] == 0.0 and x["a"] == x["b"]


def test_the_el_royale_inference_row_plays_legal_games_with_weighted_samples():
    x = strength.duplicate(("el-royale", "inference", 1, None, 4, True))
    assert x["seats"] == [1] and len(x["a"]) == len(x["b"]) == 1
    assert x["analysed"]["infer"] > 0 and x["analysed"]["pimc"] > 0


def test_the_interval_is_a_t_interval_over_deals():
    assert abs(strength.t975(10) - 2.228) < 0.002 and abs(strength.t975(100) - 1.984) < 0.001
    mean, hw = strength.interval([1.0, 0.0, 0.5, 0.5])
    assert mean == 0.5 and abs(hw - strength.t975(3) * math.sqrt(1 / 6) / 2) < 1e-12


def test_a_run_resumes_from_its_output_and_plays_only_the_missing_deals(tmp_path):
    first = strength.run_row("small-battle", "heuristic", range(2), None, 4, 1, tmp_path, "t")
    path = tmp_path / "small-battle-heuristic-t.jsonl"
    assert len(path.read_text().splitlines()) == 2
    again = strength.run_row("small-battle", "heuristic", range(3), None, 4, 1, tmp_path, "t")
    assert len(path.read_text().splitlines()) == 3 and again[:2] == first
    report = strength.run_row("small-battle", "heuristic", range(5), None, 4, 1, tmp_path, "t", play_missing=False)
    assert len(report) == 3
