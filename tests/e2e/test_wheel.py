"""The wheel is the whole product (issue 23): built from this checkout, installed into a fresh venv, served.

Slow on purpose (marked ``slow``; about a minute, most of it pip): the session builds the wheel once (``pip wheel
--no-deps`` of a copy of the checkout, so no stale ``build/`` of the checkout can fill a gap), makes a fresh venv
(neither editable nor ``--system-site-packages``), installs the wheel there with its dependencies (PyPI or pip's
cache), then starts that venv's ``arbiter serve`` from an empty directory with nothing set but a free port (so the
SQLite store, key and checkpoint log are the defaults, in that directory) and without any ``ARBITER_*`` variable of
the caller (the rulebooks are the packaged ones).

Then: every file under api/templates, api/static and every game's rulebook is in the wheel; the installed modules
are the venv's, not the checkout's; one game of every registered game is created through the JSON API, and every
page answers 200 (lobby, rules, desk, tournaments, upload, each game's table as a seat and as a spectator, its
replay (and the viewer's positions and move list), audit, disputes and links, a study of it), the transparency log's
checkpoint and key, every static file is served, a refusal's problem links its clause in the
packaged rulebook, and the server's log holds no traceback, no error and no missing template.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from domain.games import DECIDERS, SPECS, module_name

ROOT = Path(__file__).resolve().parents[2]
BOOT_TIMEOUT = 60.0   # seconds for `arbiter serve` to bind and answer /api/v1/health
PIP_TIMEOUT = 900     # seconds for building the wheel, or for installing it with its dependencies
# Each registered game (a new game needs a line here): its options and players for POST /api/v1/games (docs/api.md),
# and a move its last seat makes at once that the rules refuse (the refusal cites a clause, the audit shows it).
GAMES = {
    "el-royale": {"options": {"edition": "revised"}, "players": 2, "refused": {"type": "pass"}},
    "batallion": {"options": {"variants": []}, "players": 3, "refused": {"type": "pass"}},
    "small-battle": {"options": {}, "players": 2, "refused": {"type": "strike", "position": 1}},
    "four-virtues": {"options": {"target": 100}, "players": 2, "refused": {"type": "done"}},
}
# Not copied for the build: the venv, git, build leftovers, and what the wheel does not ship.
SKIP_AT_ROOT = {".venv", ".git", ".ci", "build", "dist", "tests", "bench", "docs", "test-artifacts", ".pytest_cache",
                ".hypothesis"}
SKIP_ANYWHERE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.db", "*.db-wal", "*.db-shm")
# api.http.problems logs a 500 as "unexpected <exception> in a request" (no traceback: it may hold cards)
BAD_LOG = re.compile(r"Traceback|ERROR|TemplatesNotFound|TemplateNotFound|Internal Server Error|unexpected \w+ in a request")

pytestmark = pytest.mark.slow


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without anything that would point the child at this checkout or change a default."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ARBITER_") and k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PORT", "PYTHONSTARTUP"}}
    return {**env, **extra}


def run(args: list, cwd: Path, timeout: float = PIP_TIMEOUT) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=clean_env(), capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, args))} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def shipped_files() -> set[str]:
    """What the wheel must hold besides modules: every file under api/templates and api/static, each game's rulebook."""
    files = {p.relative_to(ROOT).as_posix() for top in ("api/templates", "api/static") for p in (ROOT / top).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")}
    return files | {f"domain/{module_name(game)}/rulebook.md" for game in DECIDERS}


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout, built from a copy of it."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = set(SKIP_ANYWHERE(directory, names))
        return skipped | (SKIP_AT_ROOT & set(names) if Path(directory) == ROOT else set())

    shutil.copytree(ROOT, source, ignore=ignore)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", tmp / "dist", source], tmp)
    (built,) = (tmp / "dist").glob("arbiter-*.whl")
    return built


@pytest.fixture(scope="session")
def venv(wheel, tmp_path_factory):
    """A fresh venv (not editable, no system site-packages) with the wheel and its dependencies installed."""
    where = tmp_path_factory.mktemp("venv") / "venv"
    run([sys.executable, "-m", "venv", where], where.parent)
    run([where / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-compile", wheel], where.parent)
    yield where
    shutil.rmtree(where, ignore_errors=True)  # ~100 MB, and pytest keeps the last three sessions' temporary folders


class Site:
    """Plain HTTP to the served wheel; one cookie jar per person (the seat's private link sets a cookie)."""

    def __init__(self, base: str, log_path: Path):
        self.base, self.log_path = base, log_path

    def person(self) -> urllib.request.OpenerDirector:
        return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def fetch(self, path: str, opener=None, method: str = "GET", body: dict | None = None,
              token: str | None = None) -> tuple[int, str, str]:
        """(status, content type, text) of a request, errors included."""
        headers = {"Accept": "application/json"} if body is not None or path.startswith("/api/") else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with (opener or self.person()).open(request, timeout=30) as response:
                return response.status, response.headers.get_content_type(), response.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get_content_type(), e.read().decode()

    def page(self, path: str, opener=None) -> str:
        status, kind, text = self.fetch(path, opener)
        assert status == 200, f"GET {path}: {status}\n{text[:2000]}\nthe server's log:\n{self.log_path.read_text()}"
        assert kind == "text/html", f"GET {path}: {kind}"
        return text

    def api(self, method: str, path: str, body: dict | None = None, token: str | None = None,
            expect: int = 200) -> dict:
        status, _kind, text = self.fetch(f"/api/v1{path}", method=method, body=body, token=token)
        assert status == expect, f"{method} {path}: {status}\n{text[:2000]}\nthe server's log:\n{self.log_path.read_text()}"
        return json.loads(text)


@pytest.fixture(scope="module")
def served(venv, tmp_path_factory):
    """The venv's `arbiter serve` from an empty directory, defaults but a free port: (Site, workdir, log path)."""
    workdir = tmp_path_factory.mktemp("serve-here")
    log_path = workdir.parent / f"{workdir.name}.log"  # beside the working directory, which starts empty
    assert not any(workdir.iterdir())
    with open(log_path, "w+") as log:
        process = subprocess.Popen([str(venv / "bin" / "arbiter"), "serve", "--port", "0"], cwd=workdir,
                                   env=clean_env(PYTHONUNBUFFERED="1"), stdout=log, stderr=subprocess.STDOUT)
        try:
            site = Site(wait_until_up(process, log_path), log_path)
            yield site, workdir, log_path
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def wait_until_up(process: subprocess.Popen, log_path: Path) -> str:
    """The base URL once the server printed where it serves and /api/v1/health answers."""
    deadline, base = time.monotonic() + BOOT_TIMEOUT, None
    while True:
        text = log_path.read_text()
        if process.poll() is not None:
            pytest.fail(f"arbiter serve exited with {process.returncode}:\n{text}")
        if base is None and (m := re.search(r"arbiter is serving on (http://[\d.]+:\d+)", text)):
            base = m.group(1)
        if base is not None:
            try:
                with urllib.request.urlopen(base + "/api/v1/health", timeout=2) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        return base
            except OSError:
                pass
        if time.monotonic() > deadline:
            pytest.fail(f"arbiter serve did not answer /api/v1/health within {BOOT_TIMEOUT:.0f} s:\n{text}")
        time.sleep(0.2)


def test_the_wheel_holds_every_template_static_file_and_rulebook(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not shipped_files() - names, f"missing from the wheel: {sorted(shipped_files() - names)}"
    assert not [n for n in names if n.startswith(("tests/", "bench/", "docs/"))]


def test_the_venv_runs_the_installed_wheel_not_this_checkout(venv, tmp_path):
    out = run([venv / "bin" / "python", "-c", "import api, domain, importlib.resources as r; print(api.__file__); "
               "print(domain.__file__); print(r.files('domain') / 'el_royale' / 'rulebook.md')"], tmp_path)
    for line in out.split():
        path = Path(line)
        assert path.is_relative_to(venv) and "site-packages" in path.parts, path
    assert Path(out.split()[-1]).is_file()
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()


def test_every_page_of_every_game_answers_from_the_installed_wheel(served, venv):
    site, workdir, log_path = served
    assert set(GAMES) == set(DECIDERS), "a registered game needs its body in GAMES"
    site.page("/")
    site.page("/rules")
    assert "not installed" not in site.page("/rules")
    for game, spec in GAMES.items():
        book = site.page(f"/rules/{game}")
        prefix = SPECS[game].prefix
        assert f'id="{prefix}-1"' in book, f"/rules/{game} shows no section {prefix}-1"
        players = [{"name": f"Player {i}"} for i in range(spec["players"])]
        created = site.api("POST", "/games", {"game": game, "options": spec["options"], "players": players}, expect=201)
        gid, seat, referee = created["id"], created["seats"][-1]["token"], created["referee_token"]
        # a refusal: its problem links its clause in the packaged rulebook
        problem = site.api("POST", f"/games/{gid}/moves", spec["refused"], token=seat, expect=422)
        assert problem["rule"].startswith(prefix + "-"), problem
        assert problem.get("rule_url"), f"{game}: the refusal's clause {problem['rule']} has no rule_url"
        path, anchor = problem["rule_url"].split(site.base, 1)[1].split("#")
        assert f'id="{anchor}"' in site.page(path)
        spectator, player, judge = site.person(), site.person(), site.person()
        site.page(f"/join/{gid}/{seat}", player)  # the private link: a cookie, then the table as that seat
        site.page(f"/join/{gid}/{referee}", judge)
        for who in (spectator, player, judge):
            site.page(f"/games/{gid}", who)
            site.page(f"/games/{gid}/panel", who)
            site.page(f"/games/{gid}/replay", who)
            site.page(f"/games/{gid}/audit", who)
            site.page(f"/games/{gid}/disputes", who)
        site.page(f"/games/{gid}/links", judge)
        site.page(f"/games/{gid}/replay?version=1", judge)
        for data in ("positions.json", "moves.json"):  # what the replay viewer's script steps through
            status, kind, _text = site.fetch(f"/games/{gid}/replay/{data}", judge)
            assert (status, kind) == (200, "application/json"), f"{game} {data}: {status} {kind}"
        study = site.api("POST", f"/games/{gid}/studies", {"version": 1, "seat": 0}, token=referee, expect=201)
        site.page(f"/studies/{study['id']}", judge)
        site.page(f"/games/{gid}/studies/new?version=1&seat=0", judge)
    tournament = site.api("POST", "/tournaments", {"name": "Club", "game": "small-battle", "format": "round-robin",
                                                    "players": [{"name": "A"}, {"name": "B"}]}, expect=201)
    site.page("/tournaments")
    site.page(f"/tournaments/{tournament['id']}")
    site.page("/desk")
    site.page("/records/upload")
    site.page("/")  # the lobby again, now listing the games
    for part in ("checkpoint", "key"):  # the transparency log, in the signed-note text formats
        status, kind, text = site.fetch(f"/api/v1/log/{part}")
        assert (status, kind) == (200, "text/plain"), f"/api/v1/log/{part}: {status} {kind} {text[:300]}"
    (static,) = venv.glob("lib/python*/site-packages/api/static")
    files = [p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file()]
    assert files
    for name in files:
        status, _kind, _text = site.fetch(f"/static/{name}")
        assert status == 200, f"/static/{name}: {status}"
    assert (workdir / "arbiter.db").is_file(), f"the default store is not in the working directory: {list(workdir.iterdir())}"
    log = log_path.read_text()
    bad = [line for line in log.splitlines() if BAD_LOG.search(line)]
    assert not bad, f"the server's log:\n{log}"
