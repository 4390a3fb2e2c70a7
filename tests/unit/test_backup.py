"""`arbiter backup`: a copy of a SQLite store, the directories of its path made when missing, and every refusal
a clear message with exit 2, never a traceback (docs/evidence.md, "Backups")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli import main
from service.application import Referee


def run(*args: str):
    """`arbiter ARGS` in process; the command must never end in an uncaught exception."""
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    return result


@pytest.fixture
def store(tmp_path) -> str:
    """The URL of an (empty) SQLite event store."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    Referee(url).close()
    return url


def test_backup_creates_the_missing_directories_of_its_path_and_says_so(store, tmp_path):
    target = tmp_path / "backups" / "daily" / "games.db"
    result = run("backup", str(target), "--database-url", store)
    assert result.exit_code == 0, result.output
    assert sqlite3.connect(target).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert f"created the directory {tmp_path / 'backups'}" in result.stdout
    assert f"created the directory {tmp_path / 'backups' / 'daily'}" in result.stdout
    assert "backed up 0 game(s)" in result.stdout


def test_backup_into_a_relative_directory_that_does_not_exist_succeeds(store, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("backup", "backups/games.db", "--database-url", store)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "backups" / "games.db").is_file()
    assert "created the directory backups" in result.stdout


def test_backup_into_an_existing_directory_creates_no_directory_and_says_nothing_of_one(store, tmp_path):
    result = run("backup", str(tmp_path / "copy.db"), "--database-url", store)
    assert result.exit_code == 0, result.output
    assert "created the directory" not in result.stdout


def test_backup_refuses_an_existing_target_with_exit_2_and_no_traceback(store, tmp_path):
    target = tmp_path / "copy.db"
    target.write_bytes(b"keep me")
    result = run("backup", str(target), "--database-url", store)
    assert result.exit_code == 2
    assert "already exists (use --force to replace it)" in result.stderr and "Traceback" not in result.output
    assert target.read_bytes() == b"keep me"


def test_backup_refuses_a_path_under_a_file_with_exit_2_and_leaves_no_directory_behind(store, tmp_path):
    (tmp_path / "plain-file").write_text("not a directory")
    result = run("backup", str(tmp_path / "plain-file" / "sub" / "games.db"), "--database-url", store)
    assert result.exit_code == 2
    assert "cannot create the directory" in result.stderr and "Traceback" not in result.output
    assert (tmp_path / "plain-file").read_text() == "not a directory"


def test_backup_refuses_a_missing_store_with_exit_2_and_creates_neither_store_nor_directory(tmp_path):
    result = run("backup", str(tmp_path / "backups" / "games.db"), "--database-url", f"sqlite:///{tmp_path / 'none.db'}")
    assert result.exit_code == 2
    assert "no event store at" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "backups").exists()


def test_backup_refuses_a_directory_it_cannot_write_with_exit_2_and_no_traceback(store, tmp_path, monkeypatch):
    def denied(*args, **kwargs):  # as a directory without write permission answers (root ignores a chmod)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("service.backup.tempfile.mkstemp", denied)
    result = run("backup", str(tmp_path / "new" / "games.db"), "--database-url", store)
    assert result.exit_code == 2
    assert f"{tmp_path / 'new'}: cannot write there (Permission denied)" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "new").exists(), "the directory made for the copy is removed again"
