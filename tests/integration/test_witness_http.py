"""The witness over HTTP (api.witness.app, a real state file) and the log's client (service.evidence.witness_client)
against it and against witnesses that misbehave: the client keeps only cosignatures that verify and skips, without
failing, a witness that is down, slow or wrong."""

from __future__ import annotations

import http.server
import logging
import threading
import time

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from werkzeug.serving import make_server

from api.witness.app import create_witness_app
from service.evidence.cosignatures import Cosigner
from service.evidence.signed_notes import open_note
from service.evidence.witness_client import Witness, collect_cosignatures
from service.witness.logs import known_logs
from service.witness.witness import Witness as WitnessService

from .witness_support import Operator


@pytest.fixture
def log():
    return Operator()


def make_witness(tmp_path, log: Operator, name: str = "witness.test") -> WitnessService:
    folder = tmp_path / name
    return WitnessService.open(folder / "key", name, folder / "state.db", known_logs([log.signer.verifier.text]))


@pytest.fixture
def client(tmp_path, log):
    witness = make_witness(tmp_path, log)
    return create_witness_app(witness, max_body=4096).test_client(), witness


def test_post_add_checkpoint_answers_the_cosignature_line(client, log):
    http, witness = client
    response = http.post("/add-checkpoint", data=log.request(0, 5))
    assert response.status_code == 200 and response.text.startswith("\u2014 witness.test ")
    note = open_note(log.checkpoint(5) + response.text, [log.signer.verifier, witness.cosigner.verifier])
    assert note.signed_by("witness.test")


def test_a_stale_old_size_gets_409_as_text_x_tlog_size(client, log):
    http, _ = client
    assert http.post("/add-checkpoint", data=log.request(0, 5)).status_code == 200
    response = http.post("/add-checkpoint", data=log.request(0, 8))
    assert (response.status_code, response.text, response.content_type) == (409, "5\n", "text/x.tlog.size")


@pytest.mark.parametrize("body, status, says", [
    (b"old x\n\n", 400, "'old <size>'"),
    (b"\xff\xfe garbage", 400, "'old <size>'"),
    (b"old 0\n\nnot a note", 400, "checkpoint"),
])
def test_bad_input_is_a_clear_text_error(client, body, status, says):
    http, _ = client
    response = http.post("/add-checkpoint", data=body)
    assert response.status_code == status and says in response.text and "Traceback" not in response.text


def test_a_body_over_the_limit_is_413_and_other_methods_405(client):
    http, _ = client
    response = http.post("/add-checkpoint", data=b"old 0\n" + b"A" * 5000)
    assert response.status_code == 413 and "larger than 4096 bytes" in response.text
    response = http.get("/add-checkpoint")
    assert response.status_code == 405 and "POST /add-checkpoint" in response.text and "POST" in response.headers["Allow"]


def test_get_root_names_the_witness_key_and_its_logs(client, log):
    http, witness = client
    text = http.get("/").text
    assert witness.verifier_key in text and log.origin in text


class Served:
    """A WSGI app or a handler class on a free local port, in a thread."""

    def __init__(self, app=None, handler=None):
        if app is not None:
            self.server = make_server("127.0.0.1", 0, app, threaded=True)
        else:
            self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def fake(status: int, body: bytes, content_type="text/plain", delay=0.0):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            time.sleep(delay)
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting (the slow witness)
                pass

        def log_message(self, *args):
            pass

    return Handler


def test_the_client_remembers_sizes_follows_a_409_and_keeps_verified_cosignatures(tmp_path, log, caplog):
    one, two = make_witness(tmp_path, log, "w1.test"), make_witness(tmp_path, log, "w2.test")
    served = [Served(create_witness_app(one)), Served(create_witness_app(two))]
    try:
        witnesses = [Witness(served[0].url, one.cosigner.verifier), Witness(served[1].url, two.cosigner.verifier)]
        two.add_checkpoint(log.request(0, 4))  # w2 has seen size 4 already: the client's first ask gets 409 "4"
        got = collect_cosignatures(witnesses, log.checkpoint(9), 9, log.prove)
        assert [s.name for s in got] == ["w1.test", "w2.test"]
        assert (one.state.recorded(log.origin).size, two.state.recorded(log.origin).size) == (9, 9)
        proofs = []
        got = collect_cosignatures(witnesses, log.checkpoint(12), 12,
                                   lambda old, new: proofs.append(old) or log.prove(old, new))
        assert len(got) == 2 and proofs == [9, 9], "the client sends old = the size each witness last cosigned"
        fork = log.fork(b"forged")
        with caplog.at_level(logging.WARNING, "arbiter.evidence.witness"):
            assert collect_cosignatures(witnesses, fork.checkpoint(12), 12, fork.prove) == []
        assert "split view" in caplog.text
    finally:
        for s in served:
            s.close()


@pytest.mark.parametrize("handler, why", [
    (fake(200, b"\xe2\x80\x94 w.test AAAA\n"), "too short"),
    (fake(200, b"nothing signed\n"), "signature"),
    (fake(409, b"not a size\n", "text/x.tlog.size"), "does not carry a tree size"),
    (fake(500, b"boom\n"), "answered 500"),
    (fake(200, b"", delay=2.0), "timed out"),
], ids=["short-line", "no-line", "bad-409", "error", "slow"])
def test_a_witness_that_answers_wrongly_or_slowly_is_logged_and_skipped(tmp_path, log, caplog, handler, why):
    good = make_witness(tmp_path, log)
    served = [Served(create_witness_app(good)), Served(handler=handler)]
    try:
        stranger = Cosigner("w.test", good.cosigner.private)  # any key: the fake never signs
        witnesses = [Witness(served[1].url, stranger.verifier), Witness(served[0].url, good.cosigner.verifier)]
        with caplog.at_level(logging.WARNING, "arbiter.evidence.witness"):
            got = collect_cosignatures(witnesses, log.checkpoint(3), 3, log.prove, timeout=0.5)
        assert [s.name for s in got] == ["witness.test"] and why in caplog.text
    finally:
        for s in served:
            s.close()


def test_a_cosignature_of_another_checkpoint_is_not_kept(tmp_path, log, caplog):
    liar = Cosigner("liar.test", Ed25519PrivateKey.generate())
    line = liar.cosign(log.head(2).text).line.encode()  # a good cosignature, but of the tree of 2, not 3
    served = Served(handler=fake(200, line))
    try:
        with caplog.at_level(logging.WARNING, "arbiter.evidence.witness"):
            got = collect_cosignatures([Witness(served.url, liar.verifier)], log.checkpoint(3), 3, log.prove)
        assert got == [] and "does not verify" in caplog.text
    finally:
        served.close()


def test_a_dead_witness_is_skipped(log, caplog):
    witness = Witness("http://127.0.0.1:9", Cosigner("dead.test", Ed25519PrivateKey.generate()).verifier)
    with caplog.at_level(logging.WARNING, "arbiter.evidence.witness"):
        assert collect_cosignatures([witness], log.checkpoint(1), 1, log.prove, timeout=0.5) == []
    assert "could not be asked" in caplog.text
