"""Several `arbiter serve` hosts on one PostgreSQL schema, and clients that spread their requests over them.

Used by test_several_hosts.py (the harness of issue 25) and bench/hosts.py. A host is a real `arbiter serve` process
group with its own working folder (its cwd) and its own ARBITER_STATE_DIR; hosts share no file: the same signing key
is *copied* into each folder and given with --key-file. Killing a host is SIGKILL to its whole process group (the
gunicorn master and its workers at once), as a machine that dies.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
import uuid
from itertools import count
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARBITER = ROOT / ".venv" / "bin" / "arbiter"
POSTGRES_ENV = "ARBITER_TEST_POSTGRES_URL"
API = "/api/v1"
BOOT_TIMEOUT = 40.0      # seconds for a host to answer /health
REQUEST_TIMEOUT = 20.0   # a request without an answer by then is a connection error (retried elsewhere)
RETRY_SECONDS = 30.0     # a request is retried on the other hosts for this long before it counts as failed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def signing_key_pem() -> bytes:
    """A fresh Ed25519 signing key as the PEM file every host is given a copy of."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                      serialization.NoEncryption())


def public_key_hex(pem: bytes) -> str:
    from cryptography.hazmat.primitives import serialization

    return serialization.load_pem_private_key(pem, password=None).public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def clean_env(state_dir: Path) -> dict:
    """The environment of a host or a CLI run: nothing of the test's ARBITER_* settings, its own state folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_") and k != "PORT"}
    env["ARBITER_STATE_DIR"] = str(state_dir)
    return env


def give_key(folder: Path, pem: bytes) -> Path:
    """A copy of the signing key in `folder` (mode 0600), as an operator would put one on each machine."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "signing.key"
    path.write_bytes(pem)
    path.chmod(0o600)
    return path


class Host:
    """One `arbiter serve` on its own port, folder and state folder."""

    def __init__(self, name: str, folder: Path, url: str, pem: bytes, workers: int = 1, threads: int = 8,
                 env: dict | None = None):
        self.name, self.folder, self.url = name, folder, url
        self.env = dict(env or {})  # settings of this host's own (ARBITER_JOB_LEASE_SECONDS...)
        self.key_file = give_key(folder, pem)
        self.port = free_port()
        self.workers, self.threads = workers, threads
        self.log_path = folder / "server.log"
        self.proc: subprocess.Popen | None = None

    def __repr__(self) -> str:
        return f"host {self.name} (:{self.port})"

    def start(self) -> "Host":
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [str(ARBITER), "serve", "--database-url", self.url, "--port", str(self.port),
                 "--workers", str(self.workers), "--threads", str(self.threads), "--key-file", str(self.key_file)],
                cwd=self.folder, env={**clean_env(self.folder / "state"), **self.env}, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        return self

    def wait_ready(self) -> "Host":
        """Once /health answers 200; raises AssertionError with the log if the host exits or never answers."""
        deadline = time.monotonic() + BOOT_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"{self} exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            try:
                if call(self.port, "GET", "/health", timeout=5)[0] == 200:
                    return self
            except (OSError, http.client.HTTPException):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{self} did not answer /health within {BOOT_TIMEOUT:.0f} s:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def pids(self) -> list[int]:
        """The host's processes (the gunicorn master and its workers): its session, read from /proc."""
        if self.proc is None:
            return []
        out = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[3]) == self.proc.pid:  # the session id (start_new_session: the master's pid)
                out.append(int(stat.parent.name))
        return sorted(out)

    def kill(self) -> None:
        """SIGKILL to every process of the host at once, as a machine that dies."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if not self.alive():
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def call(port: int, method: str, path: str, token: str | None = None, body: dict | None = None,
         headers: dict | None = None, timeout: float = REQUEST_TIMEOUT) -> tuple[int, dict | list]:
    """One JSON request on a fresh connection; (status, answer). Raises OSError/HTTPException on a connection error."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        head = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            head["Content-Type"] = "application/json"
        if token:
            head["Authorization"] = f"Bearer {token}"
        conn.request(method, f"{API}{path}", body=data, headers=head)
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, (json.loads(raw) if raw else {})
    finally:
        conn.close()


class Rotation:
    """The hosts clients talk to, taken round-robin; a host is swapped for another while clients run."""

    def __init__(self, hosts: list[Host]):
        self.hosts = list(hosts)
        self._turn = count()
        self._lock = threading.Lock()
        self.retries = 0      # requests sent again to another host after a connection error
        self.served: dict[str, int] = {}

    def next(self) -> Host:
        with self._lock:
            return self.hosts[next(self._turn) % len(self.hosts)]

    def replace(self, old: Host, new: Host) -> None:
        with self._lock:
            self.hosts[self.hosts.index(old)] = new

    def request(self, method: str, path: str, token: str | None = None, body: dict | None = None,
                key: str | None = None) -> tuple[int, dict | list, Host]:
        """The request on the next host; on a connection error the very same request (same Idempotency-Key) on the
        next one, until RETRY_SECONDS. (status, answer, the host that answered); raises AssertionError after that."""
        headers = {"Idempotency-Key": key} if key else None
        deadline, errors = time.monotonic() + RETRY_SECONDS, []
        while True:
            host = self.next()
            try:
                status, answer = call(host.port, method, path, token, body, headers)
            except (OSError, http.client.HTTPException) as e:
                errors.append(f"{host}: {type(e).__name__}")
                if time.monotonic() > deadline:
                    raise AssertionError(f"{method} {path}: no host answered: {errors[-6:]}") from None
                with self._lock:
                    self.retries += 1
                time.sleep(0.05)
                continue
            with self._lock:
                self.served[host.name] = self.served.get(host.name, 0) + 1
            return status, answer, host


def schema_url(base: str, prefix: str) -> tuple[str, str]:
    """(a fresh schema's name, the store URL naming it) on the database of `base`."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    return schema, f"{base}{'&' if '?' in base else '?'}schema={schema}"


def drop_schema(base: str, schema: str) -> None:
    """Drop the store's schema with its evidence schema and writer role (tests.support.drop_store_schema)."""
    import psycopg

    from tests.support import drop_store_schema

    with psycopg.connect(base.split("?", 1)[0], autocommit=True, connect_timeout=10) as conn:
        drop_store_schema(conn, schema)
