"""A record outside the JSON bounds (domain.json_limits) is an invalid record: exit 2 naming what is wrong.

`arbiter replay` used to print a traceback and exit 1 (the code of an illegal move) on a 5,000-digit
integer; `arbiter export` likewise. Nesting deeper than 32 levels and NaN are invalid too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.json_limits import MAX_INT, LimitError, check, loads
from domain.records import InvalidRecord, parse

RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example1-00-classic.json"
BIG = "1" * 5000


def with_field(tmp_path, text: str) -> str:
    """The sample record with one more top-level field, written as it is (any JSON text)."""
    path = tmp_path / "record.json"
    path.write_text(RECORD.read_text().rstrip().rstrip("}") + ", " + text + "}")
    return str(path)


def with_move_field(tmp_path, text: str) -> str:
    doc = json.loads(RECORD.read_text())
    doc["moves"][0]["amount"] = "@"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc).replace('"amount": "@"', '"amount": ' + text))
    return str(path)


@pytest.mark.parametrize("command", ["replay --json", "export"])
def test_a_record_with_a_5000_digit_integer_exits_2_naming_the_field(tmp_path, command):
    result = CliRunner().invoke(main, [*command.split(), with_field(tmp_path, f'"dealer": {BIG}')])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "dealer: the number" in result.output and "out of range" in result.output
    assert "Traceback" not in result.output


def test_a_huge_integer_inside_a_move_names_the_move_and_field(tmp_path):
    result = CliRunner().invoke(main, ["replay", "--json", with_move_field(tmp_path, BIG)])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"].startswith("moves[0].amount: the number")


@pytest.mark.parametrize("command", ["replay --json", "export"])
def test_a_record_nested_5000_deep_exits_2_saying_where(tmp_path, command):
    result = CliRunner().invoke(main, [*command.split(), with_field(tmp_path, '"x": ' + "[" * 5000 + "]" * 5000)])
    assert result.exit_code == 2, result.output
    assert "nested too deeply" in result.output and "opens at line " in result.output


def test_a_record_nested_40_deep_exits_2_naming_the_field(tmp_path):
    result = CliRunner().invoke(main, ["replay", "--json", with_field(tmp_path, '"x": ' + "[" * 40 + "]" * 40)])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"].startswith("x[0][0]")


def test_a_record_holding_nan_or_infinity_exits_2(tmp_path):
    for text in ('"dealer": NaN', '"dealer": -Infinity', '"dealer": 1e999'):
        result = CliRunner().invoke(main, ["replay", "--json", with_field(tmp_path, text)])
        assert result.exit_code == 2, (text, result.output)


def test_the_largest_integer_is_read_and_one_more_is_not():
    assert loads(f"[{MAX_INT}, {-MAX_INT}]") == [MAX_INT, -MAX_INT]
    with pytest.raises(LimitError):
        loads(f"[{MAX_INT + 1}]")
    with pytest.raises(LimitError):
        check({"a": [-(MAX_INT + 1)]})


def test_a_record_in_memory_with_a_huge_integer_is_invalid_naming_the_field():
    doc = json.loads(RECORD.read_text())
    doc["moves"][2]["amount"] = 10**5000
    with pytest.raises(InvalidRecord, match=r"^moves\[2\]\.amount: the number of about 5001 digits"):
        parse(doc)


def test_a_record_in_memory_nested_deeply_is_invalid_without_recursing():
    doc = json.loads(RECORD.read_text())
    deep: list = []
    doc["options"]["x"] = deep
    for _ in range(100_000):
        deep.append([])
        deep = deep[0]
    with pytest.raises(InvalidRecord, match="nested too deeply"):
        parse(doc)
