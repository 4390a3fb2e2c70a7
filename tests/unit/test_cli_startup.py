"""`arbiter replay` starts lean: verifying records imports neither the event store library, nor Flask, nor rich
(they cost start-up time on every run over an archive); the other commands are still listed and run."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from api.cli.main import main

from tests.conftest import RECORDS

SAMPLE = RECORDS / "el-royale" / "random-00-2p-classic.json"


def imported_by(*args: str) -> set[str]:
    code = "import sys\nfrom api.cli.main import main\nsys.argv = ['arbiter', *sys.argv[1:]]\ntry:\n    main()\n" \
           "except SystemExit:\n    pass\nprint('\\n'.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
    return {line.split(".")[0] for line in done.stdout.splitlines()}


def test_replay_json_imports_no_event_store_no_web_stack_and_no_rich():
    modules = imported_by("replay", "--json", str(SAMPLE))
    assert "domain" in modules
    assert not modules & {"eventsourcing", "flask", "rich", "psycopg", "gunicorn"}


def test_every_command_is_still_listed_and_a_lazy_one_runs():
    result = CliRunner().invoke(main, ["--help"])
    for name in ("replay", "export", "verify", "serve", "backup", "simulate", "report", "import"):
        assert f"  {name} " in result.output
    assert CliRunner().invoke(main, ["import", "--help"]).exit_code == 0
