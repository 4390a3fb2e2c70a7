"""Several hosts on one PostgreSQL store share their evidence through the database only: one checkpoint log (a table in
the store's evidence schema, written under a role that may only INSERT and SELECT) and one signing key (a file given
to each host; its public half pinned in the database). A host with another key, or with none where the store pins
one, refuses to serve; `arbiter verify --all` on a machine holding only the URL and the public key checks every game
against the one log (docs/evidence.md)."""

from __future__ import annotations

import shutil

import psycopg
import pytest
from click.testing import CliRunner
from psycopg import errors, sql

from api.cli.main import main
from domain.attempts import attempts_id
from service.errors import IllegalMove
from service.evidence.pinning import KeyMismatch
from service.evidence.keys import ServerKey, load_or_create
from tests.integration.evidence_support import new_table, truncate
from tests.integration.service_support import RawEvents
from service.play.commands import PlayMove


@pytest.fixture
def store(stores):
    """(url, base url, store schema) of a fresh PostgreSQL store."""
    url = stores.url("postgres")
    base, _, query = url.partition("?")
    return url, base, query.split("schema=")[1]


@pytest.fixture
def two_hosts(store, facades, tmp_path):
    """Two facades ("hosts") on one store, each with its own folder holding a copy of the same key file."""
    url = store[0]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    load_or_create(tmp_path / "a" / "signing.key")
    shutil.copy(tmp_path / "a" / "signing.key", tmp_path / "b" / "signing.key")
    a = facades(url, key_file=str(tmp_path / "a" / "signing.key"))
    b = facades(url, key_file=str(tmp_path / "b" / "signing.key"))
    return a, b


def log_rows(base: str, schema: str) -> list[tuple[int, str]]:
    with psycopg.connect(base, autocommit=True) as conn:
        return conn.execute(sql.SQL("SELECT seq, line FROM {} ORDER BY seq").format(
            sql.Identifier(f"{schema}_evidence", "checkpoints"))).fetchall()


def cli(*args: str, env: dict | None = None):
    result = CliRunner().invoke(main, list(args), env=env)
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def serve_refused(url: str, key_file) -> tuple[int, str]:
    """`arbiter serve` with a key file, which it passes to its workers through the environment: given here as the
    environment, so that the runner puts the test process's environment back after."""
    return cli("serve", "--database-url", url, "--port", "0", env={"ARBITER_KEY_FILE": str(key_file)})


def test_two_hosts_with_the_same_key_file_share_one_log_and_verify_each_other_s_receipts(two_hosts, store):
    a, b = two_hosts
    url, base, schema = store
    table = new_table(a, 3).play(4)
    token, body = _legal(b, table)
    moved_on_b = b.play.move(token, PlayMove.from_body(table.id, body))["receipt"]
    table.arbiter = b
    table.play(12)

    assert b.evidence.verify_receipt(table.receipts[0])["status"] == "intact"  # issued by host a
    assert a.evidence.verify_receipt(moved_on_b)["status"] == "intact"
    rows = log_rows(base, schema)
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 2
    assert a.evidence.log_report()["ok"] is True and b.evidence.log_report()["lines"] == len(rows)
    assert a.evidence.public_key()["key_id"] == b.evidence.public_key()["key_id"]


def _legal(arbiter, table):
    from tests.integration.service_support import pick, raw_move
    import random

    move = pick(arbiter.app.game(table.gid), random.Random(3))
    return table.tokens[move["seat"]], raw_move(move)


def test_a_host_with_another_key_refuses_naming_both_key_ids(two_hosts, store, facades, tmp_path):
    a, _ = two_hosts
    new_table(a, 3)
    pinned = a.evidence.public_key()["key_id"]
    other = ServerKey.generate()
    (tmp_path / "c").mkdir()
    other_file = tmp_path / "c" / "signing.key"
    other_file.write_bytes(_pem(other))

    with pytest.raises(KeyMismatch) as refused:
        facades(store[0], key_file=str(other_file)).evidence.public_key()
    assert other.id in str(refused.value) and pinned in str(refused.value)
    from api import create_app

    with pytest.raises(KeyMismatch):
        create_app({"DATABASE_URL": store[0], "KEY_FILE": str(other_file)})
    code, output = serve_refused(store[0], other_file)
    assert code == 2 and "refusing to serve" in output and other.id in output and pinned in output, output


def test_a_host_without_its_key_file_on_a_pinned_store_refuses_and_creates_none(two_hosts, store, facades, tmp_path):
    a, _ = two_hosts
    new_table(a, 3)
    missing = tmp_path / "d" / "signing.key"

    with pytest.raises(KeyMismatch) as refused:
        facades(store[0], key_file=str(missing)).evidence.public_key()
    assert a.evidence.public_key()["key_id"] in str(refused.value) and not missing.exists()
    code, output = serve_refused(store[0], missing)
    assert code == 2 and a.evidence.public_key()["key_id"] in output and not missing.exists()


@pytest.mark.parametrize("statement", ["UPDATE {} SET line = 'x'", "DELETE FROM {}", "TRUNCATE {}"])
def test_the_writer_role_may_not_update_or_delete_the_log(two_hosts, store, statement):
    a, _ = two_hosts
    new_table(a, 3)
    base, schema = store[1], store[2]
    with psycopg.connect(base) as conn:
        conn.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(f"{schema}_evidence_writer")))
        with pytest.raises(errors.InsufficientPrivilege):
            conn.execute(sql.SQL(statement).format(sql.Identifier(f"{schema}_evidence", "checkpoints")))
    assert len(log_rows(base, schema)) >= 1


def test_verify_all_with_only_the_url_and_the_public_key_exits_0_then_1_for_each_deleted_row(
        two_hosts, store, tmp_path):
    a, b = two_hosts
    url, base, schema = store
    tables = [new_table(a, 3).play(25), new_table(b, 3).play(12), new_table(a, 4).play(6)]
    seat = a.app.game(tables[2].gid).state.to_act
    with pytest.raises(IllegalMove):
        a.play.move(tables[2].tokens[(seat + 1) % 4], PlayMove.from_body(tables[2].id, {"type": "pass"}))
    tables[2].play(14)  # a checkpoint after the refusal signs it
    public = a.evidence.public_key()["public_key"]
    elsewhere = {"ARBITER_STATE_DIR": str(tmp_path / "fourth"), "ARBITER_KEY_FILE": None}

    assert cli("verify", "--all", "--database-url", url, env=elsewhere)[0] == 1  # no key: the log cannot be checked
    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public, env=elsewhere)
    assert code == 0, output

    raw = RawEvents("postgres", url)  # an attempts row deleted
    raw.delete(attempts_id(tables[2].gid), 2)
    raw.close()
    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public, env=elsewhere)
    assert code == 1 and tables[2].id in output, output

    truncate("postgres", url, tables[0].gid, 12)  # event rows deleted
    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public, env=elsewhere)
    assert code == 1 and f"{tables[0].id}: store at version 12" in output, output

    with psycopg.connect(base, autocommit=True) as conn:  # a (non-final) checkpoint row deleted, as the owner can
        conn.execute(sql.SQL("DELETE FROM {} WHERE seq = 2").format(sql.Identifier(f"{schema}_evidence", "checkpoints")))
    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public, env=elsewhere)
    assert code == 1 and "BROKEN at line 2" in output, output


def test_an_explicit_checkpoint_log_file_still_serves_a_postgresql_store(store, facades, tmp_path):
    log = tmp_path / "checkpoints.jsonl"
    arbiter = facades(store[0], key_file=str(tmp_path / "k.key"), checkpoint_log=str(log))
    new_table(arbiter, 3)
    assert log.read_text().count("\n") == 1 and arbiter.evidence.log_report()["path"] == str(log)


def _pem(key: ServerKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key._private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())


def test_checkpoints_appended_at_once_by_two_hosts_and_their_threads_make_one_unbroken_log(two_hosts, store):
    from concurrent.futures import ThreadPoolExecutor
    from uuid import UUID

    a, b = two_hosts

    def append(i: int) -> None:
        (a if i % 2 else b).evidence.checkpoint(UUID(int=i + 1), i + 1, "ab" * 32, "every")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(append, range(60)))

    rows = log_rows(store[1], store[2])
    assert [seq for seq, _ in rows] == list(range(1, 61))
    assert a.evidence.log_report()["ok"] is True and a.evidence.log_report()["lines"] == 60


def test_the_checkpoints_route_serves_the_table_log(two_hosts, store, tmp_path):
    from api import create_app

    a, _ = two_hosts
    table = new_table(a, 3)
    app = create_app({"DATABASE_URL": store[0], "KEY_FILE": str(tmp_path / "b" / "signing.key")})
    answer = app.test_client().get(f"/api/v1/checkpoints?game={table.id}")
    assert answer.status_code == 200, answer.json
    assert answer.json["log"]["ok"] is True and "path" not in answer.json["log"]
    assert [c["reason"] for c in answer.json["checkpoints"]] == ["created"]
    app.extensions["arbiter"].app.close()


def test_the_file_log_a_postgresql_store_kept_before_is_read_and_adopted_by_the_table(store, facades, tmp_path):
    from service.evidence.facade import default_paths

    url = store[0]
    key = str(tmp_path / "k.key")
    _, old_log = default_paths(url)
    before = facades(url, key_file=key, checkpoint_log=str(old_log))  # as served before the log became a table
    old = new_table(before, 3).play(12)
    old_lines = old_log.read_bytes().splitlines()

    after = facades(url, key_file=key)
    assert after.evidence.log_report()["lines"] == len(old_lines) and after.verification.verify(old.id)["checkpoint"]["finding"] == "intact"
    new_table(after, 3)
    rows = log_rows(store[1], store[2])
    assert [line.encode() for _, line in rows[:len(old_lines)]] == old_lines and len(rows) == len(old_lines) + 1
    assert facades(url, key_file=key).evidence.log_report()["ok"] is True
    assert facades(url, key_file=key).verification.verify(old.id)["checkpoint"]["finding"] == "intact"


def test_a_host_whose_login_may_not_make_the_evidence_schema_is_refused_with_the_statements_to_run(store):
    url, base, schema = store
    login = f"ev_login_{schema[-8:]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(login)))
    try:
        weak = url.replace("postgres@", f"{login}@", 1)
        code, output = cli("serve", "--database-url", weak, "--port", "0")
        assert code == 2 and "refusing to serve" in output and f"cannot be set up as {login}" in output, output
        assert f"Have an administrator run: CREATE SCHEMA {schema}_evidence;" in output
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(login)))


def test_a_restored_store_without_its_evidence_schema_says_so_and_is_checked_against_the_live_log_written_out(
        two_hosts, store, tmp_path):
    a, _ = two_hosts
    url, base, schema = store
    table = new_table(a, 3).play(12)
    live = tmp_path / "live.checkpoints.jsonl"
    live.write_bytes(b"".join(line.encode() + b"\n" for _, line in log_rows(base, schema)))
    public = a.evidence.public_key()["public_key"]
    a.app.close()
    with psycopg.connect(base, autocommit=True) as conn:  # as pg_dump --schema=<store schema> restores it
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(f"{schema}_evidence")))

    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public)
    assert code == 0 and "checkpoint log: none in the database" in output, output
    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public, "--checkpoint-log", str(live))
    assert code == 0 and "checkpoint log: ok" in output, output
    truncate("postgres", url, table.gid, 5)
    code, output = cli("verify", "--all", "--database-url", url, "--public-key", public, "--checkpoint-log", str(live))
    assert code == 1 and f"{table.id}: store at version 5" in output, output
