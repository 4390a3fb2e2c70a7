"""Shared test helpers: build records from stacked decks and replay them."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import Phase, settings

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records"  # arbiter's own sample records, every game: always here
# The workshop's reference material beside the checkout (the reference rulebooks, an independent implementation's
# sample records and its check script). A user's clone has none of it: every test that reads it asks `shared()`,
# which skips at run time, never at import. ARBITER_SHARED_DIR points elsewhere (a missing path: run as a stranger).
SHARED = Path(os.environ.get("ARBITER_SHARED_DIR") or ROOT.parent / "shared")


def shared(*parts: str) -> Path:
    """A path under ../shared, or skip the calling test (at run time) with a reason naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/{'/'.join(parts)} (the workshop's reference material, not part of arbiter; "
                    f"absent beside this checkout)")
    return path


def _records_in(folder: Path, games: tuple[str, ...]) -> list[Path]:
    """The records under `folder`/<game>/ of the given games (every game when none), their verdicts skipped; none
    where the folder is missing."""
    return sorted(p for game in (games or ("*",)) for p in folder.glob(f"{game}/*.json")
                  if not p.name.endswith(".expected.json"))


def shared_records_params(game: str) -> list:
    """pytest params: each record of ../shared/records/<game> (verdicts skipped), or one skipped param naming the
    missing folder. Safe at import: never raises, never empty."""
    paths = _records_in(SHARED / "records", (game,))
    if paths:
        return [pytest.param(p, id=p.stem) for p in paths]
    return [pytest.param(None, id="no-shared", marks=pytest.mark.skip(
        reason=f"needs ../shared/records/{game} (the workshop's reference samples; absent beside this checkout)"))]


def sample_records(*games: str, shared_too: bool = False) -> list[Path]:
    """arbiter's own sample records (tests/records/<game>/*.json, verdicts beside them skipped), of the given games
    or of every game; with `shared_too`, then those of ../shared/records where it is beside the checkout (without
    it, arbiter's own alone: the caller runs on them)."""
    return _records_in(RECORDS, games) + (_records_in(SHARED / "records", games) if shared_too else [])

# A developer's run explores new random games every time (hypothesis prints the blob that reproduces a failure:
# keep it as an @example); CI (.ci/run sets ARBITER_CI=1) explores the same examples on every run, so that a
# landing never depends on luck. HYPOTHESIS_PROFILE chooses explicitly.
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.register_profile("dev", deadline=None, print_blob=True)
# mutation testing (bench/mutation.py): the same examples as CI, and a failing example is not shrunk (a mutant is
# killed by the first failure; shrinking would only spend its time)
settings.register_profile("mutation", deadline=None, derandomize=True, database=None,
                          phases=(Phase.explicit, Phase.reuse, Phase.generate))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("ARBITER_CI") == "1" else "dev"))


def examples(n: int, under_mutation: int = 5) -> int:
    """How many examples a slow property runs (a whole random game each): n, but a few under the mutation profile,
    where every mutant the property reaches and no quicker test kills runs it again (docs/mutation.md: the rules
    are pinned by the game's data tests; the properties keep their full count in `make test`)."""
    return min(n, under_mutation) if os.environ.get("HYPOTHESIS_PROFILE") == "mutation" else n

# A PostgreSQL store keeps its signing key and checkpoint log in ARBITER_STATE_DIR (docs/evidence.md): the tests'
# schemas keep theirs in a temporary directory, not in the home directory (servers started by tests inherit it).
if "ARBITER_STATE_DIR" not in os.environ:
    os.environ["ARBITER_STATE_DIR"] = tempfile.mkdtemp(prefix="arbiter-test-state-")
    atexit.register(shutil.rmtree, os.environ["ARBITER_STATE_DIR"], ignore_errors=True)


@pytest.fixture
def arbiter_bin() -> str:
    """The installed `arbiter` program of this checkout's venv."""
    exe = ROOT / ".venv" / "bin" / "arbiter"
    if not exe.exists():
        pytest.skip("arbiter is not installed in .venv (run `make test`)")
    return str(exe)


# What a run skipped for want of something on the machine, said once at the end with how to get it (a newcomer's
# `make test` passes without PostgreSQL, Chromium or ../shared; these lines say what was not exercised).
ENABLERS = (
    ("ARBITER_TEST_POSTGRES_URL", "PostgreSQL tests",
     "start a server and set ARBITER_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test (README, Prerequisites)"),
    ("chromium", "browser tests", "install Debian's Chromium: sudo apt-get install chromium chromium-driver"),
    ("../shared", "checks against the workshop's reference material", "only where ../shared is beside the checkout"),
)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = [str(getattr(report, "longrepr", "")) for report in skipped]
    for needle, what, how in ENABLERS:
        count = sum(needle.lower() in reason.lower() for reason in reasons)
        if count:
            terminalreporter.write_line(f"arbiter: {count} {what} skipped; to run them: {how}", yellow=True)
