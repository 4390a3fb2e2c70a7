"""The checkpoint log served as a transparency log (docs/evidence.md, "The transparency log"): its lines are the leaves
of an RFC 6962 tree, its published checkpoints are signed notes under the server's key, and the routes' proofs
check against them, on a SQLite file store and a PostgreSQL store shared by two hosts."""

from __future__ import annotations

import base64
import json

import psycopg
import pytest
from psycopg import errors, sql

from api import create_app
from service.evidence import merkle
from service.evidence.checkpoints import FIELDS
from service.evidence.signed_notes import Verifier, open_note
from service.evidence.tree_heads import TreeHead
from tests.integration.api_support import CheckedClient
from tests.integration.evidence_support import new_table

LOG = "/api/v1/log"


@pytest.fixture(params=["sqlite", "postgres"])
def served(request, stores, tmp_path):
    """(app, client, arbiter) of a store with its evidence (a file log beside SQLite, the tables on PostgreSQL)."""
    app = create_app({"DATABASE_URL": stores.url(request.param), "KEY_FILE": str(tmp_path / "log.key"),
                      "LOG_ORIGIN": "arbiter.test/club"})
    app.test_client_class = CheckedClient
    arbiter = app.extensions["arbiter"]
    yield app, app.test_client(), arbiter
    arbiter.app.close()


def unb64(text: str) -> bytes:
    return base64.b64decode(text)


def checkpoint(client) -> TreeHead:
    key = Verifier.parse(client.get(f"{LOG}/key").get_data(as_text=True))
    note = client.get(f"{LOG}/checkpoint")
    assert note.status_code == 200 and note.mimetype == "text/plain"
    return TreeHead.parse(open_note(note.get_data(as_text=True), [key]).text)


def test_every_leaf_of_the_served_checkpoint_is_proved_included_and_the_trees_grow_consistently(served):
    app, client, arbiter = served
    table = new_table(arbiter).play(25)
    first = checkpoint(client)  # published on the first ask
    assert first.origin == "arbiter.test/club" and first.size >= 3
    table.play(20)
    arbiter.evidence.transparency.publish()
    second = checkpoint(client)
    assert second.size > first.size
    lines = [json.loads(raw) for raw in arbiter.evidence.log.storage.read().splitlines()]
    for doc in lines[:second.size]:
        got = client.get(f"{LOG}/inclusion", query_string={"game": doc["game"], "version": doc["version"]}).get_json()
        assert got["tree_size"] == second.size and json.loads(unb64(got["leaf"]))["version"] == doc["version"]
        merkle.check_inclusion(got["index"], second.size, merkle.leaf_hash(unb64(got["leaf"])),
                               [unb64(h) for h in got["proof"]], second.root)
        assert set(json.loads(unb64(got["leaf"]))) <= set(FIELDS), "a leaf carries no card: only the line's fields"
    proof = client.get(f"{LOG}/consistency", query_string={"old": first.size, "new": second.size}).get_json()
    merkle.check_consistency(first.size, second.size, first.root, second.root, [unb64(h) for h in proof["proof"]])


def test_a_version_that_is_no_leaf_is_404_naming_the_nearest_leaf_versions(served):
    app, client, arbiter = served
    table = new_table(arbiter).play(25)
    leaves = sorted(json.loads(raw)["version"] for raw in arbiter.evidence.log.storage.read().splitlines())
    missing = next(v for v in range(leaves[0] + 1, leaves[-1]) if v not in leaves)
    got = client.get(f"{LOG}/inclusion", query_string={"game": table.id, "version": missing})
    assert got.status_code == 404
    below = max(v for v in leaves if v < missing)
    above = min(v for v in leaves if v > missing)
    assert f"version {below} and version {above}" in got.get_json()["detail"]


@pytest.mark.parametrize("query, status, named", [
    ({"old": 1, "new": 10_000}, 404, "new: no published checkpoint has tree size 10000"),
    ({"old": 5, "new": 2}, 422, "new: must be at least old (5): no consistency proof goes from a tree of 5 leaves to a "
                                "smaller one of 2, a log only grows"),
])
def test_a_consistency_proof_no_tree_gives_names_new_and_says_why(query, status, named):
    """A tree not published yet is a 404, as an inclusion of a leaf not yet published (it may come: ask again); a new
    size below the old one is a 422, since no log ever answers it (docs/evidence.md). Both name `new`."""
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    new_table(app.extensions["arbiter"])
    got = app.test_client().get(f"{LOG}/consistency", query_string=query)
    assert got.status_code == status and got.mimetype == "application/problem+json"
    assert got.get_json()["detail"] == named or named in got.get_json()["detail"]
    assert got.get_json()["field"] == "new"


@pytest.mark.parametrize("path, query, field", [
    ("inclusion", {"game": "not-a-game", "version": 3}, "game"),
    ("inclusion", {"game": "00000000-0000-0000-0000-000000000000", "version": 0}, "version"),
    ("inclusion", {"version": 3}, "game"),
    ("consistency", {"old": "x", "new": 1}, "old"),
])
def test_a_bad_query_is_a_problem_naming_the_field(stores, path, query, field):
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    new_table(app.extensions["arbiter"])
    got = client.get(f"{LOG}/{path}", query_string=query)
    assert got.status_code == 422 and got.mimetype == "application/problem+json"
    assert got.get_json()["field"] == field


def test_a_receipt_without_a_leaf_gets_one_then_a_bundle_once_it_is_published(served):
    app, client, arbiter = served
    table = new_table(arbiter).play(4)
    checkpoint(client)  # a checkpoint is out: the receipt's new leaf waits for the next one
    receipt = table.receipts[-1]
    pending = client.post(f"{LOG}/proofs", json=receipt)
    assert pending.status_code == 202 and pending.headers["Retry-After"]
    index = pending.get_json()["index"]
    assert client.post(f"{LOG}/proofs", json=receipt).status_code == 202  # appended once, waiting
    arbiter.evidence.transparency.publish()
    bundle = client.post(f"{LOG}/proofs", json=receipt).get_json()
    assert bundle["format"] == "arbiter.proof/1" and bundle["index"] == index and bundle["receipt"] == receipt
    assert json.loads(unb64(bundle["leaf"]))["reason"] == "receipt"
    forged = client.post(f"{LOG}/proofs", json={**receipt, "version": receipt["version"] + 1})
    assert forged.status_code == 422 and forged.get_json()["title"] == "Forged receipt"


def test_two_hosts_of_one_postgresql_store_publish_each_size_once_and_the_writer_may_not_delete_a_head(
        stores, facades, tmp_path):
    from service.evidence.keys import load_or_create

    url = stores.url("postgres")
    load_or_create(tmp_path / "signing.key")
    a, b = (facades(url, key_file=str(tmp_path / "signing.key")) for _ in range(2))
    new_table(a).play(12)
    one, two = a.evidence.transparency.publish(), b.evidence.transparency.publish()
    assert one.note == two.note, "Ed25519 is deterministic: both hosts sign the same note"
    new_table(b)
    assert b.evidence.transparency.publish().size > a.evidence.transparency.publish().size - 1
    tables = a.evidence.tables
    schema = tables.schema
    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        sizes = [r[0] for r in conn.execute(sql.SQL("SELECT size FROM {} ORDER BY size").format(
            sql.Identifier(schema, "tree_heads"))).fetchall()]
        assert sizes == sorted(set(sizes)) and len(sizes) == 2
        with pytest.raises(errors.InsufficientPrivilege):
            with conn.transaction():
                conn.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(tables.role)))
                conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(schema, "tree_heads")))
