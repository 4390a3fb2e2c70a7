"""`arbiter backup`: a copy of a SQLite store, the directories of its path made when missing, and every refusal
a clear message with exit 2, never a traceback (docs/evidence.md, "Backups")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli.main import main
from service.play.referee import Referee
from service.play.new_games import CreateGame


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

    monkeypatch.setattr("service.adapters.backup.tempfile.mkstemp", denied)
    result = run("backup", str(tmp_path / "new" / "games.db"), "--database-url", store)
    assert result.exit_code == 2
    assert f"{tmp_path / 'new'}: cannot write there (Permission denied)" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "new").exists(), "the directory made for the copy is removed again"


# ---------------------------------------------------------------- checking a copy: the log and key stay beside the original


@pytest.fixture
def store_with_a_game(tmp_path, monkeypatch) -> tuple[str, Path]:
    """(URL, directory) of a SQLite store in its own directory holding one game, so its checkpoint log has a line."""
    from service.facade import Arbiter

    monkeypatch.delenv("ARBITER_CHECKPOINT_LOG", raising=False)
    monkeypatch.delenv("ARBITER_KEY_FILE", raising=False)
    live = tmp_path / "live"
    live.mkdir()
    url = f"sqlite:///{live / 'games.db'}"
    arbiter = Arbiter(url)
    try:
        arbiter.play.create_game(CreateGame.from_body({"game": "el-royale", "players": [{"name": "N"}, {"name": "S"}]}))
    finally:
        arbiter.app.close()
    return url, live


def test_backup_copies_neither_the_checkpoint_log_nor_the_key_and_prints_how_to_check_the_copy_against_them(
        store_with_a_game, tmp_path):
    url, live = store_with_a_game
    copy = tmp_path / "backups" / "games.db"
    result = run("backup", str(copy), "--database-url", url)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in copy.parent.iterdir()) == ["games.db"], "the log and the key are kept apart"
    assert (f"arbiter verify --all --database-url sqlite:///{copy} --checkpoint-log {live / 'games.db.checkpoints.jsonl'} "
            f"--key-file {live / 'games.db.key'}") in result.stdout


def test_verify_all_of_a_copy_says_no_checkpoint_log_is_beside_it_and_how_to_give_the_originals(store_with_a_game, tmp_path):
    url, live = store_with_a_game
    copy = tmp_path / "backups" / "games.db"
    assert run("backup", str(copy), "--database-url", url).exit_code == 0
    result = run("verify", "--all", "--workers", "1", "--database-url", f"sqlite:///{copy}")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert f"checkpoint log: none beside this store ({copy}.checkpoints.jsonl): its 1 game(s) were not held" in out
    assert "A copy made by `arbiter backup` leaves the log (and the signing key) beside the original store" in out
    assert "--checkpoint-log" in out and "--key-file" in out
    assert "no game was checkpointed by this server" not in out


def test_verify_all_of_a_copy_against_the_originals_log_and_key_holds_its_games_to_their_checkpoints(
        store_with_a_game, tmp_path):
    url, live = store_with_a_game
    copy = tmp_path / "backups" / "games.db"
    assert run("backup", str(copy), "--database-url", url).exit_code == 0
    result = run("verify", "--all", "--workers", "1", "--json", "--database-url", f"sqlite:///{copy}",
                 "--checkpoint-log", str(live / "games.db.checkpoints.jsonl"), "--key-file", str(live / "games.db.key"))
    assert result.exit_code == 0, result.output
    [report] = [json.loads(line) for line in result.stdout.splitlines()]
    assert report["checkpoint"]["finding"] == "intact"


def test_a_game_of_a_store_without_a_checkpoint_log_is_reported_not_checked_for_want_of_a_log(store_with_a_game, tmp_path):
    url, live = store_with_a_game
    copy = tmp_path / "backups" / "games.db"
    assert run("backup", str(copy), "--database-url", url).exit_code == 0
    result = run("verify", "--all", "--workers", "1", "--json", "--database-url", f"sqlite:///{copy}")
    [report] = [json.loads(line) for line in result.stdout.splitlines()]
    assert report["checkpoint"]["finding"] == "none" and report["checkpoint"]["ok"] is None
    assert report["checkpoint"]["status"] == "not checked: there is no checkpoint log"


def test_the_missing_log_message_says_nothing_was_checkpointed_only_when_there_is_no_game():
    from api.cli.evidence import missing_log

    assert missing_log("x.jsonl", 0, False) == "checkpoint log: none at x.jsonl (no game was checkpointed by this server)"
    assert missing_log("x.jsonl", 2, True) == ("checkpoint log: none at x.jsonl (no such file, as given): the 2 game(s) "
                                               "of this store were not held against signed checkpoints")
    beside = missing_log("copy.db.checkpoints.jsonl", 2, False)
    assert beside.startswith("checkpoint log: none beside this store (copy.db.checkpoints.jsonl): its 2 game(s)")
    assert "--checkpoint-log" in beside and "--key-file" in beside


def test_the_missing_log_message_of_a_postgresql_store_says_how_to_check_a_restored_copy():
    from api.cli.evidence import missing_log

    message = missing_log("table s_evidence.checkpoints in PostgreSQL database db@h:5432", 2, False)
    assert message.startswith("checkpoint log: none in the database (table s_evidence.checkpoints")
    assert "--checkpoint-log FILE --public-key KEY" in message
