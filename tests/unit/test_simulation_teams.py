"""`arbiter simulate --teams`: bots seated in teams, as the game's rules seat them; the records carry each seat's
team and replay to a team's win; a team list the rules refuse is refused naming --teams."""

from __future__ import annotations

import json

import pytest

from domain.records import parse, replay
from service.offline.simulation import PlanError, make_plan
from tests.unit.test_simulation import invoke


def test_a_plan_with_teams_seats_each_bot_in_its_team():
    plan = make_plan("el-royale", 4, 2, ("heuristic",), {}, "t", teams=("N", "E", "N", "E"))
    assert [p.get("team") for p in plan.players_of(0)] == ["N", "E", "N", "E"]
    assert all("team" not in p for p in make_plan("el-royale", 4, 2, ("heuristic",), {}, "t").players_of(0))


@pytest.mark.parametrize("teams,says", [
    (("N", "E"), "one team for each of the 4 seats"),
    (("N", "N", "E", "E"), "interleaved"),
])
def test_teams_the_rules_refuse_are_refused_naming_teams(teams, says):
    with pytest.raises(PlanError) as e:
        make_plan("el-royale", 4, 1, teams=teams)
    assert e.value.option == "--teams" and says in e.value.reason
    with pytest.raises(PlanError) as e:
        make_plan("small-battle", 2, 1, teams=("A", "B"))
    assert e.value.option == "--teams"


def test_simulate_with_teams_writes_records_whose_winner_is_a_team(tmp_path):
    out = tmp_path / "games.jsonl"
    result = invoke("simulate", "--game", "el-royale", "--players", "4", "--teams", "N,E,N,E", "--games", "3",
                    "--seed", "2", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(docs) == 3
    for doc in docs:
        assert [p["team"] for p in doc["players"]] == ["N", "E", "N", "E"]
        verdict = replay(parse(doc)).verdict()
        assert verdict["status"] == "finished" and verdict["winner"]["team"] in ("N", "E")
    refused = invoke("simulate", "--game", "el-royale", "--players", "4", "--teams", "N,N,E,E", "--games", "1")
    assert refused.exit_code == 2 and "--teams" in refused.output and "Traceback" not in refused.output
