"""arbiter's log with real witnesses: a server configured with two `arbiter witness` processes (WITNESSES, as
ARBITER_WITNESSES would give them) publishes checkpoints they cosign; the cosigned note meets a quorum of both, a
receipt's proof bundle checks offline demanding both witnesses, and `verify --all` demands them too. A witness that
is down costs its cosignature, never the publishing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from api import create_app
from api.cli.main import main
from service.evidence.signed_notes import Verifier
from service.evidence.witness_quorum import check_quorum
from tests.e2e.test_witness import WitnessProcess
from tests.integration.evidence_support import new_table

ORIGIN = "arbiter.test/witnessed"


class LogKey:
    """Stands for the operator in WitnessProcess: the witnesses trust this log key."""

    def __init__(self, text: str):
        self.signer = type("S", (), {"verifier": Verifier.parse(text)})()


@pytest.fixture()
def witnessed(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first = create_app({"DATABASE_URL": url, "LOG_ORIGIN": ORIGIN})  # creates the key the witnesses are told of
    key_text = first.extensions["arbiter"].evidence.transparency.key_text().strip()
    first.extensions["arbiter"].app.close()
    witnesses = [WitnessProcess(tmp_path / name, f"witness.test/{name}", LogKey(key_text)) for name in ("w1", "w2")]
    keys = [w.print_key() for w in witnesses]
    for w in witnesses:
        w.start()
    app = create_app({"DATABASE_URL": url, "LOG_ORIGIN": ORIGIN,
                      "WITNESSES": ",".join(f"{w.url}={k.text}" for w, k in zip(witnesses, keys))})
    arbiter = app.extensions["arbiter"]
    try:
        yield app, arbiter, witnesses, keys, key_text
    finally:
        arbiter.app.close()
        for w in witnesses:
            w.stop()


def test_each_published_checkpoint_carries_both_witnesses_cosignatures(witnessed, tmp_path):
    app, arbiter, witnesses, keys, key_text = witnessed
    table = new_table(arbiter).play(12)
    arbiter.evidence.transparency.publish()
    note = app.test_client().get("/api/v1/log/checkpoint").get_data(as_text=True)
    assert sorted(check_quorum(note, Verifier.parse(key_text), keys, 2)) == ["witness.test/w1", "witness.test/w2"]
    table.play(10)
    arbiter.evidence.transparency.publish()  # the witnesses move on with a consistency proof from what they cosigned
    note = app.test_client().get("/api/v1/log/checkpoint").get_data(as_text=True)
    assert len(check_quorum(note, Verifier.parse(key_text), keys, 2)) == 2

    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps(table.receipts[-1]))
    status, bundle = arbiter.evidence.transparency.proof(table.receipts[-1])
    if status == 202:
        arbiter.evidence.transparency.publish()
        status, bundle = arbiter.evidence.transparency.proof(table.receipts[-1])
    assert status == 200
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    args = ["proof", "check", str(path), "--key", key_text, "--witness", keys[0].text, "--witness", keys[1].text,
            "--quorum", "2"]
    got = CliRunner().invoke(main, args)
    assert got.exit_code == 0, got.output

    # the same proof as a C2SP tlog-proof, against a C2SP tlog-policy demanding both real witnesses
    from service.evidence.tlog_proof import from_bundle

    proof = tmp_path / "receipt.tlog-proof"
    proof.write_text(from_bundle(bundle).text)
    policy = tmp_path / "policy"
    policy.write_text(f"log {key_text}\nwitness one {keys[0].text}\nwitness two {keys[1].text}\n"
                      "group both all one two\nquorum both\n")
    got = CliRunner().invoke(main, ["proof", "check", str(proof), "--policy", str(policy), "--receipt", str(receipt)])
    assert got.exit_code == 0 and "witnesses: quorum both met, 2 of 2 cosigned (one, two)" in got.output, got.output
    ghost = Verifier("witness.test/w3", 0x04, bytes(32))
    policy.write_text(f"witness one {keys[0].text}\nwitness two {keys[1].text}\nwitness three {ghost.text}\n"
                      "group all-three all one two three\nquorum all-three\n")
    got = CliRunner().invoke(main, ["proof", "check", str(proof), "--key", key_text, "--policy", str(policy)])
    assert got.exit_code == 1 and "2 of the 3 members of group all-three cosigned (one, two), 3 are needed: " \
        "missing three" in got.output, got.output


def test_a_witness_that_is_down_costs_its_cosignature_not_the_checkpoint(witnessed):
    app, arbiter, witnesses, keys, key_text = witnessed
    new_table(arbiter).play(5)
    witnesses[1].stop()
    assert arbiter.evidence.transparency.publish() is not None
    note = app.test_client().get("/api/v1/log/checkpoint").get_data(as_text=True)
    assert check_quorum(note, Verifier.parse(key_text), keys, 1) == ["witness.test/w1"]
    with pytest.raises(ValueError, match="w2"):
        check_quorum(note, Verifier.parse(key_text), keys, 2)
