"""The maximum merge delay (docs/evidence.md): every acknowledged move and kept refusal carries the log's signed promise
to be in a published checkpoint within ARBITER_LOG_MMD seconds; the duty loop keeps it by writing a line for every
game that moved before each publish, whatever the game does next; `verify --all` names what no published checkpoint
covers yet and how long ago it was acknowledged (a finding past the MMD); the holder of a promise the log broke proves
it with `arbiter verify GAME --receipt FILE`. On the file log (SQLite) and on PostgreSQL.
"""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.attempts import attempts_id
from service.errors import IllegalMove
from service.evidence import promises
from service.evidence.publish_duty import PublishDuty
from service.evidence.signed_notes import open_note
from service.play.commands import PlayMove
from tests.integration.evidence_support import new_table, truncate, verify_all
from tests.integration.service_support import RawEvents

STORES = ["sqlite", "postgres"]


def refuse(arbiter, table) -> IllegalMove:
    """One refused attempt by a seat that is not to act (kept: it counts among the game's refused attempts)."""
    seat = arbiter.app.game(table.gid).state.to_act
    bystander = next(s for s in range(len(table.tokens)) if s != seat)
    with pytest.raises(IllegalMove) as refused:
        arbiter.play.move(table.tokens[bystander], PlayMove.from_body(table.id, {"type": "pass"}))
    return refused.value


def duty_round(arbiter) -> None:
    """One round of the duty loop: the store's news read, every game that moved covered, the tree published."""
    part = next(p for p in arbiter.play.duty.parts if isinstance(p, PublishDuty))
    part._last = 0.0  # due now
    arbiter.play.duty.tick()


def uncovered_play(arbiter, moves: int = 3):
    """A game whose latest moves fall between its checkpoints (no line at its version yet)."""
    table = new_table(arbiter, 3).play(moves)
    lines = arbiter.evidence.checkpoints(limit=1000, game=table.id)
    assert lines[-1]["version"] < table.version, "the moves must fall inside the cadence's window"
    return table


def assert_covered_by_an_mmd_line(arbiter, table, refusal: IllegalMove) -> None:
    """The game's latest line is the duty's cover of its last move and refusal, and both promises are kept."""
    line = arbiter.evidence.checkpoints(limit=10_000, game=table.id)[-1]
    assert (line["reason"], line["version"], line["attempts"]) == ("mmd", table.version, refusal.attempt)
    assert arbiter.evidence.keep_promise(table.receipts[-1]["promise"])["status"] == "kept"
    assert arbiter.evidence.keep_promise(refusal.promise)["status"] == "kept"


@pytest.fixture(params=STORES)
def store(request, stores, facades, monkeypatch):
    """(kind, url, facade) on a fresh store of each kind, with a maximum merge delay no loaded machine overruns
    between a test's steps (the tests that need a promise past its time shorten it)."""
    monkeypatch.setenv("ARBITER_LOG_MMD", "120")
    kind, url = request.param, stores.url(request.param)
    return kind, url, facades(url)


def test_every_acknowledgement_carries_a_promise_signed_by_the_log_key(store, facades, monkeypatch):
    kind, url, arbiter = store
    table = uncovered_play(arbiter)
    receipt = table.receipts[-1]
    verifier = arbiter.evidence.transparency.verifier()
    open_note(receipt["promise"], [verifier])  # a C2SP signed note under the log's key: raises if it does not verify
    promise = promises.read(receipt["promise"], verifier)
    assert (promise.game, promise.version, promise.attempts) == (table.id, receipt["version"], 0)
    assert (promise.by - promise.acknowledged).total_seconds() == arbiter.evidence.mmd
    monkeypatch.delenv("ARBITER_LOG_MMD")
    assert facades(url).evidence.mmd == 10  # the default
    assert arbiter.evidence.key.signature_problem(receipt) is None  # the receipt's own signature covers its promise

    refusal = refuse(arbiter, table)
    promise = promises.read(refusal.promise, verifier)
    assert (promise.game, promise.version, promise.attempts) == (table.id, table.version, refusal.attempt)

    table.play(1)  # the next seat's move: its promise says nothing of the refusal another seat made
    assert promises.read(table.receipts[-1]["promise"], verifier).attempts == 0


def test_the_duty_covers_every_game_that_moved_in_one_batch_before_it_publishes(store):
    kind, url, arbiter = store
    moved, refused_at = uncovered_play(arbiter), uncovered_play(arbiter)
    refusal = refuse(arbiter, refused_at)
    before = len(arbiter.evidence.checkpoints(limit=10_000))

    duty_round(arbiter)

    lines = arbiter.evidence.checkpoints(limit=10_000)
    written = lines[before:]
    assert sorted(line["game"] for line in written) == sorted([moved.id, refused_at.id])
    assert {line["reason"] for line in written} == {"mmd"}
    by_game = {line["game"]: line for line in written}
    assert by_game[moved.id]["version"] == moved.version
    assert by_game[refused_at.id]["attempts"] == refusal.attempt
    published = arbiter.evidence.transparency.latest()
    assert published.size == len(lines)  # published after the cover, in the same round
    for receipt in (moved.receipts[-1], {"promise": refusal.promise}):
        assert arbiter.evidence.keep_promise(receipt["promise"])["status"] == "kept"

    duty_round(arbiter)  # nothing moved since: no line
    assert len(arbiter.evidence.checkpoints(limit=10_000)) == len(lines)


def test_a_move_deleted_after_the_mmd_is_detected_by_verify_all(store):
    kind, url, arbiter = store
    table = uncovered_play(arbiter)
    duty_round(arbiter)
    gone = truncate(kind, url, table.gid, table.version - 1)
    assert gone == [table.version]

    code, output, _ = verify_all(url)
    assert code == 1, output
    flat = " ".join(output.split())
    assert f"signed version {table.version}" in flat and "truncated" in flat, output


def test_an_attempt_deleted_after_the_mmd_is_detected_by_verify_all(store):
    kind, url, arbiter = store
    table = uncovered_play(arbiter)
    duty_round(arbiter)
    refusal = refuse(arbiter, table)  # the last thing the game does
    duty_round(arbiter)
    raw = RawEvents(kind, url)
    try:
        raw.delete(attempts_id(table.gid), refusal.attempt + 1)
    finally:
        raw.close()

    code, output, _ = verify_all(url)
    assert code == 1, output
    assert "refused attempt 1 is gone" in " ".join(output.split()) or "refused attempt(s) are gone" in output, output


def test_verify_all_names_the_newest_uncovered_thing_and_how_long_ago_it_was_acknowledged(store, monkeypatch):
    kind, url, arbiter = store
    uncovered_play(arbiter)
    duty_round(arbiter)  # the server's first cover: from its first `mmd` line on, what it acknowledges is held to the MMD
    table = uncovered_play(arbiter)
    arbiter.evidence.transparency.publish()  # a checkpoint is out, without the game's latest moves

    code, output, _ = verify_all(url, "--json")
    assert code == 0, output  # within the MMD: named, no finding
    report = next(json.loads(line) for line in output.splitlines() if line.startswith("{") and table.id in line)
    late = report["checkpoint"]["uncovered"]
    assert late["newest"] == f"version {table.version}" and 0 <= late["seconds_ago"] < 120 and late["past_mmd"] is False

    monkeypatch.setenv("ARBITER_LOG_MMD", "1")
    time.sleep(1.2)
    code, output, _ = verify_all(url)
    flat = " ".join(output.split())
    assert code == 1, output
    assert f"{table.id}: version {table.version} acknowledged" in flat and "past the MMD" in flat, output
    assert "the log broke its promise" in flat, output

    duty_round(arbiter)  # covered and published: nothing left to name
    code, output, _ = verify_all(url)
    assert code == 0 and "not yet in a published checkpoint" not in output, output


def test_a_store_served_before_the_mmd_is_named_but_not_held_to_it(store, monkeypatch):
    kind, url, arbiter = store
    table = uncovered_play(arbiter)
    arbiter.evidence.transparency.publish()  # published as a server from before did: no `mmd` line, no promise
    monkeypatch.setenv("ARBITER_LOG_MMD", "1")
    time.sleep(1.2)
    code, output, _ = verify_all(url)
    flat = " ".join(output.split())
    assert code == 0, output
    assert f"{table.id}: version {table.version} acknowledged" in flat and "past the MMD" not in flat, output


def _verify_receipts(url: str, game: str, path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", game, "--receipt", str(path), "--database-url", url])
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def test_a_promise_the_log_broke_is_detected_by_the_holders_receipt(stores, facades, monkeypatch, tmp_path):
    monkeypatch.setenv("ARBITER_LOG_MMD", "120")
    for kind in STORES:
        url = stores.url(kind)
        arbiter = facades(url)
        table = uncovered_play(arbiter)
        refusal = refuse(arbiter, table)
        kept = new_table(arbiter, 3).play(3)
        duty_round(arbiter)  # covers both, then both promises' checks below are kept
        receipt, answer = table.receipts[-1], {"attempt": refusal.attempt, "promise": refusal.promise}
        (tmp_path / "kept.json").write_text(json.dumps([receipt, answer]))
        code, output = _verify_receipts(url, table.id, tmp_path / "kept.json")
        assert code == 0 and output.count("kept: line") == 2, output

        arbiter.evidence.mmd = 1  # the promises handed out from now on are due within a second
        late = kept.play(3)  # acknowledged, and then the log publishes without it (its duty never covered it)
        late_refusal = refuse(arbiter, late)
        time.sleep(1.2)
        arbiter.evidence.transparency.publish()
        (tmp_path / "late.json").write_text(json.dumps([late.receipts[-1], {"promise": late_refusal.promise}]))
        code, output = _verify_receipts(url, late.id, tmp_path / "late.json")
        assert code == 1, output
        assert f"broken promise: the log promised game {late.id} at version {late.version}" in output, output
        assert f"with {late_refusal.attempt} refused attempt(s) in a published checkpoint by" in output, output


def test_a_forged_or_malformed_promise_is_refused_naming_it(store, tmp_path):
    kind, url, arbiter = store
    table = uncovered_play(arbiter)
    note = table.receipts[-1]["promise"]
    (tmp_path / "forged.json").write_text(json.dumps({"promise": note.replace("version ", "version 1")}))
    code, output = _verify_receipts(url, table.id, tmp_path / "forged.json")
    assert code == 2 and "promise refused" in output and "does not verify" in output, output
    (tmp_path / "bad.json").write_text(json.dumps({"promise": "not a note"}))
    code, output = _verify_receipts(url, table.id, tmp_path / "bad.json")
    assert code == 2 and "promise:" in output, output


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A real server on a SQLite file store, its duty loop running as `arbiter serve`'s does (publishing every 0.2 s):
    its base URL and its facade."""
    import threading

    from werkzeug.serving import make_server

    from api import create_app

    monkeypatch.setenv("ARBITER_LOG_PUBLISH_SECONDS", "0.2")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}", "LOG_ORIGIN": "arbiter.test/mmd",
                      "DUTIES": True})
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    arbiter = app.extensions["arbiter"]
    try:
        yield f"http://127.0.0.1:{http.server_port}", arbiter
    finally:
        http.shutdown()
        arbiter.play.duty.stop()
        arbiter.app.close()


def test_a_refusals_422_answer_carries_a_promise_the_served_log_keeps_and_proof_get_proves(served, tmp_path):
    import urllib.error
    import urllib.request

    url, arbiter = served
    table = uncovered_play(arbiter)
    seat = arbiter.app.game(table.gid).state.to_act
    bystander = next(s for s in range(len(table.tokens)) if s != seat)
    request = urllib.request.Request(f"{url}/api/v1/games/{table.id}/moves", data=json.dumps({"type": "pass"}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {table.tokens[bystander]}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    answer = json.loads(refused.value.read())
    assert refused.value.code == 422 and answer["attempt"] == 1, answer
    promise = promises.read(answer["promise"], arbiter.evidence.transparency.verifier())
    assert (promise.game, promise.attempts) == (table.id, 1)

    deadline = time.monotonic() + 10  # the game does nothing more: the running duty loop covers and publishes it
    while arbiter.evidence.keep_promise(answer["promise"])["status"] != "kept":
        assert time.monotonic() < deadline, arbiter.evidence.keep_promise(answer["promise"])
        time.sleep(0.1)
    saved = tmp_path / "refusal.json"
    saved.write_text(json.dumps(answer))
    bundle = tmp_path / "bundle.json"
    got = CliRunner().invoke(main, ["proof", "get", str(saved), "--server", url, "-o", str(bundle), "--timeout", "20"])
    assert got.exit_code == 0, got.output
    key = arbiter.evidence.transparency.key_text().strip()
    checked = CliRunner().invoke(main, ["proof", "check", str(bundle), "--key", key])
    assert checked.exit_code == 0 and "covering the promise" in checked.output, checked.output
    assert "leaf: checkpoint line" in checked.output and "covers the promise" in checked.output

    doc = json.loads(bundle.read_text())
    doc["promise"] = doc["promise"].replace("attempts 1", "attempts 2")
    bundle.write_text(json.dumps(doc))
    checked = CliRunner().invoke(main, ["proof", "check", str(bundle), "--key", key])
    assert checked.exit_code == 1 and "FAILED promise" in checked.output, checked.output


def test_a_refusal_on_the_table_page_hands_its_promise_to_the_seats_kept_receipts(client):
    import html
    import re

    from tests.integration.api_support import create, to_act

    table = create(client, 3)
    idle = (to_act(client, table) + 1) % 3
    client.get(f"/join/{table.id}/{table.seat_tokens[idle]}")
    page = client.post(f"/games/{table.id}/act", data={"type": "pass"}).get_data(as_text=True)
    kept = re.search(r"data-receipt='([^']*)'", page)
    assert kept, "the refusal's promise is not handed to the page's receipts"
    doc = json.loads(html.unescape(kept.group(1)))
    assert doc["attempt"] == 1 and promises.read(doc["promise"]).game == table.id


def test_a_host_still_running_covers_what_another_acknowledged(store, facades):
    kind, url, first = store
    second = facades(url)  # another process (or host) of the same store and log
    table = uncovered_play(first)
    refusal = refuse(first, table)  # acknowledged by the first, which then stops before its duty covered them
    duty_round(second)
    assert_covered_by_an_mmd_line(first, table, refusal)


def test_a_host_that_stops_cleanly_covers_and_publishes_what_it_acknowledged_first(store):
    kind, url, arbiter = store
    duty = arbiter.play.duty
    duty.start()  # a serving process's loop
    duty_round(arbiter)  # its first round done: what follows is news to it
    table = uncovered_play(arbiter)
    refusal = refuse(arbiter, table)
    duty.stop()  # a clean shutdown: its last round covers and publishes before the leases are given back
    assert_covered_by_an_mmd_line(arbiter, table, refusal)


def test_a_host_that_dies_has_no_last_round(store):
    kind, url, arbiter = store
    duty = arbiter.play.duty
    duty.start()
    duty_round(arbiter)
    table = uncovered_play(arbiter)
    duty.abandon()  # as a killed host: nothing more is written (another host covers it: the test above)
    line = arbiter.evidence.checkpoints(limit=10_000, game=table.id)[-1]
    assert line["version"] < table.version


def test_a_cover_round_reads_no_stored_row_of_the_games_that_moved_news_of(store):
    """A round's lines come from the notifications the duty follows (each is the stored row): reading each game's
    newest rows would give the interpreter's lock away per game, behind the threads serving moves."""
    kind, url, arbiter = store
    duty_round(arbiter)  # the loop's first round: what follows is news to it
    tables = [uncovered_play(arbiter) for _ in range(3)]
    refusal = refuse(arbiter, tables[0])
    recorder, reads = arbiter.app.recorder, []
    select = recorder.select_events

    def counted(*args, **kwargs):
        reads.append(args[0] if args else kwargs.get("originator_id"))
        return select(*args, **kwargs)

    recorder.select_events = counted
    try:
        duty_round(arbiter)
    finally:
        recorder.select_events = select
    assert reads == []
    assert_covered_by_an_mmd_line(arbiter, tables[0], refusal)
    for table in tables[1:]:
        assert arbiter.evidence.checkpoints(limit=10_000, game=table.id)[-1]["version"] == table.version
