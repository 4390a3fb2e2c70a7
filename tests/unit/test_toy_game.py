"""A fifth game added by its own package and one registry line (tests/toy_game, issue 24): it inherits the generic
property suite, plays through self-play and `arbiter simulate`, its records replay, the balance report measures it
in its own unit, and the seam test holds with it registered."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from api.cli.main import main
from bots import make_bot
from domain.autoplay import random_game
from domain.games import SPECS, decider_for
from domain.records import parse, replay
from domain.rules import RuleViolation
from service.offline.balance import balance_report, report_of
from service.offline.simulation import make_plan, run
from tests.toy_game import register
from tests.unit import test_game_seam, test_registry_properties

GAME = "high-card"


@pytest.fixture(autouse=True)
def toy():
    with register() as spec:
        yield spec


def test_registering_adds_the_game_to_the_one_list_and_taking_it_out_removes_it(toy):
    assert list(SPECS)[-1] == GAME and SPECS[GAME] is toy and decider_for(GAME) is toy.decider
    assert toy.players_text() == "2 players" and [o.name for o in toy.options] == ["rounds"]


def test_production_does_not_know_the_toy_game():
    code = "from domain.games import SPECS\nfrom api.cli.simulate import simulate_command\nprint(list(SPECS))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert GAME not in done.stdout and "el-royale" in done.stdout


def test_the_toy_game_inherits_the_generic_property_suite():
    """tests/unit/test_registry_properties.py, run for the toy game: folds, codecs, clauses, records, corruption."""
    test_registry_properties.test_every_game_folds_round_trips_and_cites_its_own_clauses(game=GAME)
    test_registry_properties.test_a_record_corrupted_at_a_move_is_refused_at_that_move(game=GAME)


def test_legal_moves_are_exactly_the_plays_decide_accepts():
    d = decider_for(GAME)
    for i in range(20):
        doc = random_game(GAME, {"rounds": 4}, [{"name": "A"}, {"name": "B"}], f"{i:04x}", random.Random(i))
        record = parse(doc)
        state = replay(record).state
        listed = {(m["seat"], m["cards"][0]) for m in d.legal_moves(state)}
        accepted = set()
        for seat in range(2):
            for card in range(52):
                try:
                    d.decide(state, {"seat": seat, "type": "play", "cards": [card]}, record.chance)
                    accepted.add((seat, card))
                except RuleViolation:
                    pass
        assert listed == accepted


def test_the_seam_holds_with_the_toy_game_registered():
    hits = test_game_seam.game_names_in_generic_code(list(SPECS.values()))
    assert not hits, "\n".join(hits)
    assert all(path.is_file() for path in test_game_seam.declared_files(SPECS[GAME]))


def test_self_play_and_the_balance_report_measure_the_game_in_its_own_unit():
    plan = make_plan(GAME, 2, 12, ("heuristic", "random"), {"rounds": 5}, "toy")
    assert plan.heuristic == "tests.toy_game.bot:HighCardBot"
    docs = list(run(plan, 1))
    assert all(replay(parse(doc)).verdict()["status"] == "finished" for doc in docs)
    [report] = report_of([(f"game {i}", doc) for i, doc in enumerate(docs)])
    assert report["title"] == "High Card" and report["unit"] == "rounds" and report["games"] == 12
    assert report["length"]["min"] == report["length"]["max"] == 5
    assert set(report["endings"]) <= {"win", "draw"}
    assert make_bot("heuristic", GAME, 0, random.Random(0), SPECS[GAME].bot).kind == "heuristic"


def test_arbiter_simulate_report_and_replay_take_the_toy_game(tmp_path):
    out = tmp_path / "games"
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", "--game", GAME, "--players", "2", "--games", "4", "--bots",
                                  "heuristic,random", "--options", '{"rounds": 2}', "--workers", "1", "--out", str(out),
                                  "--json"])
    assert result.exit_code == 0, result.output
    files = sorted(str(p) for p in out.glob("*.json"))
    assert len(files) == 4
    replayed = runner.invoke(main, ["replay", "--json", *files])
    assert replayed.exit_code == 0, replayed.output
    assert all(json.loads(line)["status"] == "finished" for line in replayed.output.splitlines())
    [report] = balance_report([str(out)])
    assert report["unit"] == "rounds" and report["players"] == 2
    refused = runner.invoke(main, ["simulate", "--game", GAME, "--players", "3", "--games", "1"])
    assert refused.exit_code == 2 and "exactly 2 players" in refused.output
