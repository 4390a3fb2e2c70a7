"""`arbiter analyse RECORD --seat N` (and `analyze`), docs/analysis.md: JSON Lines with --json, a table otherwise, and
exit code 2 with one clear line (never a traceback) for input it cannot serve. A small recorded game (a Small Battle
sample record) and a few samples a move keep these fast."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.games import registered, spec_for
from domain.records import load
from projections.knowledge import seat_knowledge

RECORD = str(Path(__file__).resolve().parent.parent / "records" / "small-battle" / "selfplay-00-2p.json")
FAST = ("--samples", "8", "--workers", "1", "--seed", "cli")


def run(*args: str):
    """Invoke `arbiter ARGS` in process; the CLI must never end in an uncaught exception."""
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    return result


def test_json_prints_one_line_per_analysed_decision_of_the_seat_in_game_order():
    result = run("analyse", RECORD, "--seat", "0", "--json", *FAST)
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    _, decisions = seat_knowledge(load(RECORD), 0)
    assert lines and len(lines) <= len(decisions)
    assert [x["decision"] for x in lines] == sorted({x["decision"] for x in lines})
    for line in lines:
        assert line["seat"] == 0 and line["unit"] == "win"
        assert line["move_index"] == decisions[line["decision"]].move_index
        values = [m["value"] for m in line["moves"]]
        assert values == sorted(values, reverse=True) and line["eval"] == values[0]
        assert line["best"] == line["moves"][0]["move"]
        assert line["played"] in [m["move"] for m in line["moves"]]
        assert all(m["low"] <= m["value"] <= m["high"] and 1 <= m["samples"] <= 8 for m in line["moves"])
        assert line["loss"] == round(max(0.0, line["eval"] - line["played_value"]), 2)
        assert line["mark"] in (None, "inaccuracy", "mistake", "blunder")


def test_analyze_is_the_same_command_and_the_same_seed_gives_the_same_bytes():
    a = run("analyse", RECORD, "--seat", "1", "--json", *FAST)
    b = run("analyze", RECORD, "--seat", "1", "--json", *FAST)
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout and a.stdout


def test_without_json_it_prints_a_table_of_the_seats_decisions_and_the_marks_count():
    result = run("analyse", RECORD, "--seat", "0", *FAST)
    assert result.exit_code == 0, result.output
    json_lines = run("analyse", RECORD, "--seat", "0", "--json", *FAST).stdout.splitlines()
    name = json.loads(Path(RECORD).read_text())["players"][0]["name"]
    assert f"{name} (seat 0): {len(json_lines)} decisions analysed" in result.stdout
    assert "win chance" in result.stdout
    assert "inaccurac" in result.stdout and "blunder" in result.stdout


def test_the_table_ends_with_the_seats_accuracy_from_its_lines():
    from domain.accuracy import accuracy
    from domain.games import spec_for

    result = run("analyse", RECORD, "--seat", "0", *FAST)
    lines = [json.loads(x) for x in run("analyse", RECORD, "--seat", "0", "--json", *FAST).stdout.splitlines()]
    game = json.loads(Path(RECORD).read_text())["game"]
    assert f"accuracy {accuracy(lines, spec_for(game).analysis.marks):.1f}%" in result.stdout


def _refused(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "error:" in result.stderr
    for w in words:
        assert w in result.stderr
    assert result.stdout == ""


def test_a_game_without_analysis_exits_2_naming_the_game():
    bare = dataclasses.replace(spec_for("small-battle"), analysis=None)
    with registered("small-battle", bare):
        result = run("analyse", RECORD, "--seat", "0", "--json", *FAST)
    _refused(result, "offers no computer analysis")


@pytest.mark.parametrize("seat", ["2", "-1"])
def test_a_seat_the_game_lacks_exits_2_naming_the_seats_it_has(seat):
    _refused(run("analyse", RECORD, "--seat", seat, "--json", *FAST), f"seat {seat}", "seats 0..1")


def test_a_malformed_record_file_exits_2_saying_what_is_wrong(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "arbiter.record/1", "game": ')
    _refused(run("analyse", str(bad), "--seat", "0", "--json", *FAST))
    doc = json.loads(Path(RECORD).read_text())
    doc["game"] = "no-such-game"
    bad.write_text(json.dumps(doc))
    _refused(run("analyse", str(bad), "--seat", "0", "--json", *FAST), "no-such-game")


def test_a_missing_file_exits_2_naming_it(tmp_path):
    missing = str(tmp_path / "nowhere.json")
    _refused(run("analyse", missing, "--seat", "0", *FAST), "nowhere.json")
