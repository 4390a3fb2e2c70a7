"""Two real `arbiter serve` hosts on one PostgreSQL schema, each in its own folder with a copy of the same key file:
a receipt host A signed verifies on host B, B serves the checkpoint A wrote, a third host started with another key
exits 2 before listening naming both key ids, and `arbiter verify --all` from a fourth folder holding only the URL
and the public key exits 0 (docs/evidence.md, Several hosts on PostgreSQL). Skipped without
ARBITER_TEST_POSTGRES_URL."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from service.evidence.keys import load_or_create
from tests.support import drop_store_schema

ROOT = Path(__file__).resolve().parents[2]
ARBITER = ROOT / ".venv" / "bin" / "arbiter"
POSTGRES_ENV = "ARBITER_TEST_POSTGRES_URL"
BOOT_TIMEOUT = 60.0
SPEC = {"game": "el-royale", "options": {"edition": "revised"}, "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}

pytestmark = pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")


def call(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, f"/api/v1{path}", body=data, headers={"Accept": "application/json",
                                                                 "Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


class Host:
    """`arbiter serve` in its own folder with its own key file (one worker, a port of its own)."""

    def __init__(self, folder: Path, url: str, key_file: Path):
        folder.mkdir(exist_ok=True)
        self.folder = folder
        self.log = folder / "server.log"
        env = {**os.environ, "ARBITER_KEY_FILE": str(key_file), "ARBITER_STATE_DIR": str(folder / "state")}
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([str(ARBITER), "serve", "--workers", "1", "--port", "0", "--database-url", url],
                                         cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.port = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_serving(self) -> "Host":
        deadline = time.monotonic() + BOOT_TIMEOUT
        while self.port is None:
            for line in self.output().splitlines():
                if "arbiter is serving on" in line:
                    self.port = int(line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
            if self.port is None and (self.proc.poll() is not None or time.monotonic() > deadline):
                raise AssertionError(f"the host never served:\n{self.output()}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


@pytest.fixture
def store():
    if not ARBITER.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    base = os.environ[POSTGRES_ENV]
    schema = f"arbiter_hosts_ev_{uuid.uuid4().hex[:10]}"
    try:
        yield f"{base}{'&' if '?' in base else '?'}schema={schema}"
    finally:
        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            drop_store_schema(conn, schema)


def test_hosts_sharing_a_key_file_share_evidence_and_a_host_with_another_key_refuses(store, tmp_path):
    key_a = tmp_path / "a" / "signing.key"
    key_a.parent.mkdir()
    key_id = load_or_create(key_a)[0].id
    (tmp_path / "b").mkdir()
    shutil.copy(key_a, tmp_path / "b" / "signing.key")
    hosts = []
    try:
        a = Host(tmp_path / "a", store, key_a).wait_serving()
        hosts.append(a)
        b = Host(tmp_path / "b", store, tmp_path / "b" / "signing.key").wait_serving()
        hosts.append(b)

        status, created = call(a.port, "POST", "/games", SPEC)
        assert status == 201, created
        status, checked = call(b.port, "POST", "/receipts/verify", created["receipt"])
        assert status == 200 and checked["status"] == "intact", checked
        status, log = call(b.port, "GET", f"/checkpoints?game={created['id']}")
        assert status == 200 and log["log"]["ok"] is True and [c["reason"] for c in log["checkpoints"]] == ["created"]
        public = call(b.port, "GET", "/keys")[1]
        assert public["key_id"] == key_id

        other = tmp_path / "c" / "signing.key"
        other.parent.mkdir()
        other_id = load_or_create(other)[0].id
        c = Host(tmp_path / "c", store, other)
        hosts.append(c)
        assert c.proc.wait(timeout=BOOT_TIMEOUT) == 2
        out = " ".join(c.output().split())
        assert "refusing to serve" in out and key_id in out and other_id in out and "serving on" not in out, out

        fourth = tmp_path / "fourth"
        fourth.mkdir()
        env = {k: v for k, v in os.environ.items() if k != "ARBITER_KEY_FILE"}
        env["ARBITER_STATE_DIR"] = str(fourth / "state")
        done = subprocess.run([str(ARBITER), "verify", "--all", "--database-url", store, "--public-key",
                               public["public_key"]], cwd=fourth, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    finally:
        for host in hosts:
            host.stop()
