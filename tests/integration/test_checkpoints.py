"""Signed checkpoints: the server appends (game, version, head, time) to a signed, hash-chained log kept apart
from the event store, so `arbiter verify --all` detects a truncated game, a deleted game and a rolled-back
database even when nobody kept a receipt; and a tampered log is itself detected (docs/evidence.md).

Every tamper is done behind the service's back (SQLite file, PostgreSQL schema, the log file) and checked by
a fresh facade and by `arbiter verify --all`: a clear message, exit 1, no traceback, and the games nobody
touched still reported intact.
"""

from __future__ import annotations

import json
import re
import shutil
import stat
from pathlib import Path

import pytest

from service.evidence.keys import KeyFileError, ServerKey, canonical
from service.evidence.checkpoints import leaf_hex
from tests.integration.evidence_support import SHORT, delete_game, new_table, truncate, verify_all
from tests.integration.service_support import RawEvents

STORES = ["sqlite", "postgres"]


@pytest.fixture(params=STORES)
def games(request, stores, facades):
    """(kind, url, {finished, running, bystander}) played through the facade on a fresh store of each kind."""
    kind, url = request.param, stores.url(request.param)
    arbiter = facades(url)
    tables = {"finished": new_table(arbiter, 3, SHORT).play_to_end(), "running": new_table(arbiter, 4).play(30),
              "bystander": new_table(arbiter, 3).play(12)}
    assert not tables["running"].over() and not tables["bystander"].over()
    assert all(t.version < 100 for t in tables.values()), "no snapshot: truncating events is the whole tamper"
    return kind, url, tables


def latest_checkpoint(arbiter, table) -> dict:
    return arbiter.evidence.checkpoints(limit=1000, game=table.id)[-1]


def assert_detected(facades, url, table, finding: str, *words: str) -> dict:
    """The game's verification through a fresh facade names the finding; returns its report."""
    report = facades(url).verification.verify(table.id)
    assert report["chain"]["ok"] is False, report
    assert report["checkpoint"]["ok"] is False and report["checkpoint"]["finding"] == finding, report["checkpoint"]
    for word in words:
        assert word in report["checkpoint"]["status"], report["checkpoint"]["status"]
    return report


def assert_intact(facades, url, *tables) -> None:
    for table in tables:
        report = facades(url).verification.verify(table.id)
        assert report["chain"]["ok"] is True and report["checkpoint"]["finding"] == "intact", report


def assert_verify_all_fails(url, *words: str) -> str:
    code, output, exception = verify_all(url)
    assert code == 1, output
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    assert "Traceback" not in output
    flat = " ".join(output.split())
    for word in words:
        assert word in flat, output
    return output


# ------------------------------------------------------------------------------------------------ cadence


def test_a_game_is_checkpointed_when_created_every_10_versions_and_when_it_ends(facades, stores):
    arbiter = facades(stores.url("sqlite"))
    running, finished = new_table(arbiter, 4).play(30), new_table(arbiter, 3, SHORT).play_to_end()

    reasons = [(c["reason"], c["version"]) for c in arbiter.evidence.checkpoints(limit=1000, game=running.id)]
    assert reasons[0] == ("created", running.receipts[0]["version"])
    every = [v for reason, v in reasons if reason == "every"]
    assert every and all(b // 10 > a // 10 for a, b in zip(every, every[1:])), reasons
    assert running.version - every[-1] < 10 + 8, "a move writes a few events: the latest is at most one move past N"
    final = latest_checkpoint(arbiter, finished)
    assert final["reason"] == "end" and final["version"] == finished.version and final["head"] == finished.receipts[-1]["head"]
    log = arbiter.evidence.log_report()
    assert log["ok"] is True and log["lines"] == len(arbiter.evidence.checkpoints(limit=1000))


def test_an_untampered_store_verifies_against_its_checkpoints_and_exits_0(games, facades):
    kind, url, tables = games
    assert_intact(facades, url, *tables.values())
    code, output, _ = verify_all(url)
    assert code == 0 and "checkpoint log: ok" in " ".join(output.split()), output


# ------------------------------------------------------------------------------------------------ the tamper matrix


def test_deleting_the_last_events_of_a_running_game_back_past_its_checkpoint_is_detected_as_truncation(games, facades):
    kind, url, tables = games
    running = tables["running"]
    signed = latest_checkpoint(facades(url), running)["version"]
    truncate(kind, url, running.gid, signed - 1)

    assert_detected(facades, url, running, "truncated", f"store ends at version {signed - 1}", f"signed version {signed}")
    assert_intact(facades, url, tables["finished"], tables["bystander"])
    assert_verify_all_fails(url, "truncated", running.id, "1 with problems")


def test_deleting_only_the_last_event_of_a_running_game_is_detected_when_every_version_is_checkpointed(stores, facades):
    """Inside the window between two checkpoints only receipts show a truncation; with CHECKPOINT_EVERY=1 there is none."""
    url = stores.url("sqlite")
    arbiter = facades(url, checkpoint_every=1)
    running, bystander = new_table(arbiter, 4).play(20), new_table(arbiter, 3).play(5)
    last = running.version
    truncate("sqlite", url, running.gid, last - 1)

    assert_detected(facades, url, running, "truncated", f"signed version {last}")
    assert_intact(facades, url, bystander)


def test_deleting_the_last_event_of_a_finished_game_is_detected_as_truncation(games, facades):
    kind, url, tables = games
    finished = tables["finished"]
    last = finished.version
    truncate(kind, url, finished.gid, last - 1)

    assert_detected(facades, url, finished, "truncated", f"store ends at version {last - 1}", f"signed version {last}")
    assert_intact(facades, url, tables["running"], tables["bystander"])
    assert_verify_all_fails(url, "truncated", "1 with problems")


def test_deleting_a_whole_game_is_detected_and_the_game_is_still_listed(games, facades):
    kind, url, tables = games
    gone = tables["running"]
    delete_game(kind, url, gone.gid)

    fresh = facades(url)
    assert gone.id in fresh.verification.game_ids(), "verify --all lists a game the checkpoint log knows and the store lost"
    assert_detected(facades, url, gone, "deleted", "holds no event of this game")
    assert_intact(facades, url, tables["finished"], tables["bystander"])
    assert_verify_all_fails(url, "deleted", gone.id)


def _copy_store(kind: str, url: str, tmp_path, facade):
    """An older copy of the store: `arbiter backup` for SQLite; for PostgreSQL the rows themselves, as a dump keeps them."""
    if kind == "sqlite":
        target = tmp_path / "older.db"
        done = facade.evidence.backup(str(target))
        assert done["games"] == 3
        return target
    raw = RawEvents(kind, url)
    try:
        return raw._run(f"SELECT originator_id, originator_version, topic, state FROM {raw.table}").fetchall()
    finally:
        raw.close()


def _restore_store(kind: str, url: str, copy) -> None:
    """Put the older copy back in place of the store."""
    if kind == "sqlite":
        db = Path(url[len("sqlite:///"):])
        for suffix in ("-wal", "-shm"):  # the live database's write-ahead log belongs to the newer state
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(copy, db)
        return
    raw = RawEvents(kind, url)
    try:
        raw._run(f"DELETE FROM {raw.table}")
        for row in copy:
            raw._run(f"INSERT INTO {raw.table} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)", *row)
    finally:
        raw.close()


def test_restoring_an_older_copy_of_the_database_is_reported_as_a_rollback_with_the_games_and_versions_lost(
        games, facades, tmp_path):
    kind, url, tables = games
    arbiter = facades(url)
    copy = _copy_store(kind, url, tmp_path, arbiter)
    running = tables["running"]
    before = running.version
    running.play(25, rng_seed=11)
    later = new_table(arbiter, 3).play(4)
    assert latest_checkpoint(arbiter, running)["version"] > before, "a checkpoint was signed after the copy"
    facades.close()  # a database is restored with the service stopped
    _restore_store(kind, url, copy)

    assert_detected(facades, url, running, "truncated", f"store ends at version {before}")
    assert_detected(facades, url, later, "deleted")
    assert_intact(facades, url, tables["finished"], tables["bystander"])
    output = assert_verify_all_fails(url, "the store is behind the checkpoint log", "2 game(s) lost signed versions",
                                     f"{running.id}: store at version {before}", f"{later.id}: store at version 0")
    assert "2 with problems" in " ".join(output.split())


# ------------------------------------------------------------------------------------------------ the log itself


def _log(url: str):
    return url[len("sqlite:///"):] + ".checkpoints.jsonl"


def _edit_line(lines: list[bytes], index: int) -> None:
    doc = json.loads(lines[index])
    doc["version"] += 1  # still a checkpoint, still canonical JSON: only the signature can tell
    lines[index] = canonical(doc)


def _flip_signature(lines: list[bytes], index: int) -> None:
    doc = json.loads(lines[index])
    doc["signature"] = ("0" if doc["signature"][0] != "0" else "1") + doc["signature"][1:]
    lines[index] = canonical(doc)


def _forge_line(lines: list[bytes], index: int) -> None:
    """Line `index` re-signed by another key, its chain kept intact (`prev` and every later `prev` recomputed)."""
    other = ServerKey.generate()
    doc = json.loads(lines[index])
    lines[index] = canonical(other.sign({k: v for k, v in doc.items() if k not in ("key", "signature")}))
    for i in range(index + 1, len(lines)):
        later = json.loads(lines[i])
        later["prev"] = leaf_hex(lines[i - 1])
        lines[i] = canonical(later)


TAMPERS = {  # what is done to the log: (tamper, the line reported broken (1-based, of the 10-line log), words)
    "edited line": (lambda lines: _edit_line(lines, 4), 5, "bad signature"),
    "removed line": (lambda lines: lines.pop(4), 5, "a line was removed"),
    "reordered lines": (lambda lines: lines.insert(3, lines.pop(6)), 4, "a line was removed, inserted or moved"),
    "bad signature": (lambda lines: _flip_signature(lines, 9), 10, "bad signature"),
    "line of another key": (lambda lines: _forge_line(lines, 2), 3, "this server's key is"),
    "line that is not JSON": (lambda lines: lines.__setitem__(6, lines[6][:40]), 7, "is not JSON"),
}


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_checkpoint_log_is_detected_at_the_line_and_fails_the_game_whose_line_it_was(stores, facades, tamper):
    """Lines moved: every game fails (what follows cannot be trusted); a line deleted or altered: the game whose line
    it was fails, named by the line after it (or, when nothing names it, every game its line may have held)."""
    url = stores.url("sqlite")
    arbiter = facades(url, checkpoint_every=2)  # more than 10 lines whatever the random deal
    tables = [new_table(arbiter, 4).play(30), new_table(arbiter, 3).play(12)]
    path = _log(url)
    with open(path, "rb") as f:
        lines = f.read().splitlines()
    lines = lines[:10]
    assert len(lines) == 10
    with open(path, "wb") as f:
        f.write(b"".join(line + b"\n" for line in lines))
    assert facades(url).evidence.log_report()["ok"] is True
    change, line, words = TAMPERS[tamper]
    hit = json.loads(lines[line - 1])["game"]
    change(lines)
    with open(path, "wb") as f:
        f.write(b"".join(line + b"\n" for line in lines))

    log = facades(url).evidence.log_report()

    assert log["ok"] is False and log["broken_at"] == line, log
    assert words in log["problem"], log["problem"]
    for table in tables:
        checkpoint = facades(url).verification.verify(table.id)["checkpoint"]
        if tamper == "reordered lines":
            assert checkpoint["ok"] is False and f"checkpoint log is broken at line {line}" in checkpoint["status"]
        elif table.id == hit:
            assert checkpoint["ok"] is False and re.search(rf"\blines? {line}\b", checkpoint["status"]), checkpoint
    assert_verify_all_fails(url, "BROKEN", f"line {line}")


# ------------------------------------------------------------------------------------------------ the key


def test_the_key_file_is_created_on_first_start_beside_the_database_with_a_message_and_kept_after(tmp_path, caplog):
    from api import create_app

    db = tmp_path / "games.db"
    key_file = tmp_path / "games.db.key"
    with caplog.at_level("WARNING", logger="arbiter.evidence"):
        first = create_app({"DATABASE_URL": f"sqlite:///{db}"})
    assert key_file.exists() and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert any("created a new signing key" in r.getMessage() and str(key_file) in r.getMessage() for r in caplog.records)
    key_id = first.test_client().get("/api/v1/keys").get_json()["key_id"]
    caplog.clear()
    with caplog.at_level("WARNING", logger="arbiter.evidence"):
        again = create_app({"DATABASE_URL": f"sqlite:///{db}"})
    assert not caplog.records, "a second start uses the key it finds"
    assert again.test_client().get("/api/v1/keys").get_json()["key_id"] == key_id


def test_the_key_file_and_the_log_go_where_the_configuration_says(tmp_path):
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'g.db'}", "KEY_FILE": str(tmp_path / "keys" / "arbiter.pem"),
                      "CHECKPOINT_LOG": str(tmp_path / "logs" / "checkpoints.jsonl")})
    client = app.test_client()
    created = client.post("/api/v1/games", json={"game": "el-royale", "players": [{"name": "North"}, {"name": "East"}]})
    assert created.status_code == 201
    assert (tmp_path / "keys" / "arbiter.pem").exists() and not (tmp_path / "g.db.key").exists()
    line = json.loads((tmp_path / "logs" / "checkpoints.jsonl").read_text().splitlines()[0])
    assert line["game"] == created.get_json()["id"] and line["reason"] == "created"


def test_a_key_file_that_is_not_a_key_is_refused_naming_the_file(tmp_path):
    from service.evidence.keys import load_or_create

    bad = tmp_path / "broken.key"
    bad.write_text("not a key")
    with pytest.raises(KeyFileError, match="broken.key"):
        load_or_create(bad)


def test_verification_never_creates_a_key(stores):
    url = stores.url("sqlite")
    stores.referee(url)  # the store exists (verify refuses one that does not), its key file does not
    code, output, _ = verify_all(url)
    assert code == 0, output
    assert not Path(url[len("sqlite:///"):] + ".key").exists()


def test_the_public_key_route_publishes_the_key_file_s_public_key_and_the_audit_page_shows_it(tmp_path):
    from cryptography.hazmat.primitives import serialization

    from api import create_app
    from tests.integration.api_support import CheckedClient

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'g.db'}"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    published = client.get("/api/v1/keys").get_json()
    private = serialization.load_pem_private_key((tmp_path / "g.db.key").read_bytes(), password=None)
    raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert published["public_key"] == raw.hex() and published["algorithm"] == "Ed25519"
    assert "PRIVATE" not in json.dumps(published)
    created = client.post("/api/v1/games", json={"game": "el-royale", "players": [{"name": "North"}, {"name": "East"}]}).get_json()
    client.get(f"/join/{created['id']}/{created['referee_token']}")
    page = client.get(f"/games/{created['id']}/audit").get_data(as_text=True)
    assert published["public_key"] in page and "Signed checkpoint" in page
