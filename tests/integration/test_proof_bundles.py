"""A receipt becomes a proof bundle (`arbiter proof get` against a served log) that `arbiter proof check` verifies
offline with only the log's key (and the witnesses' keys it demands); every altered part is named, exit 1, no
traceback."""

from __future__ import annotations

import base64
import json
import threading

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from werkzeug.serving import make_server

from api import create_app
from api.cli.main import main
from service.evidence.cosignatures import Cosigner
from service.evidence.signed_notes import Signer, split
from service.evidence.tree_heads import TreeHead
from tests.integration.evidence_support import new_table


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real server on a SQLite file store (the duty loop publishing every 0.2 s), its base URL and its facade."""
    import os

    os.environ["ARBITER_LOG_PUBLISH_SECONDS"] = "0.2"
    tmp = tmp_path_factory.mktemp("served")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp / 'games.db'}", "LOG_ORIGIN": "arbiter.test/proofs",
                      "DUTIES": True})
    del os.environ["ARBITER_LOG_PUBLISH_SECONDS"]
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    arbiter = app.extensions["arbiter"]
    yield f"http://127.0.0.1:{http.server_port}", arbiter, tmp
    http.shutdown()
    arbiter.play.duty.stop()
    arbiter.app.close()


@pytest.fixture(scope="module")
def bundle(server):
    """(bundle file, log key text, the bundle) of a receipt got with `arbiter proof get`."""
    url, arbiter, tmp = server
    table = new_table(arbiter).play(6)
    receipt = tmp / "receipt.json"
    receipt.write_text(json.dumps(table.receipts[-1]))
    out = tmp / "bundle.json"
    got = CliRunner().invoke(main, ["proof", "get", str(receipt), "--server", url, "-o", str(out), "--timeout", "20"])
    assert got.exit_code == 0, got.output
    key = arbiter.evidence.transparency.key_text().strip()
    return out, key, json.loads(out.read_text())


def check(path, key: str, *extra: str):
    return CliRunner().invoke(main, ["proof", "check", str(path), "--key", key, *extra])


def test_a_bundle_got_from_a_served_log_checks_offline_with_only_the_log_key(bundle, tmp_path):
    path, key, doc = bundle
    key_file = tmp_path / "log.vkey"
    key_file.write_text(key + "\n")
    got = check(path, str(key_file))
    assert got.exit_code == 0, got.output
    assert "inclusion: leaf" in got.output and "checkpoint: signed by arbiter.test/proofs" in got.output


def _leaf(doc: dict, **change) -> str:
    return base64.b64encode(json.dumps({**json.loads(base64.b64decode(doc["leaf"])), **change}, sort_keys=True,
                                       separators=(",", ":")).encode()).decode()


def _resigned(doc: dict) -> str:
    text, _ = split(doc["checkpoint"])
    head = TreeHead.parse(text)
    return Signer(head.origin, Ed25519PrivateKey.generate()).sign(text)


def _other_proof(doc: dict) -> list:
    proof = list(doc["proof"])
    proof[0] = base64.b64encode(b"\x00" * 32).decode()
    return proof


@pytest.mark.parametrize("what, change, finding", [
    ("the receipt's head", lambda d: {"receipt": {**d["receipt"], "head": "0" * 64}}, "FAILED receipt"),
    ("the leaf's head", lambda d: {"leaf": _leaf(d, head="1" * 64)}, "FAILED leaf"),
    ("the leaf index", lambda d: {"index": d["index"] + 1 if d["index"] + 1 < d["tree_size"] else d["index"] - 1},
     "FAILED inclusion"),
    ("a proof hash", lambda d: {"proof": _other_proof(d)}, "FAILED inclusion"),
    ("the checkpoint signed with another key", lambda d: {"checkpoint": _resigned(d)}, "FAILED checkpoint"),
    ("the tree size", lambda d: {"tree_size": d["tree_size"] + 1}, "FAILED checkpoint"),
])
def test_an_altered_bundle_fails_naming_what_is_wrong(bundle, tmp_path, what, change, finding):
    path, key, doc = bundle
    if what == "a proof hash" and not doc["proof"]:
        pytest.skip("a tree of one leaf has no proof hash")
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps({**doc, **change(doc)}))
    got = check(altered, key)
    assert got.exit_code == 1, got.output
    assert finding in got.output and "Traceback" not in got.output


def test_a_quorum_of_named_witnesses_must_have_cosigned(bundle, tmp_path):
    path, key, doc = bundle
    one, two = (Cosigner(f"witness.test/{n}", Ed25519PrivateKey.generate()) for n in ("one", "two"))
    text, _ = split(doc["checkpoint"])
    cosigned = tmp_path / "cosigned.json"
    cosigned.write_text(json.dumps({**doc, "checkpoint": doc["checkpoint"] + one.cosign(text).line}))
    witnesses = ["--witness", one.verifier.text, "--witness", two.verifier.text]
    assert check(cosigned, key, *witnesses, "--quorum", "1").exit_code == 0
    short = check(cosigned, key, *witnesses)  # all named witnesses by default
    assert short.exit_code == 1 and "FAILED witnesses: 1 of the named witnesses cosigned" in short.output
    assert "FAILED witnesses" in check(path, key, "--witness", one.verifier.text).output


def test_an_unreadable_bundle_or_key_is_named_without_a_traceback(bundle, tmp_path):
    path, key, doc = bundle
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert check(junk, key).exit_code == 2
    bad_key = check(path, "arbiter.test/proofs+00000000+AAAA")
    assert bad_key.exit_code == 1 and "FAILED key" in bad_key.output and "Traceback" not in bad_key.output
