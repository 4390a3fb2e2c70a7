"""Self-play and balance reports (issue 16): reproducible runs, records that verify, numbers that match them."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from click.testing import CliRunner

from api.cli.main import main
from domain.records import parse, replay
from service.offline.balance import balance_report, wilson
from service.offline.simulation import PlanError, RecordSink, make_plan, run


def archive(plan, workers: int, path: Path) -> bytes:
    with RecordSink(path) as sink:
        for doc in run(plan, workers):
            sink.write(doc)
    return path.read_bytes()


def test_a_simulation_with_a_fixed_seed_is_the_same_bit_for_bit_whatever_the_number_of_workers(tmp_path):
    plan = make_plan("small-battle", 2, 12, ("heuristic", "random"), {}, "reproducible")
    one = archive(plan, 1, tmp_path / "one.jsonl")
    assert archive(plan, 2, tmp_path / "two.jsonl") == one
    assert archive(plan, 1, tmp_path / "again.jsonl") == one
    other = make_plan("small-battle", 2, 12, ("heuristic", "random"), {}, "another seed")
    assert archive(other, 1, tmp_path / "other.jsonl") != one


def test_bots_take_turns_in_every_seat_and_the_records_name_them():
    plan = make_plan("el-royale", 3, 3, ("heuristic", "random"), {}, "1")
    assert [plan.lineup(i) for i in range(3)] == [["heuristic", "random", "heuristic"],
                                                 ["random", "heuristic", "random"],
                                                 ["heuristic", "random", "heuristic"]]
    assert [p["name"] for p in plan.players_of(1)] == ["random-0", "heuristic-1", "random-2"]


@pytest.mark.parametrize("args,option", [
    (dict(game="chess", players=2), "--game"),
    (dict(game="four-virtues", players=3), "--players"),
    (dict(game="batallion", players=6), "--players"),
    (dict(game="el-royale", players=4, options={"edition": "deluxe"}), "--options"),
    (dict(game="el-royale", players=4, bots=("genius",)), "--bots"),
])
def test_a_plan_the_rules_forbid_is_refused_naming_the_option(args, option):
    with pytest.raises(PlanError) as e:
        make_plan(games=1, **args)
    assert e.value.option == option


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("args,says", [
    (["--game", "chess", "--players", "2"], "unknown game 'chess'"),
    (["--game", "el-royale", "--players", "9"], "2 to 8 players"),
    (["--game", "el-royale", "--players", "4", "--options", "{edition"], "--options"),
    (["--game", "el-royale", "--players", "4", "--options", "[1]"], "JSON object"),
    (["--game", "el-royale", "--players", "4", "--options", '{"edition": "x"}'], "edition"),
    (["--game", "el-royale", "--players", "4", "--bots", "heuristic,oracle"], "unknown bot 'oracle'"),
    (["--players", "4"], "--game"),
])
def test_simulate_refuses_bad_input_with_exit_2_a_clear_message_and_no_traceback(args, says):
    result = invoke("simulate", "--games", "1", *args)
    assert result.exit_code == 2
    assert says in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)


def test_a_small_simulation_writes_records_that_arbiter_replay_verifies(tmp_path):
    out = tmp_path / "games"
    result = invoke("simulate", "--game", "batallion", "--players", "3", "--games", "4", "--bots", "heuristic,random",
                    "--options", '{"variants": ["scarcity"]}', "--seed", "9", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(str(p) for p in out.glob("*.json"))
    assert len(files) == 4
    replayed = invoke("replay", "--json", *files)
    assert replayed.exit_code == 0
    assert all(json.loads(line)["status"] == "finished" for line in replayed.output.splitlines())


def recount(docs: list[dict]) -> dict:
    """The report's numbers counted again, straight from the records (replayed with the bare decider)."""
    n = len(docs[0]["players"])
    seat_wins, bot_wins, bot_seats, endings, moves = Counter(), Counter(), Counter(), Counter(), []
    for doc in docs:
        verdict = replay(parse(doc)).verdict()
        winners = verdict["winner"]["seats"] if verdict["winner"] else []
        endings[verdict["result"] if verdict["status"] == "finished" else "unfinished"] += 1
        if verdict["status"] == "finished":
            moves.append(len(doc["moves"]))
        for seat, player in enumerate(doc["players"]):
            bot = player["name"].split("-")[0]
            bot_seats[bot] += 1
            if seat in winners:
                seat_wins[seat] += 1
                bot_wins[bot] += 1
    return {"seats": [seat_wins[s] for s in range(n)], "bots": {b: (bot_wins[b], bot_seats[b]) for b in bot_seats},
            "endings": dict(endings), "moves": sum(moves) / len(moves), "games": len(docs)}


def test_the_balance_report_matches_the_records_it_came_from(tmp_path):
    plan = make_plan("el-royale", 3, 10, ("heuristic", "random"), {"edition": "classic", "battle_limit": 12}, "r")
    path = tmp_path / "er.jsonl"
    archive(plan, 1, path)
    docs = [json.loads(line) for line in path.read_text().splitlines()]
    (rep,) = balance_report([str(path)])
    expected = recount(docs)
    assert rep["games"] == expected["games"] == 10
    assert [r["count"] for r in rep["win_by_seat"]] == expected["seats"]
    assert {b: (r["count"], r["of"]) for b, r in rep["win_by_bot"].items()} == expected["bots"]
    assert {k: r["count"] for k, r in rep["endings"].items()} == expected["endings"]
    assert rep["moves"]["mean"] == pytest.approx(expected["moves"])
    for r in rep["win_by_seat"]:
        assert (r["low"], r["high"]) == wilson(r["count"], r["of"])


def test_the_wilson_interval_has_its_textbook_values():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = wilson(81, 263)
    assert low < 81 / 263 < high and math.isclose(high - low, 0.1117, abs_tol=1e-3)


def test_tables_with_other_bots_are_reported_apart(tmp_path):
    for bots in (("heuristic",), ("heuristic", "random")):
        archive(make_plan("small-battle", 2, 2, bots, {}, "t"), 1, tmp_path / f"{len(bots)}.jsonl")
    reports = balance_report([str(tmp_path / "1.jsonl"), str(tmp_path / "2.jsonl")])
    assert [(r["bots"], r["games"]) for r in reports] == [(["heuristic"], 2), (["heuristic", "random"], 2)]


def test_a_record_with_an_illegal_move_stops_the_report(tmp_path):
    plan = make_plan("small-battle", 2, 1, ("heuristic",), {}, "x")
    doc = next(run(plan))
    doc["moves"][-1]["position"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    result = invoke("report", str(path))
    assert result.exit_code == 2 and "illegal" in result.output


def test_the_html_report_is_one_self_contained_page_with_its_plots(tmp_path):
    out, html = tmp_path / "fv.jsonl", tmp_path / "fv.html"
    result = invoke("simulate", "--game", "four-virtues", "--players", "2", "--games", "2", "--options",
                    '{"target": 100}', "--workers", "1", "--out", str(out), "--html", str(html))
    assert result.exit_code == 0, result.output
    page = html.read_text()
    assert page.count("data:image/png;base64,") == 1
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert "The Four Virtues of Royalty, 2 players (target=100), bots: heuristic" in page


def test_arbiter_replay_verifies_a_json_lines_archive_one_verdict_a_game(tmp_path):
    out = tmp_path / "sb.jsonl"
    assert invoke("simulate", "--game", "small-battle", "--players", "2", "--games", "3", "--workers", "1",
                  "--out", str(out)).exit_code == 0
    replayed = invoke("replay", "--json", str(out))
    assert replayed.exit_code == 0
    assert [json.loads(line)["status"] for line in replayed.output.splitlines()] == ["finished"] * 3
    lines = out.read_text().splitlines()
    doc = json.loads(lines[1])
    doc["moves"][-1]["position"] = 42
    out.write_text("\n".join([lines[0], json.dumps(doc), "not json"]) + "\n")
    replayed = invoke("replay", "--json", str(out))
    assert replayed.exit_code == 2
    assert [json.loads(line)["status"] for line in replayed.output.splitlines()] == ["finished", "illegal", "invalid"]


@given(trials=st.integers(1, 100_000), data=st.data())
def test_the_wilson_interval_always_holds_the_observed_rate_inside_zero_and_one(trials, data):
    successes = data.draw(st.integers(0, trials))
    low, high = wilson(successes, trials)
    assert 0 <= low <= successes / trials <= high <= 1
