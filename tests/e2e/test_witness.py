"""`arbiter witness` as real processes (gunicorn, a key and a state file each) against a log operator in the test
(a Merkle tree in memory and its signing key): the witnesses cosign the log's tree A; the operator then shows a
forked tree B (the same size, or bigger, its first leaf different) and every witness refuses it (409/422): a split
view caught. The log's client gathers cosignatures from the two live witnesses and skips a dead one; a restarted
witness still refuses the fork."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

from service.evidence.signed_notes import NoteError, Verifier
from service.evidence.witness_client import Witness, collect_cosignatures
from service.evidence.witness_quorum import check_quorum
from service.witness.protocol import request_body
from tests.e2e.hosts_support import ARBITER, clean_env, free_port
from tests.integration.witness_support import Operator

START_TIMEOUT = 30


class WitnessProcess:
    """One `arbiter witness` on a free port, with its own folder (key, state file, log)."""

    def __init__(self, folder: Path, name: str, log: Operator):
        self.folder, self.name, self.log = folder, name, log
        folder.mkdir(parents=True, exist_ok=True)
        self.args = [str(ARBITER), "witness", "--name", name, "--key", "witness.key", "--state", "witness.db",
                     "--log", log.signer.verifier.text]
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def print_key(self) -> Verifier:
        done = subprocess.run(self.args + ["--print-key"], cwd=self.folder, env=clean_env(self.folder),
                              capture_output=True, text=True, timeout=START_TIMEOUT, check=True)
        return Verifier.parse(done.stdout.strip())

    def start(self) -> "WitnessProcess":
        self.proc = subprocess.Popen(self.args + ["--port", "0"], cwd=self.folder, env=clean_env(self.folder),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        seen = []
        for line in self.proc.stdout:  # the banner names the bound port
            seen.append(line)
            found = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
            if found:
                self.url = found.group(1)
                return self
        raise AssertionError(f"arbiter witness {self.name} did not start:\n{''.join(seen)[-3000:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=START_TIMEOUT)
            self.proc.stdout.close()

    def post(self, body: bytes) -> tuple[int, str]:
        host, port = self.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            connection.request("POST", "/add-checkpoint", body=body)
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()


@pytest.fixture
def log():
    return Operator("arbiter.test/federation-2026")


@pytest.fixture
def witnesses(tmp_path, log):
    started = [WitnessProcess(tmp_path / name, name, log) for name in ("w1.test", "w2.test")]
    try:
        keys = [w.print_key() for w in started]
        for w in started:
            w.start()
        yield started, keys
    finally:
        for w in started:
            w.stop()


def test_witnesses_cosign_the_log_and_refuse_its_forked_tree_a_split_view(log, witnesses):
    (w1, w2), keys = witnesses
    dead = Witness(f"http://127.0.0.1:{free_port()}", keys[0])  # nobody listens there
    live = [Witness(w1.url, keys[0]), Witness(w2.url, keys[1])]

    note_a = log.checkpoint(10)
    cosignatures = collect_cosignatures([dead, *live], note_a, 10, log.prove, timeout=2)
    assert [s.name for s in cosignatures] == ["w1.test", "w2.test"], "the dead witness is skipped"
    published = note_a + "".join(s.line for s in cosignatures)
    assert check_quorum(published, log.signer.verifier, keys, 2) == ["w1.test", "w2.test"]

    fork = log.fork(b"a first leaf the public never saw")  # tree B: the same key and origin, another history
    same_size = [w.post(fork.request(10, 10)) for w in (w1, w2)]
    assert same_size == [(409, "10\n")] * 2, "a second root for size 10: a split view, refused"
    bigger = [w.post(fork.request(10, 16)) for w in (w1, w2)]
    assert all(status == 422 and "does not hold" in text for status, text in bigger), \
        "tree B of 16 leaves does not extend the cosigned tree A of 10: a split view, refused"

    note_b = fork.checkpoint(16)
    assert collect_cosignatures(live, note_b, 16, fork.prove, timeout=5) == []
    with pytest.raises(NoteError, match="missing w1.test, w2.test"):  # what a player shown tree B finds
        check_quorum(note_b, log.signer.verifier, keys, 1)

    assert len(collect_cosignatures(live, log.checkpoint(16), 16, log.prove, timeout=5)) == 2, "tree A goes on"


def test_a_restarted_witness_still_refuses_the_fork_and_a_rollback(log, witnesses):
    (w1, _), keys = witnesses
    assert w1.post(log.request(0, 8))[0] == 200
    w1.stop()
    w1.start()
    assert w1.post(log.fork(b"forged").request(8, 8)) == (409, "8\n")
    assert w1.post(log.request(0, 5)) == (409, "8\n")
    assert w1.post(request_body(8, [], log.checkpoint(5)))[0] == 400, "old 8 > size 5"
    assert w1.post(log.request(8, 9))[0] == 200
