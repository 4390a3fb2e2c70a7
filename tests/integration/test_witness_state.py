"""The witness's memory (service.witness.state over a real SQLite file): what it cosigned survives a restart, so a
new witness object over the same state file refuses what the old one would; the state only moves forward whatever
it is asked to record; it is bound to the witness's key; and concurrent requests for one log are serialised."""

from __future__ import annotations

import threading

import pytest

from service.evidence.signed_notes import open_note
from service.witness.decide import Decision, Recorded
from service.witness.logs import known_logs
from service.witness.protocol import Answer
from service.witness.state import StateError, StateStore, WitnessStateError
from service.witness.witness import Witness

from .witness_support import Operator


@pytest.fixture
def files(tmp_path):
    return tmp_path / "witness.key", tmp_path / "witness.db"


def open_witness(files, operator: Operator) -> Witness:
    key, state = files
    return Witness.open(key, "witness.test", state, known_logs([operator.signer.verifier.text]))


def test_a_restarted_witness_refuses_what_it_refused_before_the_restart(files):
    log = Operator()
    first = open_witness(files, log)
    answer = first.add_checkpoint(log.request(0, 10))
    assert answer.status == 200
    assert open_note(log.checkpoint(10) + answer.body, [log.signer.verifier, first.cosigner.verifier]).signed_by(
        "witness.test")
    fork = log.fork(b"another first leaf")
    key_before = first.verifier_key
    del first

    again = open_witness(files, log)  # a new object over the same key and state file
    assert again.verifier_key == key_before and again.state.recorded(log.origin).size == 10
    assert again.add_checkpoint(fork.request(10, 10)).status == 409, "a second root for size 10: split view"
    assert again.add_checkpoint(fork.request(10, 15)).status == 422, "a bigger fork does not extend the cosigned tree"
    assert again.add_checkpoint(log.request(0, 6)).body == "10\n", "a rollback to 6 is told the recorded size"
    kept = again.state.evidence(log.origin)
    assert [why.split(":")[0] for why, _ in kept] == ["split view", "the consistency proof from size 10 to 15 does not hold"]
    assert kept[0][1] == fork.request(10, 10), "the log-signed request is kept as evidence"
    assert again.add_checkpoint(log.request(10, 15)).status == 200, "the true log goes on"
    assert open_witness(files, log).state.recorded(log.origin).size == 15


def test_the_store_refuses_to_record_a_rollback_or_a_second_root_whatever_it_is_told(files):
    key, path = files
    store = StateStore(path, "w+1+x", create=True)
    store.update("log", lambda _: Decision(Answer(200, ""), Recorded(10, b"a" * 32)))
    with pytest.raises(StateError, match="rollback"):
        store.update("log", lambda _: Decision(Answer(200, ""), Recorded(9, b"a" * 32)))
    with pytest.raises(StateError, match="second root"):
        store.update("log", lambda _: Decision(Answer(200, ""), Recorded(10, b"b" * 32)))
    assert StateStore(path, "w+1+x", create=False).recorded("log") == Recorded(10, b"a" * 32)


def test_a_witness_key_without_its_state_file_does_not_start(files):
    key, state = files
    open_witness(files, Operator())
    state.unlink()
    with pytest.raises(WitnessStateError, match="does not exist, but the witness key does"):
        open_witness(files, Operator())


def test_a_state_file_serves_only_the_witness_it_was_made_with(files, tmp_path):
    key, state = files
    open_witness(files, Operator())
    with pytest.raises(WitnessStateError, match="belongs to the witness witness.test"):
        Witness.open(key, "another.test", state, {})
    (tmp_path / "junk.db").write_bytes(b"not a database" * 100)
    with pytest.raises(WitnessStateError, match="not a usable SQLite"):
        StateStore(tmp_path / "junk.db", "k", create=False)


def test_concurrent_requests_for_one_log_are_serialised_one_wins_each_round(files):
    log = Operator()
    witness = open_witness(files, log)
    size = 0
    for _ in range(6):
        bodies = [log.request(size, size + k) for k in (1, 2, 3, 4)]
        answers = [None] * len(bodies)
        start = threading.Barrier(len(bodies))

        def send(i):
            start.wait()
            answers[i] = witness.add_checkpoint(bodies[i])

        threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        winners = [i for i, a in enumerate(answers) if a.status == 200]
        assert len(winners) == 1, [a.status for a in answers]
        assert all(a.status == 409 for i, a in enumerate(answers) if i not in winners)
        size += winners[0] + 1
        assert witness.state.recorded(log.origin).size == size
