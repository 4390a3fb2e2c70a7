"""A stranger's clone has only the repository: with no ../shared beside it, every test still collects, and the tests
that read ../shared skip at run time with a reason naming it (never an error at import)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

READS_SHARED = re.compile(r"\bshared\(|shared_records_params\(|\bSHARED\b")


def pytest_in(clone: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("ARBITER_SHARED_DIR", "PYTEST_ADDOPTS")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The committed repository cloned alone into an empty folder (nothing beside it)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing to clone")
    folder = tmp_path_factory.mktemp("stranger") / "arbiter"
    done = subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(folder)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not (folder.parent / "shared").exists()
    return folder


def test_every_test_collects_in_a_clone_with_nothing_beside_it(clone):
    done = pytest_in(clone, "--collect-only", "-q", "tests")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "error" not in done.stdout.lower().split("\n")[-2], done.stdout[-2000:]


def test_the_tests_that_read_shared_skip_naming_it_in_a_clone(clone):
    files = sorted(str(p.relative_to(clone)) for p in (clone / "tests" / "unit").glob("test_*.py")
                   if READS_SHARED.search(p.read_text()))
    assert files, "no unit test reads ../shared: this check has nothing to run"
    done = pytest_in(clone, "-q", "-rs", *files)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "needs ../shared/" in done.stdout, done.stdout[-2000:]
