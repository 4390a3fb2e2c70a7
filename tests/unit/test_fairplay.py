"""The fair-play report (docs/fairplay.md): its statistics against known p-values, the shape of a player's line, the
Bonferroni threshold, the tie-break that no candidate order decides, and `arbiter fairplay` on good and bad input."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from api.cli.group import group
from domain.fairplay import best_of, judge, player_report, rank_test, report, sign_test
from tests.fairplay_support import play

LINE_KEYS = {"player", "games", "decisions", "informative", "matched_perfect", "matched_own", "sign_p",
             "rank_mean", "p_value", "threshold", "flagged", "reason"}


def test_the_sign_test_gives_the_exact_binomial_tail():
    assert sign_test(10, 10) == 1 / 1024
    assert sign_test(8, 10) == (45 + 10 + 1) / 1024
    assert sign_test(5, 10) == pytest.approx(638 / 1024)
    assert sign_test(0, 7) == 1.0 and sign_test(3, 0) == 1.0


def test_the_rank_test_is_the_normal_tail_of_the_sum_of_ranks_with_their_variances():
    var = (81 - 1) / (12 * 81)  # one rank on 9 places, no tie
    assert rank_test([0.5] * 40, [var] * 40) == pytest.approx(0.5)
    assert rank_test([], []) == 1.0 and rank_test([0.5, 0.5], [0.0, 0.0]) == 1.0  # nothing varied: nothing to test
    z = (60 * 0.6 - 30) / math.sqrt(60 * var)
    assert rank_test([0.6] * 60, [var] * 60) == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)))
    assert rank_test([0.6] * 60, [var] * 60) == pytest.approx(0.00347, abs=1e-5)  # z = 6 / 2.222 = 2.70
    assert rank_test([0.4] * 60, [var] * 60) == pytest.approx(1 - 0.00347, abs=1e-5)


def test_a_decision_where_every_world_ties_adds_nothing_to_the_test():
    var = (81 - 1) / (12 * 81)
    assert rank_test([0.6] * 60 + [0.5] * 100, [var] * 60 + [0.0] * 100) == rank_test([0.6] * 60, [var] * 60)


VAR = (81 - 1) / (12 * 81)


def verdict(informative: bool, own: bool, perfect: bool, rank: float = 0.5) -> dict:
    return {"informative": informative, "gap": 10.0, "rank": rank, "rank_variance": VAR, "matched_own": own,
            "matched_perfect": perfect}


def test_a_player_whose_moves_keep_ranking_high_in_the_true_deal_is_flagged_with_its_numbers():
    verdicts = [verdict(True, False, True, 0.85)] * 30 + [verdict(False, True, True, 0.75)] * 30
    line = player_report("Ann", verdicts, 0.005, games=7)
    assert set(line) == LINE_KEYS
    assert (line["decisions"], line["informative"], line["matched_perfect"], line["matched_own"]) == (60, 30, 30, 0)
    assert line["rank_mean"] == 0.8 and line["games"] == 7
    assert line["p_value"] == rank_test([v["rank"] for v in verdicts], [VAR] * 60) and line["p_value"] < 1e-8
    assert line["sign_p"] == sign_test(30, 30)
    assert line["flagged"] and "review" in line["reason"] and "no verdict" in line["reason"]


def test_a_player_at_the_honest_rank_is_not_flagged_and_the_reason_says_so():
    verdicts = [verdict(True, True, False, 0.3)] * 20 + [verdict(False, False, True, 0.7)] * 20
    line = player_report("Bob", verdicts, 0.01)
    assert line["rank_mean"] == 0.5 and line["p_value"] == pytest.approx(0.5)
    assert not line["flagged"] and "Nothing beyond chance" in line["reason"]
    empty = player_report("Cy", [], 0.01)
    assert not empty["flagged"] and empty["p_value"] == 1.0 and "nothing to test" in empty["reason"]


def test_the_reason_says_ordinals_and_counts_in_plain_english():
    verdicts = [verdict(True, False, True, 0.53), verdict(True, True, False, 0.53), verdict(True, True, False, 0.53)]
    reason = player_report("Ann", verdicts, 0.01)["reason"]
    assert "at the 53rd percentile" in reason and "the all-cards best once and its own-information best twice" in reason
    assert "over 3 decisions" in reason and "(3 decisions)" in reason
    one = player_report("Bob", [verdict(True, True, False, 0.21)], 0.01)["reason"]
    assert "over 1 decision," in one and "(1 decision)" in one and "at the 21st percentile" in one
    assert "the all-cards best 0 times and its own-information best once" in one
    assert not any(bad in reason + one for bad in ("53th", "21th", "1 times", "2 times", "1 decisions"))
    never = player_report("Cy", [verdict(False, False, False, 0.4)], 0.01)["reason"]
    assert "seeing every card never changed the best move" in never and "(0 decisions)" not in never


def test_each_player_is_tested_at_alpha_over_the_number_of_players():
    lines = report({"A": [], "B": [], "C": [], "D": []}, {"A": 2}, alpha=0.02)
    assert [x["player"] for x in lines] == ["A", "B", "C", "D"]
    assert {x["threshold"] for x in lines} == {0.005} and lines[0]["games"] == 2


def test_a_tie_for_best_is_broken_by_the_salt_never_by_the_order_of_the_rows():
    rows = [{"move": {"type": "strike", "position": p}, "value": 50.0} for p in range(8)]
    picks = {best_of(rows, "x")["move"]["position"], best_of(rows[::-1], "x")["move"]["position"]}
    assert len(picks) == 1
    assert len({best_of(rows, f"salt {i}")["move"]["position"] for i in range(40)}) > 3
    assert best_of(rows + [{"move": {"type": "strike", "position": 9}, "value": 51.0}], "x")["move"]["position"] == 9


def test_a_decision_is_informative_only_when_the_two_bests_differ_by_the_margin_in_all_cards_values():
    own = [{"move": {"type": "strike", "position": 0}, "value": 60.0}, {"move": {"type": "strike", "position": 1}, "value": 40.0}]
    perfect = [{"move": {"type": "strike", "position": 0}, "value": 30.0}, {"move": {"type": "strike", "position": 1}, "value": 70.0}]
    played = {"type": "strike", "position": 1}
    v = judge(own, perfect, played, 5.0, "s", (0.3, 0.05))
    assert v == {"informative": True, "gap": 40.0, "rank": 0.3, "rank_variance": 0.05, "matched_own": False,
                 "matched_perfect": True}
    assert not judge(own, perfect, played, 50.0, "s", (0.3, 0.05))["informative"]
    assert not judge(own, own, played, 5.0, "s", (0.3, 0.05))["informative"]


# ------------------------------------------------------------------------------------------ arbiter fairplay


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(play("unit-fairplay-cli", ("Ann", "Bob"))))
    return path


STAGED_KEYS = {"player", "games", "screen", "referred", "full", "panel", "reason"}
SCREEN_KEYS = {"decisions", "rank_mean", "z", "p_value", "threshold", "threshold_z", "passed"}


def test_the_command_prints_one_line_per_player_with_both_stages_as_json(record_file):
    result = CliRunner().invoke(group, ["fairplay", str(record_file), "--samples", "4", "--perfect-samples", "2",
                                        "--worlds", "2", "--workers", "1", "--json"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 1 and [p["player"] for p in doc["players"]] == ["Ann", "Bob"]
    assert all(set(p) == STAGED_KEYS and set(p["screen"]) == SCREEN_KEYS and p["screen"]["decisions"] > 0
               and 0 <= p["screen"]["p_value"] <= 1 for p in doc["players"])
    assert all(p["screen"]["threshold"] == 1e-3 and (p["full"] is None) == (not p["referred"]) for p in doc["players"])
    assert result.exit_code == (1 if any(p["referred"] for p in doc["players"]) else 0)
    assert '"move"' not in result.stdout and '"cards"' not in result.stdout  # counts only: no move, no card


def test_the_command_with_refer_1_tests_everyone_in_full_and_prints_both_stages(record_file):
    result = CliRunner().invoke(group, ["fairplay", str(record_file), "--samples", "2", "--perfect-samples", "1",
                                        "--worlds", "2", "--workers", "1", "--refer", "1"])
    assert result.exit_code == 1, result.output  # the screen referred everyone
    said = " ".join(result.output.split())  # rich wraps its lines
    assert "referred by the screen" in said and "the full test:" in said and "not referred" not in said
    assert "1 in 1,000,000" in said and "never a verdict" in said and "ASK A PANEL" not in said
    assert "1 times" not in said and "percentile" in said


@pytest.mark.parametrize("content, said", [
    ("{not json", "invalid record"),
    (json.dumps({"format": "arbiter.record/1", "game": "no-such-game"}), "invalid record: game"),
])
def test_a_malformed_record_is_named_with_exit_2_and_no_traceback(tmp_path, content, said):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = CliRunner().invoke(group, ["fairplay", str(path), "--workers", "1"])
    assert result.exit_code == 2 and "bad.json" in result.output and said in result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)


def test_an_unfinished_game_is_refused_by_name(tmp_path):
    doc = play("unit-fairplay-unfinished", ("Ann", "Bob"))
    doc["moves"] = doc["moves"][:6]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(group, ["fairplay", str(path), "--workers", "1"])
    assert result.exit_code == 2 and "short.json: not a finished game" in result.output


def test_an_unknown_tournament_is_named_with_exit_2(tmp_path):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    from service.facade import Arbiter

    Arbiter(url, str(tmp_path / "k"), str(tmp_path / "c.log")).app.close()  # an existing, empty store
    result = CliRunner().invoke(group, ["fairplay", "--tournament", "00000000-0000-0000-0000-000000000001",
                                        "--database-url", url])
    assert result.exit_code == 2 and "no tournament with id" in result.output and "Traceback" not in result.output
    neither = CliRunner().invoke(group, ["fairplay"])
    assert neither.exit_code == 2 and "give record FILES or --tournament" in neither.output


def test_the_honest_baseline_s_rank_has_mean_one_half_and_ignores_the_order_of_worlds():
    from domain.fairplay import world_rank
    from domain.games import spec_for
    from domain.records import parse
    from projections.knowledge import seat_knowledge
    from domain.fairplay import perfect_information_decision, true_states

    record = parse(play("unit-fairplay-rank", ("Ann", "Bob")))
    spec = spec_for(record.game)
    seen, decisions = seat_knowledge(record, 0)
    states = true_states(record, {0})
    x = decisions[3]
    rows = perfect_information_decision(spec, states[x.move_index], 0, x.move, "s", 3, 2)
    share, variance, support = world_rank(spec, record.setup, 0, seen[:x.index], x.move, "s", 3, 6, 2, rows)
    assert 0 < share < 1 and 0 <= variance <= (49 - 1) / (12 * 49) + 1e-12
    assert world_rank(spec, record.setup, 0, seen[:x.index], x.move, "s", 3, 6, 2, rows) == (share, variance, support)


def test_only_the_referee_s_roads_reach_the_perfect_information_analysis():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    users: dict[str, set[str]] = {"domain.fairplay": set(), "service.fairplay.facade": set(),
                                  "service.fairplay.jobs": set(), "domain.screening": set(),
                                  "domain.collusion": set(), "service.fairplay.stages": set()}
    for package in ("api", "service", "projections", "domain", "bots"):
        for path in (root / package).rglob("*.py"):
            here = list(path.relative_to(root).with_suffix("").parts)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    base = here[:len(here) - node.level] if node.level else []  # a relative import, resolved
                    module = ".".join(base + ([node.module] if node.module else []))
                    names = [module] + [f"{module}.{a.name}" for a in node.names]
                    for name in names:
                        if name in users:
                            users[name].add(str(path.relative_to(root)))
    # the review packet: the table a referred player's seat saw before a weighty decision, from the true state
    # projected for that seat (service.fairplay.packet); its reasons are said again with labels by
    # domain.review_packet through domain.two_stages
    assert users["domain.fairplay"] == {"service/fairplay/facade.py", "domain/screening.py", "domain/two_stages.py",
                                        "service/fairplay/packet.py", "domain/collusion.py",
                                        "service/fairplay/stages.py"}
    # the screen and the pair test (REFEREE ONLY too): the report's two stages (domain.two_stages decides who stage
    # two is for; service.fairplay.stages runs them)
    assert users["domain.screening"] == {"domain/collusion.py", "domain/two_stages.py", "service/fairplay/stages.py",
                                         "service/fairplay/facade.py"}
    assert users["domain.collusion"] == {"service/fairplay/stages.py"}
    assert users["service.fairplay.facade"] == {"api/cli/fairplay.py", "service/fairplay/jobs.py",
                                                "service/fairplay/packet.py", "service/fairplay/stages.py"}
    # the packet reads only how the report's screen judged (stages.screen_judge_of)
    assert users["service.fairplay.stages"] == {"api/cli/fairplay.py", "service/fairplay/jobs.py",
                                                "service/fairplay/packet.py"}
    # built by the composition root; the desk's pages reach it by current
    assert users["service.fairplay.jobs"] == {"service/facade.py", "api/current.py"}


def test_a_bad_line_of_an_archive_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(play("unit-fairplay-archive", ("Ann", "Bob"))) + "\n{oops\n")
    result = CliRunner().invoke(group, ["fairplay", str(path), "--workers", "1"])
    assert result.exit_code == 2 and "games.jsonl, line 2: not JSON" in result.output
    missing = CliRunner().invoke(group, ["fairplay", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output and "Traceback" not in missing.output


def test_games_whose_decisions_move_together_widen_the_rank_test():
    # two games, each with every share high or every share low: the games' own sums spread far more than the
    # decisions' variances say, so the test uses that spread
    ranks = [0.9] * 10 + [0.1] * 10 + [0.9] * 10
    games = ["a"] * 10 + ["b"] * 10 + ["c"] * 10
    plain = rank_test(ranks, [VAR] * 30)
    clustered = rank_test(ranks, [VAR] * 30, games)
    sums = [4.0, -4.0, 4.0]
    spread = 3 / 2 * sum((x - 4 / 3) ** 2 for x in sums)
    assert clustered == pytest.approx(0.5 * math.erfc((4.0 / math.sqrt(spread)) / math.sqrt(2)))
    assert clustered > plain
    independent = [0.6, 0.4] * 15
    assert rank_test(independent, [VAR] * 30, games) == rank_test(independent, [VAR] * 30)  # spread smaller: unchanged
