"""The log's tlog-tiles through a real `arbiter serve` (uvicorn, a SQLite file store) and through a static mirror
served by a plain file server (`python -m http.server` over what `arbiter log mirror` wrote): tlog-scales reads both
(checkpoint signature, root, `get-leaf --check`), and the mirror answers every path with the server's bytes."""

from __future__ import annotations

import base64
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .hosts_support import ARBITER, Host, call, clean_env, free_port, signing_key_pem

pytest.importorskip("tlog_scales", reason="tlog-scales is not installed: pip install -e '.[test]'")

from tlog_scales import backend as ts_backend  # noqa: E402
from tlog_scales import signing as ts_signing  # noqa: E402
from tlog_scales.reader import TilesReader  # noqa: E402

GAMES = 260  # a leaf each (its creation's checkpoint line): one full tile and a partial one
SPEC = {"game": "el-royale", "options": {"edition": "revised"}, "players": [{"name": "Ann"}, {"name": "Bob"}]}


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=20) as response:  # no Accept-Encoding: the bytes as stored
        return response.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tiles-e2e")
    host = Host("tiles", tmp / "host", f"sqlite:///{tmp / 'host' / 'games.db'}", signing_key_pem())
    host.folder.mkdir(parents=True, exist_ok=True)
    host.start().wait_ready()
    static = None
    try:
        for _ in range(GAMES):
            assert call(host.port, "POST", "/games", body=SPEC)[0] == 201
        prefix = f"http://127.0.0.1:{host.port}/api/v1/log"
        deadline = time.monotonic() + 30
        while int(get(prefix + "/checkpoint").decode().split("\n")[1]) < GAMES:  # the duty loop publishes every 5 s
            assert time.monotonic() < deadline, "no checkpoint of every game within 30 s"
            time.sleep(0.5)
        key = get(prefix + "/key").decode().strip()
        mirrored = subprocess.run([str(ARBITER), "log", "mirror", str(tmp / "mirror"), "--from", prefix, "--key", key],
                                  capture_output=True, text=True, env=clean_env(tmp / "state"), timeout=120)
        assert mirrored.returncode == 0, mirrored.stderr
        port = free_port()
        static = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                   "--directory", str(tmp / "mirror")], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        mirror = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                get(mirror + "/checkpoint")
                break
            except OSError:
                assert time.monotonic() < deadline, "the static file server did not start"
                time.sleep(0.1)
        yield prefix, mirror, key, tmp / "mirror"
    finally:
        if static is not None:
            static.terminate()
            static.wait(timeout=10)
        host.stop()


def test_a_static_file_server_over_the_mirror_answers_every_path_with_the_servers_bytes(served):
    prefix, mirror, _, folder = served
    paths = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert "tile/0/000" in paths and "tile/entries/001.p/4" in paths and "tile/1/000.p/1" in paths
    for path in paths:
        assert get(f"{mirror}/{path}") == get(f"{prefix}/{path}"), path


@pytest.mark.parametrize("where", ["server", "mirror"])
def test_tlog_scales_reads_the_served_log_and_its_static_mirror(served, where):
    prefix, mirror, key, _ = served
    location = prefix if where == "server" else mirror
    reader = TilesReader(ts_backend.HttpBackend(location))
    checkpoint = reader.get_checkpoint()
    checkpoint.verify(ts_signing.Vkey.from_string(key))
    assert checkpoint.size >= GAMES and reader.calculate_root_hash() == checkpoint.root_hash
    assert base64.b64encode(checkpoint.root_hash).decode() in get(prefix + "/checkpoint").decode()
    for index in ("0", "255", "256", "-1"):
        got = subprocess.run([sys.executable, "-m", "tlog_scales.cli", "get-leaf", "--check", location, index],
                             capture_output=True, timeout=60)
        assert got.returncode == 0 and b'"format":"arbiter.checkpoint/' in got.stdout, got.stderr.decode()[-1000:]


def test_the_server_gzips_entry_bundles_for_a_client_that_asks(served):
    import gzip

    prefix, _, _, folder = served
    request = urllib.request.Request(prefix + "/tile/entries/000", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=20) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert gzip.decompress(response.read()) == (Path(folder) / "tile/entries/000").read_bytes()
