"""`arbiter serve` prints where it serves only once the port is bound, on the port asked for by --port or $PORT
(or a free one for port 0), and nothing else answers there first."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ARBITER = Path(sys.executable).with_name("arbiter")
SERVING = re.compile(r"arbiter is serving on http://([\d.]+):(\d+)/")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(tmp_path, args: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen, re.Match]:
    process = subprocess.Popen([str(ARBITER), "serve", "--database-url", f"sqlite:///{tmp_path / 'a.db'}", "--workers", "1",
                                *args], cwd=tmp_path, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            pytest.fail(f"arbiter serve exited with {process.returncode}")
        found = SERVING.search(line)
        if found:
            return process, found
    process.kill()
    pytest.fail("arbiter serve never said where it serves")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()


def bound_at_once(host: str, port: int) -> None:
    """The port accepts a connection the moment the address is printed (no retry), and the app answers there."""
    with socket.create_connection((host, port), timeout=5):
        pass
    deadline = time.monotonic() + 30  # the worker may still be importing the app: the connection waits, not refused
    while True:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        try:
            conn.request("GET", "/api/v1/health")
            assert conn.getresponse().status == 200
            return
        except (ConnectionError, http.client.RemoteDisconnected):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
        finally:
            conn.close()


def test_the_port_comes_from_PORT_when_no_option_names_one(tmp_path):
    port = free_port()
    process, found = serve(tmp_path, [], {"PORT": str(port)})
    try:
        assert int(found.group(2)) == port
        bound_at_once(found.group(1), port)
    finally:
        stop(process)


def test_the_port_option_wins_over_PORT_and_port_0_prints_the_port_taken(tmp_path):
    process, found = serve(tmp_path, ["--port", "0", "--host", "127.0.0.1"], {"PORT": "1"})
    try:
        port = int(found.group(2))
        assert port not in (0, 1) and found.group(1) == "127.0.0.1"
        bound_at_once("127.0.0.1", port)
    finally:
        stop(process)


def test_a_port_already_taken_is_refused_and_no_address_is_printed(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = subprocess.run([str(ARBITER), "serve", "--port", str(port), "--database-url",
                                  f"sqlite:///{tmp_path / 'a.db'}", "--workers", "1"], cwd=tmp_path, capture_output=True,
                                 text=True, timeout=120)
    assert process.returncode != 0
    assert not SERVING.search(process.stdout)
    assert str(port) in process.stdout + process.stderr
