"""`arbiter verify`'s table written to anything but a terminal (a pipe, a file): every column title whole, each game
on one line, whatever the width of the terminal the command was started from."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from api.cli.main import main
from service.facade import Arbiter
from service.play.new_games import CreateGame

TITLES = ("game", "chain", "checkpoint", "deal", "engine", "provenance")


@pytest.fixture
def stored_game(tmp_path, monkeypatch) -> tuple[str, str]:
    """(store URL, game id) of a SQLite store holding one El Royale game; no $COLUMNS set."""
    monkeypatch.delenv("COLUMNS", raising=False)
    url = f"sqlite:///{tmp_path / 'games.db'}"
    arbiter = Arbiter(url)
    try:
        created = arbiter.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"},
                                       "players": [{"name": f"P{i}"} for i in range(3)]}))
    finally:
        arbiter.app.close()
    return url, created["id"]


def header_line(output: str) -> str:
    return next(line for line in output.splitlines() if "game" in line and "chain" in line)


def test_verify_written_to_a_pipe_prints_every_column_title_whole_and_each_game_on_one_line(stored_game):
    url, game_id = stored_game
    result = CliRunner().invoke(main, ["verify", game_id, "--database-url", url])  # its output is no terminal
    assert result.exit_code == 0, result.output
    header = header_line(result.stdout)
    cells = [cell.strip() for cell in header.strip("┃ ").split("┃")]
    assert cells == list(TITLES), header
    assert "…" not in result.stdout
    [row] = [line for line in result.stdout.splitlines() if game_id in line]
    assert "matches checkpoint 1" in row and "pending: the seed is revealed when the game ends" in row


def test_verify_to_a_pipe_keeps_to_columns_when_they_are_set(stored_game, monkeypatch):
    """$COLUMNS still sets the width (rich's own rule), titles cut or not."""
    url, game_id = stored_game
    monkeypatch.setenv("COLUMNS", "100")
    result = CliRunner().invoke(main, ["verify", game_id, "--database-url", url])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 100
