"""A balance report counts the games the move cap stopped (issue 28): an ending of their own, no one's win, no length."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from api.cli.main import main
from api.pages.balance import render
from domain.records import parse, replay
from service.offline.balance import balance_report
from service.offline.simulation import RecordSink, make_plan, run


def records(path: Path, max_moves: int, games: int = 12) -> list[dict]:
    plan = make_plan("el-royale", 2, games, ("heuristic",), {"edition": "revised"}, "cap", max_moves)
    with RecordSink(path) as sink:
        for doc in run(plan, 1):
            sink.write(doc)
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_games_stopped_by_the_move_cap_are_an_ending_of_their_own_and_no_ones_win(tmp_path):
    docs = records(tmp_path / "er.jsonl", max_moves=170)
    finished = [d for d in docs if replay(parse(d)).verdict()["status"] == "finished"]
    assert 0 < len(finished) < len(docs), "the cap stops some games and not others"
    (rep,) = balance_report([str(tmp_path / "er.jsonl")])
    unfinished = len(docs) - len(finished)
    assert rep["unfinished"]["count"] == rep["endings"]["unfinished"]["count"] == unfinished
    assert rep["unfinished"]["cap"] == 170
    assert all(r["of"] == len(docs) for r in rep["win_by_seat"])
    assert sum(r["count"] for r in rep["win_by_seat"]) == len(finished)


def test_lengths_are_those_of_finished_games_only(tmp_path):
    docs = records(tmp_path / "er.jsonl", max_moves=170)
    (rep,) = balance_report([str(tmp_path / "er.jsonl")])
    lengths = sorted(len(d["moves"]) for d in docs if replay(parse(d)).verdict()["status"] == "finished")
    assert rep["moves"]["values"] == lengths and len(lengths) < len(docs)


def test_a_table_where_no_game_finished_shows_no_length_rather_than_zero(tmp_path):
    records(tmp_path / "er.jsonl", max_moves=20, games=3)
    (rep,) = balance_report([str(tmp_path / "er.jsonl")])
    assert rep["finished"] == 0 and rep["moves"] is None and rep["length"] is None
    out = CliRunner().invoke(main, ["report", str(tmp_path / "er.jsonl")], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "3 unfinished" in out.output and "no game finished" in out.output
    assert "3\nunfinished</strong>" in render([rep]) and "no game finished" in render([rep])
    as_json = CliRunner().invoke(main, ["report", str(tmp_path / "er.jsonl"), "--json"])
    assert json.loads(as_json.output)["unfinished"] == {"count": 3, "of": 3, "rate": 1.0, "low": json.loads(
        as_json.output)["unfinished"]["low"], "high": 1.0, "cap": 20}
