"""Tampering with the transparency log, on a SQLite file store and a PostgreSQL store: a leaf line rewritten (even
re-signed with the server's own key and re-chained, so that every line passes its own check), a forked tree shown to
a client who kept an earlier checkpoint, and a checkpoint signed with another key. Each is caught by `arbiter verify
--all` (or by the client's consistency check) with the finding named, exit 1, no traceback."""

from __future__ import annotations

import base64
import json
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg import sql

from service.evidence import keys, merkle
from service.evidence.checkpoints import prev_of
from service.evidence.keys import canonical
from service.evidence.signed_notes import Signer, Verifier, open_note
from service.evidence.tree_heads import TreeHead
from tests.integration.evidence_support import new_table, verify_all


@pytest.fixture(params=["sqlite", "postgres"])
def kind(request):
    return request.param


@pytest.fixture
def served(kind, stores, facades, tmp_path):
    """(url, arbiter, key file, extra verify args) with two games played and a checkpoint published."""
    url = stores.url(kind)
    key_file = tmp_path / "signing.key"
    arbiter = facades(url, key_file=str(key_file))
    for seed in (1, 2):
        new_table(arbiter).play(12, rng_seed=seed)
    arbiter.evidence.transparency.publish()
    return url, arbiter, key_file, ["--key-file", str(key_file), "--workers", "1"]


def rewrite(arbiter, key_file, line: int, change: dict) -> None:
    """Rewrite line `line` of the checkpoint log with `change`, re-signed with the server's key, every later line
    re-chained and re-signed: an operator holding the key and the log's storage."""
    key = keys.load(key_file)
    lines = [json.loads(raw) for raw in arbiter.evidence.log.storage.read().splitlines()]
    out: list[bytes] = []
    for number, doc in enumerate(lines, start=1):
        body = {k: v for k, v in doc.items() if k not in ("key", "signature")}
        if number == line:
            body.update(change)
        if out:
            body["prev"] = prev_of(body["format"], out[-1])
        raw = canonical(key.sign(body)) if number >= line else canonical(doc)
        out.append(raw)
    storage = arbiter.evidence.log.storage
    if storage.path is not None:
        storage.path.write_bytes(b"".join(raw + b"\n" for raw in out))
        return
    tables = storage.tables
    with _owner(arbiter) as conn:
        conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(tables.schema, "checkpoints")))
        with conn.cursor() as cur:
            cur.executemany(sql.SQL("INSERT INTO {} (seq, line) VALUES (%s, %s)").format(
                sql.Identifier(tables.schema, "checkpoints")), [(n, raw.decode()) for n, raw in enumerate(out, 1)])


def _owner(arbiter):
    """A connection as the store's login, which owns the evidence schema (it may delete, unlike the writer role)."""
    from service.adapters.stores import connect

    conn = connect(arbiter.evidence.tables.env)
    conn.autocommit = True
    return conn


def forget_heads(arbiter) -> None:
    """Delete every published checkpoint (the owner of the heads' storage)."""
    heads = arbiter.evidence.transparency.tree.heads
    if hasattr(heads, "path"):
        heads.path.unlink()
        return
    with _owner(arbiter) as conn:
        conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(heads.tables.schema, "tree_heads")))


def test_an_untouched_log_verifies_with_its_published_checkpoint(served):
    url, arbiter, key_file, extra = served
    code, output, error = verify_all(url, *extra)
    assert code == 0, output
    assert "transparency log: ok (1 published checkpoint(s)" in output


def test_a_leaf_rewritten_and_re_signed_with_the_server_key_is_named_by_the_published_root(served):
    url, arbiter, key_file, extra = served
    rewrite(arbiter, key_file, 3, {"at": "2020-01-01T00:00:00.000000+00:00"})
    code, output, error = verify_all(url, *extra)
    assert code == 1
    assert "has another root than the stored lines give: a leaf among lines 1 to" in output, output
    assert "Traceback" not in output


def test_a_fork_shown_to_a_client_who_kept_an_earlier_checkpoint_fails_its_consistency_check_and_verify(served, tmp_path,
                                                                                                       facades):
    url, arbiter, key_file, extra = served
    log = arbiter.evidence.transparency
    kept = log.checkpoint_text()  # client A keeps the checkpoint of size n
    verifier = Verifier.parse(log.key_text())
    old = TreeHead.parse(open_note(kept, [verifier]).text)
    # the operator rewrites leaf 2 (re-signed), forgets what was published and serves a bigger tree to client B
    rewrite(arbiter, key_file, 2, {"at": "2020-01-01T00:00:00.000000+00:00"})
    forget_heads(arbiter)
    fresh = facades(url, key_file=str(key_file))  # a restarted server reads the rewritten log
    new_table(fresh).play(3)
    new = TreeHead.parse(open_note(fresh.evidence.transparency.checkpoint_text(), [verifier]).text)
    proof = [base64.b64decode(h) for h in fresh.evidence.transparency.consistency(old.size, new.size)["proof"]]
    with pytest.raises(merkle.ProofError, match="rewritten or forked"):
        merkle.check_consistency(old.size, new.size, old.root, new.root, proof)
    kept_file = tmp_path / "kept.checkpoint"
    kept_file.write_text(kept)
    code, output, error = verify_all(url, *extra, "--checkpoint", str(kept_file))
    assert code == 1 and f"fork: the checkpoint kept in {kept_file} (tree size {old.size})" in output, output


def test_a_checkpoint_signed_with_another_key_is_named(served):
    url, arbiter, key_file, extra = served
    log = arbiter.evidence.transparency
    new_table(arbiter)
    size = log.tree.sync()
    other = Signer(log.origin, Ed25519PrivateKey.generate())
    log.tree.heads.publish(size, lambda: other.sign(TreeHead(log.origin, size, log.tree.root(size)).text))
    code, output, error = verify_all(url, *extra)
    assert code == 1, output
    assert "published checkpoint 2" in output and "is not signed by this log's key" in output, output
    assert "Traceback" not in output


def test_a_quorum_of_witnesses_is_demanded_of_the_latest_checkpoint(served):
    url, arbiter, key_file, extra = served
    witness = Verifier("witness.test/one", 0x04, Ed25519PrivateKey.generate().public_key().public_bytes_raw())
    code, output, error = verify_all(url, *extra, "--witness", witness.text)
    assert code == 1 and "0 of the named witnesses cosigned (none), 1 is needed: missing witness.test/one" in output, output
    assert verify_all(url, *extra, "--witness", witness.text, "--quorum", "0")[0] == 0


def test_a_tlog_policy_s_quorum_is_demanded_of_the_latest_checkpoint(served, tmp_path):
    url, arbiter, key_file, extra = served
    log_key = arbiter.evidence.transparency.verifier().text
    one, two = (Verifier(f"witness.test/{n}", 0x04, Ed25519PrivateKey.generate().public_key().public_bytes_raw())
                for n in ("one", "two"))
    policy = tmp_path / "policy.txt"
    policy.write_text(f"log {log_key}\nwitness one {one.text}\nwitness two {two.text}\ngroup both all one two\n"
                      "quorum both\n")
    code, output, error = verify_all(url, *extra, "--policy", str(policy))
    assert code == 1 and "short of its witness quorum: 0 of the 2 members of group both cosigned" in output, output
    policy.write_text(f"log {log_key}\nwitness one {one.text}\nquorum none\n")
    assert verify_all(url, *extra, "--policy", str(policy))[0] == 0


def test_a_tlog_policy_that_lists_another_log_is_a_finding(served, tmp_path):
    url, arbiter, key_file, extra = served
    other = Signer(arbiter.evidence.transparency.origin, Ed25519PrivateKey.generate()).verifier
    policy = tmp_path / "policy.txt"
    policy.write_text(f"log {other.text}\nquorum none\n")
    code, output, error = verify_all(url, *extra, "--policy", str(policy))
    assert code == 1 and "is none of the policy's logs" in output, output


def test_a_malformed_tlog_policy_stops_verify_all_naming_the_line(served, tmp_path):
    url, arbiter, key_file, extra = served
    policy = tmp_path / "policy.txt"
    policy.write_text("# a group naming a witness never defined\ngroup g any ghost\nquorum g\n")
    code, output, error = verify_all(url, *extra, "--policy", str(policy))
    assert code == 2 and "policy policy.txt, line 2: group 'g' names 'ghost', an unknown witness" in output
    assert "Traceback" not in output
