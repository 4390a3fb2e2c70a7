"""The console entry point's fast road (api/cli/main.py) for `arbiter replay FILES [--json]` prints what click's road prints,
with the same exit code, and leaves every other command line to click."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli.replay import plain_replay

from tests.conftest import RECORDS, sample_records

ROOT = Path(__file__).resolve().parents[2]
ER = sorted(str(p) for p in (RECORDS / "el-royale").glob("*.json"))  # records and their expected verdicts
RECORD_FILES = [str(p) for p in sample_records("el-royale")]
ANY_GAME = [str(p) for p in sample_records()]

REPORT = "import sys, atexit\natexit.register(lambda: print('click' in sys.modules, file=sys.stderr))\n"
ENTRY = REPORT + "from api.cli.main import main\nsys.argv = ['arbiter', *sys.argv[1:]]\nmain()\n"
CLICK = REPORT + "from api.cli.group import group\nsys.argv = ['arbiter', *sys.argv[1:]]\ngroup()\n"


def run(code: str, args: list[str], tmp_path: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])  # run from tmp_path: this tree first
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env=env)
    return done.returncode, done.stdout, done.stderr


def archive(tmp_path: Path) -> str:
    lines = [Path(p).read_text().replace("\n", " ") for p in RECORD_FILES[:6]]
    path = tmp_path / "few.jsonl"
    path.write_text("\n".join(lines + ["{not json", "[]", '{"format": "arbiter.record/1"}']) + "\n")
    return str(path)


CASES = [
    ["replay", "--json", *RECORD_FILES[:8]],
    ["replay", *RECORD_FILES[:3], "--json"],
    ["replay", *ER[:6], "--json"],  # expected verdicts skipped, with a line to stderr each
    ["replay", *ANY_GAME, "--json"],
    ["replay", "missing.json", "--json"],
    ["replay", RECORD_FILES[0]],  # the account, through narrate
    ["replay", "--json", "ARCHIVE"],
    ["replay", "ARCHIVE", RECORD_FILES[1], "--json"],
    # click's own: usage errors and help
    ["replay"], ["replay", "--json"], ["replay", "--help"], ["replay", ER[0]], ["replay", ".", "--json"],
    ["replay", "--json", "--json", RECORD_FILES[0]], ["replay", "--", RECORD_FILES[0]], ["replay", "-x", "a.json"],
    ["--help"], ["replay", "--jso", RECORD_FILES[0]],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(Path(a).name for a in c)[:60] for c in CASES])
def test_both_roads_print_the_same_and_exit_alike(args, tmp_path):
    args = [archive(tmp_path) if a == "ARCHIVE" else a for a in args]
    fast = run(ENTRY, args, tmp_path)
    slow = run(CLICK, args, tmp_path)
    assert fast[0] == slow[0] and fast[1] == slow[1]
    assert fast[2].splitlines()[:-1] == slow[2].splitlines()[:-1]  # stderr, but the line saying whether click loaded
    if plain_replay(args, environ={}) is not None:
        assert fast[2].endswith("False\n"), "the plain replay imported click"
    assert slow[2].endswith("True\n")


def test_plain_replay_takes_only_the_plain_form(tmp_path):
    record = RECORD_FILES[0]
    assert plain_replay(["replay", record], {}) == ([record], False)
    assert plain_replay(["replay", "--json", record, "x.jsonl"], {}) == ([record, "x.jsonl"], True)
    for args in (["replay"], ["replay", "--json"], ["verify", record], ["replay", "--help", record],
                 ["replay", "--json", "--json", record], ["replay", "--", record], ["replay", "-", record],
                 ["replay", str(tmp_path)], ["replay", ER[0]], ["replay", "", record], [record, "replay"]):
        assert plain_replay(args, {}) is None, args
    assert plain_replay(["replay", record], {"_ARBITER_COMPLETE": "bash_source"}) is None
    unreadable = tmp_path / "locked.json"
    unreadable.write_text("{}")
    unreadable.chmod(0)
    if not os.access(unreadable, os.R_OK):  # root reads anything
        assert plain_replay(["replay", str(unreadable)], {}) is None
