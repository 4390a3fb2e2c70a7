"""`arbiter verify`: a stored game's chain, fair deal and replay under the current engine, from the command line."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from api.cli.main import main
from service.play.referee import Referee
from service.errors import BadInput
from service.facade import Arbiter
from tests.integration.service_support import new_game, play, play_to_end
from tests.conftest import sample_records
from service.play.new_games import ImportRecord


def _verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


def _stored_games(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    app = Referee(url)
    finished = new_game(app, n=3, seed=None, options={"edition": "revised", "battle_limit": 3})
    play_to_end(app, finished)
    running = new_game(app, n=4, seed=None)
    play(app, running, 30)
    return url, app, finished, running


def test_verify_of_a_finished_game_reports_an_intact_chain_a_fair_deal_and_the_same_outcome(tmp_path):
    """A game played under this engine: chain ok, deal fair (seed drawn by arbiter, revealed), same outcome; exit 0."""
    url, _, finished, _ = _stored_games(tmp_path)
    result = _verify(str(finished), "--database-url", url, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["chain"]["ok"] and report["deal"]["fair"] is True and report["engine"]["same"] is True


def test_verify_all_checks_every_stored_game_and_exits_1_when_one_was_tampered_with(tmp_path):
    """--all re-verifies each game; a changed stored row makes that game's chain broken and the exit code 1."""
    url, app, finished, running = _stored_games(tmp_path)
    clean = _verify("--all", "--database-url", url, "--json")
    assert clean.exit_code == 0, clean.output
    assert {json.loads(line)["id"] for line in clean.output.splitlines()} == {str(finished), str(running)}

    db = sqlite3.connect(str(tmp_path / "games.db"))
    row = db.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? AND originator_version = 10",
                     (running.hex,)).fetchone()
    if row is None:  # ids stored as text with dashes
        row = db.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? AND originator_version = 10",
                         (str(running),)).fetchone()
        key = str(running)
    else:
        key = running.hex
    original = bytes(row[1])
    at = original.index(b'"prev":"') + len(b'"prev":"')
    state = original[:at] + (b"0" if original[at:at + 1] != b"0" else b"1") + original[at + 1:]  # event 10's link
    assert state != original
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 10", (state, key))
    db.commit()
    db.close()

    broken = _verify("--all", "--database-url", url, "--json")
    assert broken.exit_code == 1, broken.output
    reports = {r["id"]: r for r in map(json.loads, broken.output.splitlines())}
    assert reports[str(finished)]["chain"]["ok"] is True
    assert reports[str(running)]["chain"]["ok"] is False and reports[str(running)]["chain"]["broken_at"] == 10


def test_verify_without_a_game_or_with_an_unknown_one_explains_itself(tmp_path):
    """No GAME_ID nor --all is a usage error; an unknown id exits 2 with one line, no traceback."""
    url, *_ = _stored_games(tmp_path)
    assert _verify("--database-url", url).exit_code == 2
    unknown = _verify("00000000-0000-0000-0000-000000000000", "--database-url", url)
    assert unknown.exit_code == 2 and "no game" in unknown.output and "Traceback" not in unknown.output


def test_verify_prints_a_readable_table_without_json(tmp_path):
    """Without --json the referee gets a table naming the chain, the deal and the engine check."""
    url, _, finished, _ = _stored_games(tmp_path)
    result = _verify(str(finished), "--database-url", url)
    assert result.exit_code == 0 and "fair" in result.output and "1 game(s) checked, 0 with problems" in result.output


def test_verify_all_of_imported_records_reports_their_provenance_and_exits_0(tmp_path):
    """Records whose creator chose the seed or stacked the deck are provenance, not tampering: exit 0, provenance listed."""
    url = f"sqlite:///{tmp_path / 'imported.db'}"
    arbiter = Arbiter(url)
    imported = 0
    for path in sample_records(shared_too=True):  # the shared ones too, where they are beside the checkout
        try:
            arbiter.play.import_record(ImportRecord.from_body(json.loads(path.read_text())))
        except BadInput:
            continue  # an invalid record imports nothing
        imported += 1
    assert imported >= 20

    result = _verify("--all", "--database-url", url, "--json")

    assert result.exit_code == 0, [r for r in map(json.loads, result.output.splitlines()) if not r["ok"]][:2]
    reports = [json.loads(line) for line in result.output.splitlines()]
    assert len(reports) == imported and all(r["ok"] for r in reports)
    stacked = [r for r in reports if r["deal"]["stacked"]]
    assert stacked and all("stacked deck: the creator fixed the deck" in r["provenance"] for r in stacked)
    assert all(r["deal"]["fair"] is not True for r in stacked), "a stacked game is never called fair"
    given = [r for r in reports if r["deal"]["seed_given"]]
    assert given and all("seed chosen by the creator" in r["provenance"] for r in given)
    table = _verify("--all", "--database-url", url)
    assert table.exit_code == 0 and f"{imported} game(s) checked, 0 with problems" in table.output
    assert "provenance, not a problem" in table.output
def test_verify_all_refuses_a_store_that_does_not_exist_and_creates_nothing(tmp_path, monkeypatch):
    """Run in a directory without arbiter.db: exit 2 naming the missing store and how to name one; no file appears."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBITER_DATABASE_URL", raising=False)
    result = _verify("--all")
    assert result.exit_code == 2, result.output
    assert f"no event store at {tmp_path / 'arbiter.db'}" in result.output and "--database-url" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_verify_all_with_create_store_starts_an_empty_store_and_finds_no_game(tmp_path):
    """--create-store is the explicit way to start an empty store: zero games checked, exit 0."""
    url = f"sqlite:///{tmp_path / 'new.db'}"
    result = _verify("--all", "--database-url", url, "--create-store")
    assert result.exit_code == 0, result.output
    assert "0 game(s) checked" in result.output and (tmp_path / "new.db").exists()
