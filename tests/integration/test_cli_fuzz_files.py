"""Every command line that reads a file a stranger can hand arbiter (and `simulate --options`, JSON on the command
line), fed hostile files: hypothesis-generated JSON (any
shape, in the right place of any command), and the files that used to escape as tracebacks (nested 1,000 deep, an
object of 200,000 keys, a string of 2 million characters, a file over 16 MiB, invalid UTF-8, random bytes, JSON Lines
with one bad line). Each answers with a message and an exit code, never a traceback (issue 38)."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import hypothesis.strategies as st
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from api.cli.main import main
from domain.json_limits import MAX_DOCUMENT_BYTES

RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example1-00-classic.json"
UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing answers there


def commands(tmp: Path) -> dict[str, list[str]]:
    """Every command line that reads a file, FILE standing for it (.json, or .jsonl where the command reads those)."""
    store = f"sqlite:///{tmp / 'store.db'}"
    game = str(uuid.uuid4())
    return {
        "replay": ["replay", "FILE"],
        "replay --json": ["replay", "--json", "FILE"],
        "replay archive": ["replay", "--json", "FILE.jsonl"],
        "export": ["export", "FILE", "-o", str(tmp / "out.json")],
        "report": ["report", "FILE"],
        "report archive": ["report", "FILE.jsonl"],
        "import": ["import", "FILE", "--database-url", store],
        "import archive": ["import", "FILE.jsonl", "--database-url", store],
        "analyse": ["analyse", "FILE", "--seat", "0", "--samples", "1", "--workers", "1"],
        "fairplay": ["fairplay", "FILE", "--samples", "1", "--perfect-samples", "1", "--worlds", "1", "--workers", "1"],
        "fairplay archive": ["fairplay", "FILE.jsonl", "--samples", "1", "--perfect-samples", "1", "--worlds", "1",
                             "--workers", "1"],
        "simulate --options": ["simulate", "--game", "el-royale", "--players", "2", "--games", "1", "--workers", "1",
                               "--options", "TEXT"],
        "proof check": ["proof", "check", "FILE", "--key", "arbiter.test+00000000+AAAA"],
        "proof get": ["proof", "get", "FILE", "--server", UNREACHABLE, "--timeout", "0"],
        "proof check --policy": ["proof", "check", str(tmp / "none.tlog-proof"), "--policy", "FILE"],
        "verify --policy": ["verify", "--all", "--policy", "FILE", "--database-url", store, "--create-store"],
        "verify --receipt": ["verify", game, "--receipt", "FILE", "--database-url", store, "--create-store"],
        "verify --receipt archive": ["verify", game, "--receipt", "FILE.jsonl", "--database-url", store, "--create-store"],
        "verify --checkpoint": ["verify", "--all", "--checkpoint", "FILE", "--database-url", store, "--create-store"],
    }


def run(tmp: Path, name: str, data: bytes) -> None:
    """Write `data` where the command reads its file, run it in process, and hold it to no traceback."""
    line = commands(tmp)[name]
    path = tmp / ("given.jsonl" if "FILE.jsonl" in line else "given.json")
    path.write_bytes(data)
    text = data.decode("utf-8", "replace").replace("\x00", "")  # an argument (not a file): what a shell can pass
    args = [str(path) if a in ("FILE", "FILE.jsonl") else text if a == "TEXT" else a for a in line]
    result = CliRunner().invoke(main, args, catch_exceptions=True)
    shown = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"arbiter {name} raised {result.exception!r} on {data[:120]!r}"
    assert "Traceback" not in shown, f"arbiter {name} showed a traceback on {data[:120]!r}:\n{shown[-2000:]}"
    assert result.exit_code in (0, 1, 2), (name, result.exit_code, shown[-500:])
    if result.exit_code == 2:
        assert shown.strip(), f"arbiter {name} refused {data[:120]!r} without a word"


NAMES = list(commands(Path("/tmp")))

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30)
# documents shaped like what each file should be, with any values in their fields
SHAPED = st.fixed_dictionaries({}, optional={
    "format": st.sampled_from(["arbiter.record/1", "arbiter.tournament/1", "x"]), "game": st.sampled_from(["el-royale", "batallion", 3]),
    "players": JSON, "moves": JSON, "deck": JSON, "seed": JSON, "options": JSON, "outcomes": JSON,
    "rounds": JSON, "version": JSON, "head": JSON, "signature": JSON, "receipt": JSON, "leaf": JSON,
    "proof": JSON, "checkpoint": JSON, "index": JSON, "tree_size": JSON, "key": JSON, "kid": JSON})


def as_lines(docs: list) -> bytes:
    return "".join(json.dumps(d) + "\n" for d in docs).encode()


@pytest.mark.parametrize("name", NAMES)
@given(doc=st.one_of(JSON, SHAPED), more=st.lists(st.one_of(JSON, SHAPED), max_size=3))
@settings(max_examples=int(os.environ.get("ARBITER_FUZZ_EXAMPLES", 12)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_a_generated_json_file_is_answered_without_a_traceback(tmp_path, name, doc, more):
    run(tmp_path, name, as_lines([doc, *more]) if "archive" in name else json.dumps(doc).encode())


def hostile() -> dict[str, bytes]:
    record = RECORD.read_bytes()
    wide = "{" + ",".join(f'"k{i}": {i}' for i in range(200_000)) + "}"
    return {
        "nested 900 deep": b"[" * 900 + b"]" * 900,
        "nested 1,000 deep": b"[" * 1000 + b"]" * 1000,
        "nested 100,000 deep": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "an object of 200,000 keys": wide.encode(),
        "a string of 2 million characters": json.dumps({"format": "arbiter.record/1", "seed": "a" * 2_000_000}).encode(),
        "over 16 MiB": b'["' + b"x" * (MAX_DOCUMENT_BYTES + 10) + b'"]',
        "invalid UTF-8": b'{"format": "arbiter.record/1", "game": "\xff\xfe"}',
        "random bytes": bytes(range(256)) * 4,
        "a record, then a line nested 1,000 deep": record.replace(b"\n", b"") + b"\n" + b"[" * 1000 + b"]" * 1000 + b"\n",
        "a number of 5,000 digits": b'{"version": ' + b"9" * 5000 + b"}",
        "empty": b"",
    }


HOSTILE = hostile()


@pytest.mark.parametrize("what", list(HOSTILE))
@pytest.mark.parametrize("name", NAMES)
def test_a_hostile_file_is_answered_without_a_traceback(tmp_path, name, what):
    run(tmp_path, name, HOSTILE[what])


@pytest.mark.parametrize("name", ["proof check", "proof get", "verify --receipt", "report", "replay", "import"])
def test_a_file_nested_too_deeply_is_refused_naming_the_file_the_line_and_the_bound(tmp_path, name):
    line = commands(tmp_path)[name]
    path = tmp_path / "deep.json"
    path.write_bytes(b"[" * 1000 + b"]" * 1000)
    result = CliRunner().invoke(main, [str(path) if a == "FILE" else a for a in line])
    shown = " ".join((result.output + (result.stderr if result.stderr_bytes is not None else "")).split())
    assert result.exit_code == 2, shown
    assert "nest at most 32 levels" in shown and "line 1 column 33" in shown
    assert "deep.json" in shown or name == "replay"  # replay's account heads the verdict with the file's name
