"""arbiter's transparency-log evidence judged by an implementation nobody here wrote: the Go checksum database's
packages `golang.org/x/mod/sumdb/note` and `sumdb/tlog` (Debian's golang-go and golang-golang-x-mod-dev, installed by
.ci/run), through the small program in go_sumdb/main.go; and the reverse, a note Go signs read by arbiter.

Skipped where Go or the x/mod sources are absent, except in CI (ARBITER_CI), where their absence fails."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence import merkle
from service.evidence.cosignatures import Cosigner
from service.evidence.merkle import MemoryHashes
from service.evidence.signed_notes import NoteError, Signer, Verifier, open_note
from service.evidence.tree_heads import TreeHead

HERE = Path(__file__).parent / "go_sumdb"
GOPATH = os.environ.get("ARBITER_GO_PATH", "/usr/share/gocode")


@pytest.fixture(scope="module")
def go_sumdb(tmp_path_factory) -> Path:
    missing = None
    if shutil.which("go") is None:
        missing = "go is not installed (apt-get install golang-go)"
    elif not (Path(GOPATH) / "src/golang.org/x/mod/sumdb/tlog").is_dir():
        missing = f"golang.org/x/mod is not under {GOPATH} (apt-get install golang-golang-x-mod-dev)"
    if missing:
        if os.environ.get("ARBITER_CI"):
            pytest.fail(f"CI must check the log with Go's sumdb packages: {missing}")
        pytest.skip(missing)
    out = tmp_path_factory.mktemp("go") / "sumdb"
    env = {**os.environ, "GOPATH": GOPATH, "GO111MODULE": "off", "GOFLAGS": "-mod=mod",
           "GOCACHE": os.environ.get("GOCACHE") or str(tmp_path_factory.getbasetemp() / "gocache")}
    env.pop("GOFLAGS")
    subprocess.run(["go", "build", "-o", str(out), "."], cwd=HERE, env=env, check=True, capture_output=True)
    return out


def go(program: Path, command: str, payload: dict) -> dict:
    done = subprocess.run([str(program), command], input=json.dumps(payload).encode(), capture_output=True, check=True)
    return json.loads(done.stdout)


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def a_log(n: int) -> tuple[list[bytes], MemoryHashes]:
    leaves = [json.dumps({"game": f"g{i % 7}", "version": i, "head": f"{i:064x}"}).encode() for i in range(n)]
    hashes = MemoryHashes()
    for leaf in leaves:
        hashes.append_leaf(leaf)
    return leaves, hashes


def test_go_reads_arbiters_checkpoint_note_and_its_witness_cosignatures(go_sumdb):
    leaves, hashes = a_log(23)
    head = TreeHead("arbiter.test/federation", 23, merkle.tree_hash(23, hashes.read))
    log_key = Signer("arbiter.test/federation", Ed25519PrivateKey.generate())
    witness = Cosigner("witness.test/one", Ed25519PrivateKey.generate())
    note = log_key.sign(head.text) + witness.cosign(head.text).line
    got = go(go_sumdb, "check", {"vkey": log_key.verifier.text, "cosigners": [witness.verifier.text], "note": note})
    assert got["errors"] == []
    assert sorted(got["signers"]) == ["arbiter.test/federation", "witness.test/one"]
    assert (got["origin"], got["size"], got["root"]) == ("arbiter.test/federation", 23, b64(head.root))


def test_go_refuses_a_checkpoint_signed_with_another_key(go_sumdb):
    head = TreeHead("arbiter.test/federation", 1, merkle.leaf_hash(b"x"))
    ours = Signer("arbiter.test/federation", Ed25519PrivateKey.generate())
    other = Signer("arbiter.test/federation", Ed25519PrivateKey.generate())
    got = go(go_sumdb, "check", {"vkey": ours.verifier.text, "note": other.sign(head.text)})
    assert got["errors"] and "note" in got["errors"][0]


def test_go_builds_the_same_tree_and_accepts_every_proof(go_sumdb):
    n = 45
    leaves, hashes = a_log(n)
    root = merkle.tree_hash(n, hashes.read)
    inclusion = [{"index": i, "size": size, "leaf": b64(leaves[i]), "root": b64(merkle.tree_hash(size, hashes.read)),
                  "proof": [b64(h) for h in merkle.inclusion_proof(i, size, hashes.read)]}
                 for size in (1, 2, 13, 32, n) for i in range(size)]
    consistency = [{"old": old, "new": new, "old_root": b64(merkle.tree_hash(old, hashes.read)),
                    "new_root": b64(merkle.tree_hash(new, hashes.read)),
                    "proof": [b64(h) for h in merkle.consistency_proof(old, new, hashes.read)]}
                   for new in (16, 31, n) for old in range(1, new + 1)]
    got = go(go_sumdb, "check", {"leaves": [b64(x) for x in leaves], "inclusion": inclusion, "consistency": consistency,
                                  "stored": [b64(h) for h in hashes.read(range(len(hashes)))]})
    assert got["errors"] == []
    assert got["leaves_root"] == b64(root)
    assert got["stored_equal"], "arbiter lays its stored hashes out as the Go checksum database does"


def test_go_refuses_a_proof_of_a_rewritten_leaf(go_sumdb):
    leaves, hashes = a_log(20)
    forked = MemoryHashes()
    for i, leaf in enumerate(leaves):
        forked.append_leaf(b"rewritten" if i == 3 else leaf)
    consistency = [{"old": 10, "new": 20, "old_root": b64(merkle.tree_hash(10, hashes.read)),
                    "new_root": b64(merkle.tree_hash(20, forked.read)),
                    "proof": [b64(h) for h in merkle.consistency_proof(10, 20, forked.read)]}]
    inclusion = [{"index": 3, "size": 20, "leaf": b64(leaves[3]), "root": b64(merkle.tree_hash(20, forked.read)),
                  "proof": [b64(h) for h in merkle.inclusion_proof(3, 20, forked.read)]}]
    got = go(go_sumdb, "check", {"consistency": consistency, "inclusion": inclusion})
    assert len(got["errors"]) == 2


def test_arbiter_reads_a_note_go_signed(go_sumdb):
    signed = go(go_sumdb, "sign", {"name": "go.example/log", "text": "go.example/log\n7\n" + b64(b"\x07" * 32) + "\n"})
    verifier = Verifier.parse(signed["vkey"])
    note = open_note(signed["note"], [verifier])
    assert note.signed_by("go.example/log")
    assert TreeHead.parse(note.text).size == 7
    altered = signed["note"].replace("\n7\n", "\n8\n")
    with pytest.raises(NoteError, match="does not verify"):
        open_note(altered, [verifier])


def test_go_accepts_the_cosignature_a_witness_answers_and_refuses_it_on_a_forked_tree(go_sumdb, tmp_path):
    from service.witness.logs import known_logs
    from service.witness.witness import Witness

    from .witness_support import Operator

    log = Operator("arbiter.test/federation")
    witness = Witness.open(tmp_path / "w.key", "witness.test/go", tmp_path / "w.db", known_logs([log.signer.verifier.text]))
    answer = witness.add_checkpoint(log.request(0, 17))
    assert answer.status == 200
    note = log.checkpoint(17) + answer.body
    got = go(go_sumdb, "check", {"vkey": log.signer.verifier.text, "cosigners": [witness.verifier_key], "note": note})
    assert got["errors"] == [] and sorted(got["signers"]) == ["arbiter.test/federation", "witness.test/go"]
    forked = log.fork(b"forged").checkpoint(17) + answer.body  # the witness's line moved onto tree B
    got = go(go_sumdb, "check", {"vkey": log.signer.verifier.text, "cosigners": [witness.verifier_key], "note": forked})
    assert got["errors"] and "note" in got["errors"][0]


def test_go_verifies_a_served_logs_checkpoint_and_the_proofs_its_routes_give(go_sumdb, tmp_path):
    from api import create_app
    from tests.integration.evidence_support import new_table

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}", "LOG_ORIGIN": "arbiter.test/served"})
    client, arbiter = app.test_client(), app.extensions["arbiter"]
    try:
        table = new_table(arbiter).play(15)
        old_note = client.get("/api/v1/log/checkpoint").get_data(as_text=True)
        table.play(25)
        arbiter.evidence.transparency.publish()
        vkey = client.get("/api/v1/log/key").get_data(as_text=True).strip()
        note = client.get("/api/v1/log/checkpoint").get_data(as_text=True)
        old, new = (TreeHead.parse(open_note(n, [Verifier.parse(vkey)]).text) for n in (old_note, note))
        lines = [json.loads(raw) for raw in arbiter.evidence.log.storage.read().splitlines()[:new.size]]
        inclusion = []
        for doc in lines:
            got = client.get("/api/v1/log/inclusion", query_string={"game": doc["game"], "version": doc["version"]}).get_json()
            inclusion.append({"index": got["index"], "size": got["tree_size"], "root": b64(new.root),
                              "leaf": got["leaf"], "proof": got["proof"]})
        proof = client.get("/api/v1/log/consistency", query_string={"old": old.size, "new": new.size}).get_json()
        got = go(go_sumdb, "check", {"vkey": vkey, "note": note, "inclusion": inclusion, "consistency": [
            {"old": old.size, "new": new.size, "old_root": b64(old.root), "new_root": b64(new.root),
             "proof": proof["proof"]}]})
    finally:
        arbiter.app.close()
    assert got["errors"] == []
    assert (got["origin"], got["size"], got["root"]) == ("arbiter.test/served", new.size, b64(new.root))
    assert new.size > old.size >= 1 and len(inclusion) == new.size


def test_go_reads_the_served_tlog_tiles_and_proves_leaves_from_them(go_sumdb, tmp_path):
    """tlog.TileHashReader reads the served hash tiles (the checksum database's tiles are tlog-tiles' with a height
    element in the path) against the checkpoint's tree; it folds the same root and builds the
    audit paths arbiter's inclusion route gives. A hash altered in a tile makes the proofs through it fail.

    (The proofs are what is held, with tlog.CheckRecord against the signed root: Go's reader is not relied on to
    refuse an altered tile by itself. arbiter's `check_tiles` checks every full tile against the tile above.)"""
    from service.evidence import tiles

    from .tiles_support import served_log

    with served_log(f"sqlite:///{tmp_path / 'games.db'}", origin="arbiter.test/go-tiles") as log:
        log.grow(700)
        note = log.get("checkpoint")
        head = TreeHead.parse(open_note(note, [Verifier.parse(log.key)]).text)
        files = {t.path: b64(log.get(t.path)) for t in tiles.tiles_of(head.size) if t.level is not None}
        leaves = [0, 255, 256, 600, head.size - 1]
        prove = [{"index": i, "leaf": b64(log.log.tree.leaf(i))} for i in leaves]
        case = {"tiles": files, "tiles_size": head.size, "tiles_root": b64(head.root), "tiles_prove": prove}
        got = go(go_sumdb, "check", case)
        served = [log.log.tree.inclusion(i, head.size) for i in leaves]
        raw = bytearray(base64.b64decode(files["tile/0/001"]))
        raw[32 + 7] ^= 1  # leaf 257's hash: on the audit path of leaf 256
        altered = go(go_sumdb, "check", {**case, "tiles": {**files, "tile/0/001": b64(bytes(raw))}})
    assert got["errors"] == [] and got["tiles_root"] == b64(head.root)
    assert got["tile_proofs"] == [[b64(h) for h in proof] for proof in served]
    assert altered["errors"] and altered["errors"][0].startswith("tiles: leaf 256:")


def test_go_opens_a_promise_as_a_note_signed_by_the_log_and_never_reads_it_as_a_checkpoint(go_sumdb):
    from datetime import datetime, timezone

    from service.evidence import promises

    log_key = Signer("arbiter.test/federation", Ed25519PrivateKey.generate())
    note = promises.issue(log_key, "0f8e6a52-1111-4222-8333-444455556666", 12, 3, 10,
                          datetime(2026, 1, 2, tzinfo=timezone.utc))
    got = go(go_sumdb, "check", {"vkey": log_key.verifier.text, "note": note})
    assert got["signers"] == ["arbiter.test/federation"]  # the note and its signature hold for Go's sumdb/note
    assert got["errors"] and got["errors"][0].startswith("checkpoint size"), got  # and its second line is no tree size
    altered = go(go_sumdb, "check", {"vkey": log_key.verifier.text, "note": note.replace("version 12", "version 13")})
    assert altered["errors"] and altered["errors"][0].startswith("note:"), altered
