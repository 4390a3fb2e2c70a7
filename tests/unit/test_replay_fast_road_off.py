"""Any replay can be run with the fast road off (issue 34): `arbiter replay --no-fast-road`, or ARBITER_FAST_ROAD=0
in the environment of any process that replays (the CLI, `verify`, the service), makes every move of every record
take the game's decider `step` alone, as live play does: an outside check of the decider through `replay --json`
(docs/cli.md, "The fast road, and turning it off"). Without it the verdict-only loop a game declares (domain/spec.py `FastReplay`,
El Royale's replay_fast.py) folds the moves it can."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.games import SPECS, registered
from domain.records import fast_road, parse, replay
from service import fast_road as setting
from tests.support import record
from tests.unit.test_el_royale_winning import HANDS, TEAMS, _moves
from tests.unit.test_fast_roads import _Spied, random_record, slow_replay

FAST = [g for g in SPECS if SPECS[g].fast_replay is not None]


def _spied(game: str) -> _Spied:
    return _Spied(SPECS[game].fast_replay, dict(SPECS[game].fast_replay.options))


@pytest.mark.parametrize("game", FAST)
def test_the_setting_sends_every_move_to_the_decider(game, monkeypatch):
    spied = _spied(game)
    records = [random_record(game, {}, SPECS[game].seats[0].low + 1, i) for i in range(3)]
    with registered(game, dataclasses.replace(SPECS[game], fast_replay=spied.road)):
        assert setting.allowed() and all(fast_road(r, setting.allowed()) is spied.road for r in records)
        monkeypatch.setenv("ARBITER_FAST_ROAD", "0")
        assert not setting.allowed()
        for r in records:
            assert fast_road(r, setting.allowed()) is None
            slow = slow_replay(r)
            for got in (replay(r, fast_road_allowed=False), replay(r, keep_events=True, fast_road_allowed=False)):
                assert got.verdict() == slow.verdict() and got.state == slow.state
        assert spied.calls == 0, "the fast road was used with ARBITER_FAST_ROAD=0"
        monkeypatch.setenv("ARBITER_FAST_ROAD", "1")
        for r in records:
            replay(r, fast_road_allowed=setting.allowed())
    assert spied.calls, "the spy can see the road (any value but 0 leaves it on)"


def _record_file(tmp_path: Path) -> str:
    """ER-4.1's third jack (test_el_royale_winning.py): a game still in progress."""
    path = tmp_path / "third-jack.json"
    path.write_text(json.dumps(record(HANDS, _moves("revised", False), edition="revised", teams=TEAMS)))
    return str(path)


def test_replay_no_fast_road_judges_by_the_decider_alone(tmp_path, monkeypatch):
    game = "el-royale"
    spied = _spied(game)
    path = _record_file(tmp_path)
    monkeypatch.setenv("ARBITER_FAST_ROAD", "1")  # restored after the test: the command sets it in its process
    with registered(game, dataclasses.replace(SPECS[game], fast_replay=spied.road)):
        plain = CliRunner().invoke(main, ["replay", "--json", path])
        assert plain.exit_code == 0 and spied.calls
        spied.calls = 0
        off = CliRunner().invoke(main, ["replay", "--json", "--no-fast-road", path])
        assert off.exit_code == 0 and spied.calls == 0
        assert os.environ["ARBITER_FAST_ROAD"] == "0"
    assert json.loads(off.output) == json.loads(plain.output) == slow_replay(parse(json.loads(Path(path).read_text()))).verdict()
    assert json.loads(off.output)["status"] == "in_progress"


def test_the_installed_command_takes_the_option_and_the_setting(arbiter_bin, tmp_path):
    path = _record_file(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_FAST_ROAD"}
    outs = []
    for args, extra in ((["--json"], {}), (["--json", "--no-fast-road"], {}), (["--json"], {"ARBITER_FAST_ROAD": "0"})):
        done = subprocess.run([arbiter_bin, "replay", *args, path], capture_output=True, text=True, timeout=120,
                              env={**env, **extra})
        assert done.returncode == 0, done.stderr
        outs.append(json.loads(done.stdout))
    assert outs[0] == outs[1] == outs[2] and outs[0]["status"] == "in_progress"
    help_text = subprocess.run([arbiter_bin, "replay", "--help"], capture_output=True, text=True, timeout=120).stdout
    assert "--no-fast-road" in help_text and "ARBITER_FAST_ROAD=0" in help_text
