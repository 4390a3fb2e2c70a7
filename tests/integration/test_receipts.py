"""Receipts: every accepted command is answered with a receipt the server signed (game, version, chain head,
time), and a receipt proves later whether the store still holds what it says (docs/evidence.md).

Each tamper is done on the stored rows behind the service's back (a SQLite file, a PostgreSQL schema) and
checked through a fresh facade, so that nothing cached hides it.
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from api.cli.main import main
from service.errors import BadInput
from service.evidence.keys import ServerKey, canonical
from service.evidence.receipts import ForgedReceipt
from tests.integration.evidence_support import new_table, truncate
from service.play.commands import FileDispute, GiveRuling
from service.play.new_games import CreateGame, ImportRecord

STORES = ["sqlite", "postgres"]
RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example3-06-revised.json"
RECEIPT_FIELDS = {"format", "game", "version", "head", "at", "key", "signature", "promise"}


@pytest.fixture(params=STORES)
def store(request, stores):
    """(kind, url) of a fresh store of each kind."""
    return request.param, stores.url(request.param)


def test_every_accepted_command_is_answered_with_a_receipt_of_the_version_it_wrote(facades, store):
    kind, url = store
    arbiter = facades(url)
    table = new_table(arbiter).play(6)
    game = arbiter.app.game(table.gid)
    assert [r["version"] for r in table.receipts] == sorted({r["version"] for r in table.receipts})
    assert table.receipts[-1]["version"] == game.version and table.receipts[-1]["head"] == game.chain_head
    move_version = game.move_versions[1]
    seat = int(arbiter.app.stored_events(table.gid)[move_version - 1].actor.split(":")[1])
    filed = arbiter.play.file_dispute(table.tokens[seat], FileDispute.from_body(table.id, {"version": move_version, "claim": "too fast"}))
    assert filed["receipt"]["version"] == filed["filed_at"]
    created = arbiter.play.create_game(CreateGame.from_body({"game": "el-royale", "players": [{"name": "A"}, {"name": "B"}]}))
    assert created["receipt"]["version"] == created["version"]
    for receipt in (filed["receipt"], created["receipt"], *table.receipts):
        assert set(receipt) == RECEIPT_FIELDS, "a receipt holds the game, version, head, time, the log's promise and signature only"
        assert arbiter.evidence.verify_receipt(receipt)["status"] == "intact"


def test_a_ruling_and_an_import_are_answered_with_receipts_too(facades, stores):
    arbiter = facades(stores.url("sqlite"))
    imported = arbiter.play.import_record(ImportRecord.from_body(json.loads(RECORD.read_text())))
    assert imported["receipt"]["version"] == arbiter.app.game(UUID(imported["id"])).version
    table = new_table(arbiter).play(4)
    version = arbiter.app.game(table.gid).move_versions[1]
    seat = int(arbiter.app.stored_events(table.gid)[version - 1].actor.split(":")[1])
    arbiter.play.file_dispute(table.tokens[seat], FileDispute.from_body(table.id, {"version": version, "claim": "out of turn"}))

    ruled = arbiter.play.rule(table.referee_token, GiveRuling.from_body(table.id, 1, {"decision": "upheld", "remedy": "rewind", "note": ""}))

    assert ruled["receipt"]["version"] == arbiter.app.game(table.gid).version, "a rewind's receipt covers both its events"
    for receipt in (imported["receipt"], ruled["receipt"]):
        assert arbiter.evidence.verify_receipt(receipt)["ok"] is True


def test_a_receipt_verifies_under_the_published_public_key_with_the_library_alone(facades, stores):
    arbiter = facades(stores.url("sqlite"))
    receipt = new_table(arbiter).play(3).receipts[-1]
    published = arbiter.evidence.public_key()
    assert published["key_id"] == receipt["key"] and published["algorithm"] == "Ed25519"
    body = {k: v for k, v in receipt.items() if k != "signature"}
    message = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()  # the documented canonical form
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(published["public_key"])).verify(bytes.fromhex(receipt["signature"]), message)


@pytest.mark.parametrize("field, value", [("version", 1), ("head", "0" * 64), ("at", "2020-01-01T00:00:00+00:00"),
                                          ("game", "00000000-0000-4000-8000-000000000000")])
def test_a_receipt_with_an_altered_field_is_refused_as_forged(facades, stores, field, value):
    arbiter = facades(stores.url("sqlite"))
    receipt = new_table(arbiter).play(3).receipts[-1]
    forged = {**receipt, field: value}
    assert forged != receipt
    with pytest.raises(ForgedReceipt, match="signature does not match"):
        arbiter.evidence.verify_receipt(forged)


def test_a_receipt_signed_by_another_key_is_refused_naming_both_keys(facades, stores):
    arbiter = facades(stores.url("sqlite"))
    genuine = new_table(arbiter).play(3).receipts[-1]
    other = ServerKey.generate()
    forged = other.sign({k: v for k, v in genuine.items() if k not in ("key", "signature")})
    with pytest.raises(ForgedReceipt) as refused:
        arbiter.evidence.verify_receipt(forged)
    assert other.id in refused.value.detail and genuine["key"] in refused.value.detail
    impersonating = {**forged, "key": genuine["key"]}  # the server's key id, another key's signature
    with pytest.raises(ForgedReceipt, match="signature does not match"):
        arbiter.evidence.verify_receipt(impersonating)


@pytest.mark.parametrize("doc, field", [([], "receipt"), ({"format": "arbiter.receipt/1"}, "game"),
                                        ({"version": "7"}, "version"), ({"version": 2**70}, "version"), ({"head": "xyz"}, "head"), ({"extra": 1}, "extra")])
def test_a_malformed_receipt_is_refused_naming_the_field(facades, stores, doc, field):
    arbiter = facades(stores.url("sqlite"))
    receipt = new_table(arbiter).receipts[-1]
    bad = doc if isinstance(doc, list) or field == "game" else {**receipt, **doc}
    if field == "game":
        bad = {k: v for k, v in receipt.items() if k != "game"}
    with pytest.raises(BadInput) as refused:
        arbiter.evidence.verify_receipt(bad)
    assert refused.value.field == field


def test_a_receipt_against_a_truncated_store_reports_the_versions_gone(facades, store):
    kind, url = store
    table = new_table(facades(url)).play(12)
    receipt = table.receipts[-1]
    gone = truncate(kind, url, table.gid, receipt["version"] - 2)

    checked = facades(url).evidence.verify_receipt(receipt)

    assert gone == [receipt["version"] - 1, receipt["version"]]
    assert checked["ok"] is False and checked["status"] == "truncated", checked
    assert f"the store ends at version {receipt['version'] - 2}" in checked["detail"]
    earlier = table.receipts[-4]
    assert facades(url).evidence.verify_receipt(earlier)["status"] == "intact", "what is still stored still verifies"


def test_a_receipt_against_a_rewritten_store_reports_the_rewrite(facades, store):
    from tests.integration.service_support import RawEvents

    kind, url = store
    table = new_table(facades(url)).play(12)
    receipt = table.receipts[-1]
    raw = RawEvents(kind, url)
    try:
        version = receipt["version"] // 2
        state = raw.state(table.gid, version)
        at = state.index(b'"prev":"') + len(b'"prev":"')
        raw.set_state(table.gid, version, state[:at] + (b"0" if state[at:at + 1] != b"0" else b"1") + state[at + 1:])
    finally:
        raw.close()

    checked = facades(url).evidence.verify_receipt(receipt)

    assert checked["ok"] is False and checked["status"] == "rewritten", checked
    assert f"at version {version}" in checked["detail"]


def test_a_receipt_of_a_deleted_game_reports_the_deletion(facades, store):
    kind, url = store
    table = new_table(facades(url)).play(5)
    truncate(kind, url, table.gid, 0)

    checked = facades(url).evidence.verify_receipt(table.receipts[-1])

    assert checked["ok"] is False and checked["status"] == "deleted" and "holds no event" in checked["detail"]


def _receipt_file(tmp_path, receipts) -> str:
    path = tmp_path / "receipts.json"
    path.write_text(json.dumps(receipts))
    return str(path)


def test_verify_with_a_receipt_file_exits_0_intact_1_truncated_2_forged_without_a_traceback(facades, stores, tmp_path):
    url = stores.url("sqlite")
    table = new_table(facades(url)).play(12)
    path = _receipt_file(tmp_path, table.receipts)
    run = lambda *a: CliRunner().invoke(main, ["verify", table.id, "--receipt", *a, "--database-url", url])  # noqa: E731

    intact = run(path)
    assert intact.exit_code == 0, intact.output
    assert intact.output.count("intact") == len(table.receipts)

    truncate("sqlite", url, table.gid, table.receipts[-1]["version"] - 1)
    truncated = run(path, "--json")
    assert truncated.exit_code == 1, truncated.output
    statuses = [json.loads(line)["status"] for line in truncated.output.splitlines() if line.startswith("{")]
    assert statuses[-1] == "truncated" and set(statuses[:-1]) == {"intact"}

    forged = _receipt_file(tmp_path, [{**table.receipts[0], "version": 99}])
    refused = run(forged)
    assert refused.exit_code == 2 and "refused" in refused.output and "Traceback" not in refused.output

    (tmp_path / "junk.json").write_text("not json at all {")
    junk = run(str(tmp_path / "junk.json"))
    assert junk.exit_code == 2 and "not a receipt" in junk.output and junk.exception is None or isinstance(junk.exception, SystemExit)


def test_the_api_checks_a_receipt_and_refuses_a_forged_one_as_a_problem(tmp_path):
    from api import create_app
    from tests.integration.api_support import CheckedClient, assert_problem, create, play, to_act

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'api.db'}"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    table = create(client, 3)
    seat = to_act(client, table)
    legal = client.get(f"{table.url}/view", headers=table.seat(seat)).get_json()["table"]["legal_moves"][0]
    answer = play(client, table, {k: v for k, v in legal.items() if k != "seat"}, seat)
    receipt = answer["receipt"]
    assert set(receipt) == RECEIPT_FIELDS and receipt["version"] == answer["version"]

    checked = client.post("/api/v1/receipts/verify", json=receipt)
    assert checked.status_code == 200 and checked.get_json()["status"] == "intact"
    promise = checked.get_json()["promise"]  # the receipt's promise, held against the published log
    assert promise["status"] in ("pending", "kept") and promise["promise"]["version"] == receipt["version"], promise
    malformed_promise = assert_problem(client.post("/api/v1/receipts/verify", json={**receipt, "promise": 7}), 422)
    assert malformed_promise["field"] == "promise"
    forged = assert_problem(client.post("/api/v1/receipts/verify", json={**receipt, "version": receipt["version"] + 1}), 422)
    assert forged["title"] == "Forged receipt" and "signature" in forged["detail"]
    malformed = assert_problem(client.post("/api/v1/receipts/verify", json={**receipt, "head": 7}), 422)
    assert malformed["field"] == "head"
    key = client.get("/api/v1/keys").get_json()
    assert key["key_id"] == receipt["key"] and len(key["public_key"]) == 64 and "BEGIN PUBLIC KEY" in key["pem"]
    assert key["mmd_seconds"] == 10
    assert canonical({"b": 1, "a": "x"}) == b'{"a":"x","b":1}'
