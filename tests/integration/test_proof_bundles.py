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


# -- C2SP tlog-proof (service.evidence.tlog_proof) and tlog-policy (service.evidence.tlog_policy) ------------------


@pytest.fixture(scope="module")
def tlog(server, bundle):
    """(tlog-proof file, log key text, its text, the receipt file) got with `arbiter proof get --format tlog-proof`."""
    url, arbiter, tmp = server
    out = tmp / "receipt.tlog-proof"
    got = CliRunner().invoke(main, ["proof", "get", str(tmp / "receipt.json"), "--server", url, "-o", str(out),
                                    "--timeout", "20", "--format", "tlog-proof"])
    assert got.exit_code == 0, got.output
    return out, bundle[1], out.read_text(), tmp / "receipt.json"


def test_a_tlog_proof_got_from_a_served_log_checks_offline_and_names_its_game_and_version(tlog, bundle):
    path, key, text, receipt = tlog
    doc = bundle[2]
    assert text.startswith(f"c2sp.org/tlog-proof@v1\nextra {doc['leaf']}\nindex {doc['index']}\n")
    assert text.endswith("\n\n" + doc["checkpoint"])
    got = check(path, key)
    assert got.exit_code == 0, got.output
    assert f"game {doc['receipt']['game']} at version {doc['receipt']['version']} is in the published log" in got.output
    with_receipt = check(path, key, "--receipt", str(receipt), "--json")
    assert with_receipt.exit_code == 0 and json.loads(with_receipt.output)["format"] == "tlog-proof"
    assert json.loads(with_receipt.output)["checks"][0].startswith("receipt: signed by")


def http(url: str, path: str, body: dict | None = None) -> tuple[int, str, str]:
    """(status, content type, text) of a GET (or a POST of `body`) to the real server."""
    import urllib.error
    import urllib.request

    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.headers.get_content_type(), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get_content_type(), e.read().decode()


def test_the_proofs_route_serves_a_tlog_proof_when_asked(server, bundle, tlog):
    url, arbiter, tmp = server
    receipt = bundle[2]["receipt"]
    status, kind, text = http(url, "/api/v1/log/proofs?format=tlog-proof", receipt)
    assert status == 200 and kind == "text/plain" and text == tlog[2]
    status, kind, text = http(url, "/api/v1/log/proofs?format=arbiter.proof/1", receipt)
    assert status == 200 and json.loads(text) == bundle[2]
    status, kind, text = http(url, "/api/v1/log/proofs?format=tlog", receipt)
    assert status == 422 and "format" in text


def test_a_third_party_s_tlog_proof_without_extra_data_checks_with_the_leaf_given_beside_it(server, bundle, tmp_path):
    """What a client of the log's routes (or tiles) writes: the spec's file with no extra line, the leaf kept apart."""
    url, arbiter, tmp = server
    doc = bundle[2]
    receipt = doc["receipt"]
    for _ in range(50):  # the two answers of one published tree (the duty loop may publish between them)
        checkpoint = http(url, "/api/v1/log/checkpoint")[2]
        inclusion = json.loads(http(url, f"/api/v1/log/inclusion?game={receipt['game']}&version={receipt['version']}")[2])
        if f"\n{inclusion['tree_size']}\n" in checkpoint:
            break
    path = tmp_path / "third.tlog-proof"
    path.write_text("c2sp.org/tlog-proof@v1\n" f"index {inclusion['index']}\n"
                    + "".join(h + "\n" for h in inclusion["proof"]) + "\n" + checkpoint)
    leaf = tmp_path / "leaf"
    leaf.write_bytes(base64.b64decode(inclusion["leaf"]) + b"\n")
    key = bundle[1]
    assert check(path, key, "--leaf", str(leaf)).exit_code == 0
    alone = check(path, key)
    assert alone.exit_code == 1 and "FAILED leaf: the proof carries no leaf" in alone.output and "--leaf" in alone.output


def _tlog_lines(text: str) -> list[str]:
    return text.split("\n")


@pytest.mark.parametrize("what, alter, finding", [
    ("a proof hash", lambda t: t.replace(_tlog_lines(t)[3], base64.b64encode(b"\x01" * 32).decode(), 1),
     "FAILED inclusion"),
    ("the index", lambda t: t.replace(f"\n{_tlog_lines(t)[2]}\n", f"\nindex {int(_tlog_lines(t)[2][6:]) ^ 1}\n", 1),
     "FAILED inclusion"),
    ("the checkpoint's root", lambda t: _other_root(t), "FAILED checkpoint"),
    ("the header", lambda t: t.replace("tlog-proof@v1", "tlog-proof@v2", 1), "FAILED format: not a well-formed "
                                                                             "tlog-proof: line 1"),
    ("a proof hash's base64", lambda t: t.replace(_tlog_lines(t)[3], "not*base64", 1), "is not base64"),
    ("the index's digits", lambda t: t.replace("\nindex ", "\nindex 0", 1), "leading zeros"),
])
def test_an_altered_tlog_proof_fails_naming_what_is_wrong(tlog, tmp_path, what, alter, finding):
    path, key, text, receipt = tlog
    if what in ("a proof hash", "a proof hash's base64") and _tlog_lines(text)[3] == "":
        pytest.skip("a tree of one leaf has no proof hash")
    altered = tmp_path / "altered.tlog-proof"
    altered.write_text(alter(text))
    assert altered.read_text() != text
    got = check(altered, key)
    assert got.exit_code == 1, got.output
    assert finding in got.output and "Traceback" not in got.output


def _other_root(text: str) -> str:
    head, note = text.split("\n\n", 1)
    origin, size, root, rest = note.split("\n", 3)
    return head + "\n\n" + "\n".join([origin, size, base64.b64encode(b"\x02" * 32).decode(), rest])


def test_a_file_of_neither_format_is_named_without_a_traceback(bundle, tmp_path):
    path = tmp_path / "junk.tlog-proof"
    path.write_text("tlog proof?\nindex 0\n\n")
    got = check(path, bundle[1])
    assert got.exit_code == 2 and "neither a C2SP tlog-proof" in got.output and "Traceback" not in got.output


def test_a_tlog_policy_decides_the_witness_quorum_of_a_proof(tlog, tmp_path):
    path, key, text, receipt = tlog
    one, two = (Cosigner(f"witness.test/{n}", Ed25519PrivateKey.generate()) for n in ("one", "two"))
    head, note = text.split("\n\n", 1)
    note_text, _ = split(note)
    cosigned = tmp_path / "cosigned.tlog-proof"
    cosigned.write_text(text + one.cosign(note_text).line)
    policy = tmp_path / "policy"
    policy.write_text(f"log {key}\nwitness one {one.verifier.text}\nwitness two {two.verifier.text}\n"
                      "group either any one two\nquorum either\n")
    met = CliRunner().invoke(main, ["proof", "check", str(cosigned), "--policy", str(policy)])  # the policy's log key
    assert met.exit_code == 0 and "witnesses: quorum either met, 1 of 2 cosigned (one)" in met.output, met.output
    short = check(path, key, "--policy", str(policy))
    assert short.exit_code == 1
    assert "FAILED witnesses: 0 of the 2 members of group either cosigned (none), 1 is needed: missing one, two" \
        in short.output
    policy.write_text(f"log {key}\nwitness one {one.verifier.text}\ngroup both all one two\nquorum both\n")
    bad = check(path, key, "--policy", str(policy))
    assert bad.exit_code == 2 and "line 3: group 'both' names 'two', an unknown witness or group" in bad.output
    assert "Traceback" not in bad.output
    both = check(path, key, "--policy", str(policy), "--witness", one.verifier.text)
    assert both.exit_code == 2 and "not both" in both.output


def test_proof_policy_writes_the_policy_witness_and_quorum_stand_for(tlog, tmp_path):
    path, key, text, receipt = tlog
    one = Cosigner("witness.test/one", Ed25519PrivateKey.generate())
    got = CliRunner().invoke(main, ["proof", "policy", "--key", key, "--witness", one.verifier.text, "--quorum", "1"])
    assert got.exit_code == 0, got.output
    assert got.output == (f"log {key}\nwitness witness.test/one {one.verifier.text}\n"
                          "group named-witnesses 1 witness.test/one\nquorum named-witnesses\n")
    policy = tmp_path / "policy"
    policy.write_text(got.output)
    head, note = text.split("\n\n", 1)
    cosigned = tmp_path / "cosigned.tlog-proof"
    cosigned.write_text(text + one.cosign(split(note)[0]).line)
    assert CliRunner().invoke(main, ["proof", "check", str(cosigned), "--policy", str(policy)]).exit_code == 0
