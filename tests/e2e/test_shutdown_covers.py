"""A served host stopped by SIGTERM keeps the promises it handed out (docs/evidence.md, "The maximum merge delay"):
`arbiter serve` (gunicorn, two workers) with a merge delay and a publishing interval far longer than the test, so that
no regular round covers anything; a move and a refusal acknowledged, two live streams of the game left open (a seat
and a spectator still watching), then SIGTERM to the whole process group, as an operator's `systemctl stop` or a
container's shutdown sends it. The streams are cut after a grace (api.http.worker) so that the worker is not killed
waiting for them. Each worker's duty loop has a last round on the way
out (service.duty.Duty.stop through atexit), so both promises are kept by a published checkpoint when the host is
gone: `arbiter verify GAME --receipt` says so from another process."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import time
import uuid
from pathlib import Path

from bots import SeatView, make_bot

from api.http.server import GRACEFUL_SECONDS

from .hosts_support import API, ARBITER, Host, call, clean_env, signing_key_pem


def open_stream(port: int, game: str, token: str | None) -> socket.socket:
    """A live stream of the game, open (its headers read) and left open: a viewer still watching at the stop."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall((f"GET {API}/games/{game}/stream HTTP/1.0\r\nHost: arbiter\r\nAccept: text/event-stream\r\n"
                  f"{auth}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, f"the stream closed before its headers: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200") or head.startswith(b"HTTP/1.0 200"), head[:200]
    return sock


def test_a_host_stopped_by_sigterm_covers_and_publishes_what_it_acknowledged_before_it_exits(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    quiet = {"ARBITER_LOG_MMD": "600", "ARBITER_LOG_PUBLISH_SECONDS": "300"}
    host = Host("a", tmp_path / "host", url, signing_key_pem(), workers=2, threads=4, env=quiet).start()
    try:
        host.wait_ready()
        status, created = call(host.port, "POST", "/games", body={"game": "el-royale", "players": [
            {"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]})
        assert status == 201, created
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        status, view = call(host.port, "GET", f"/games/{gid}/view", tokens[0])
        assert status == 200, view
        seat = view["table"]["to_act"]
        status, view = call(host.port, "GET", f"/games/{gid}/view", tokens[seat])
        move = {k: v for k, v in make_bot("random", "el-royale", seat, random.Random(7))
                .choose(SeatView.from_http(view)).items() if k != "seat"}
        status, moved = call(host.port, "POST", f"/games/{gid}/moves", tokens[seat],
                             {**move, "expected_version": view["version"]}, {"Idempotency-Key": uuid.uuid4().hex})
        assert status == 200, moved
        status, view = call(host.port, "GET", f"/games/{gid}/view", tokens[0])
        bystander = next(s for s in range(3) if s != view["table"]["to_act"])  # not its turn: refused, and kept
        status, refused = call(host.port, "POST", f"/games/{gid}/moves", tokens[bystander], {"type": "pass"},
                               {"Idempotency-Key": uuid.uuid4().hex})
        assert status == 422 and refused.get("promise"), refused
        streams = [open_stream(host.port, gid, token) for token in (tokens[0], None)]  # a seat's and a spectator's
    finally:
        stopping = time.monotonic()
        host.stop()  # SIGTERM to the process group, then a wait (SIGKILL only after 15 s)
    took = time.monotonic() - stopping
    assert host.proc.returncode == 0, host.log()[-3000:]
    assert took < GRACEFUL_SECONDS, f"the host took {took:.1f} s to stop: killed by gunicorn, not stopped"
    assert "Traceback" not in host.log() and "[ERROR]" not in host.log(), host.log()[-3000:]  # streams ended, not cut
    for stream in streams:
        stream.settimeout(5)
        try:
            while stream.recv(65536):  # what it was sent, then its end: cut, to resume on another host
                pass
        except socket.timeout:
            raise AssertionError("a stream still open after its host stopped") from None
        finally:
            stream.close()

    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([moved["receipt"], {"attempt": refused["attempt"], "promise": refused["promise"]}]))
    checked = subprocess.run([str(ARBITER), "verify", gid, "--receipt", str(receipts), "--database-url", url],
                             cwd=tmp_path / "host", capture_output=True,
                             env={**clean_env(tmp_path / "host" / "state"), "ARBITER_KEY_FILE": str(host.key_file)},
                             text=True, timeout=120)
    output = " ".join(checked.stdout.split())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert output.count("kept: line") == 2, output
