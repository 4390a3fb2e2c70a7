"""Nothing secret or generated is ever committed: what arbiter's commands leave in a working folder (the store, its
private signing key, the checkpoint log, the write lock, backups, simulation runs, reports) is ignored by the
repository's .gitignore, so one `git add -A` cannot publish the key."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.conftest import ROOT, sample_records


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_what_arbiter_writes_in_a_checkout_is_ignored_by_git(arbiter_bin, tmp_path):
    folder = tmp_path / "checkout"
    folder.mkdir()
    run(["git", "init", "-q"], folder)
    shutil.copy(ROOT / ".gitignore", folder / ".gitignore")
    record = sample_records("small-battle")[0]
    steps = [
        [arbiter_bin, "import", str(record)],  # creates arbiter.db, its key, its checkpoint log and write lock
        [arbiter_bin, "verify", "--all"],
        [arbiter_bin, "backup", "backups/games.db"],
        [arbiter_bin, "simulate", "--game", "small-battle", "--players", "2", "--games", "2", "--workers", "1",
         "--out", "runs/sb.jsonl", "--html", "sb.html"],
        [arbiter_bin, "report", "runs/sb.jsonl", "--html", "report.html"],
    ]
    (folder / "backups").mkdir()  # the backup command's own folder handling is tested with the command
    for step in steps:
        done = run(step, folder)
        assert done.returncode in (0, 1), (step, done.stderr[-2000:])
    made = {p.name for p in folder.iterdir()} - {".git", ".gitignore"}
    assert {"arbiter.db", "arbiter.db.key", "arbiter.db.checkpoints.jsonl", "runs", "backups", "sb.html"} <= made
    status = run(["git", "status", "--porcelain", "--untracked-files=all"], folder).stdout.splitlines()
    assert status == ["?? .gitignore"], status


def test_the_gitignore_keeps_what_the_repository_ships():
    """The patterns do not hide the project's own files: nothing tracked is ignored (templates, reports in docs/,
    sample records and their archives stay committable)."""
    done = run(["git", "ls-files", "--cached", "--ignored", "--exclude-standard"], ROOT)
    assert done.returncode == 0 and done.stdout == "", done.stdout
