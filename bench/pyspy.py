"""Sampling profiles of running server workers with py-spy, and where their CPU went (own and cumulative).

    python -m bench.pyspy FILE... [--top N]      the report of raw profiles already recorded

bench.api --profile DIR (and bench.floor --profile DIR) record each worker with py-spy during the timed
moves phases (`py-spy record --pid W --rate 200 --function --gil --nonblocking --format raw`) and print this
report: the share of samples per function, its own (the innermost frame) and cumulative (anywhere in the
stack), and per package (the stack's innermost frame's package, and any frame's).

`--gil`: only the thread holding the GIL is sampled, so the samples are the worker's Python CPU time. Without
it py-spy also counts a thread blocked on a lock or in a C call that released the GIL (a commit's fsync) as
running: 44 % of the "own" samples of a move fell in GroupCommit.__call__, which only waits there. Work in C
with the GIL released (SQLite's own statement execution, hashing large buffers) is not seen with --gil.
`--nonblocking`: the process is not paused for each sample (pausing 200 times a second cut the rate by half).
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

RATE = 200
FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")
PACKAGES = (  # (name, a path fragment): the first that matches names a frame's package
    ("arbiter.api", "api/"), ("arbiter.service", "service/"), ("arbiter.domain", "domain/"),
    ("arbiter.projections", "projections/"), ("bench", "bench/"),
    ("eventsourcing", "eventsourcing/"), ("flask_smorest", "flask_smorest/"), ("marshmallow", "marshmallow/"),
    ("apispec", "apispec/"), ("webargs", "webargs/"), ("flask", "flask/"), ("werkzeug", "werkzeug/"),
    ("uvicorn", "uvicorn"), ("gunicorn", "gunicorn/"), ("a2wsgi", "a2wsgi/"), ("cryptography", "cryptography/"),
    ("psycopg", "psycopg"), ("sqlite3", "sqlite3/"), ("json", "json/"), ("asyncio", "asyncio/"),
    ("concurrent", "concurrent/"), ("threading", "threading.py"), ("logging", "logging/"), ("uuid", "uuid.py"),
    ("datetime", "datetime"), ("jinja2", "jinja2/"), ("click", "click/"),
)


def start(pids: list[int], out_dir: str | Path, label: str, rate: int = RATE, gil: bool = True) -> list[subprocess.Popen]:
    """Start py-spy on each pid (raw output in out_dir/<label>-<pid>.txt); stop them with stop(). `gil=False` samples
    every thread that is not idle (waiting in C with the GIL released, a SQLite statement, counts too)."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [subprocess.Popen([exe, "record", "--pid", str(pid), "--rate", str(rate), "--function", *(["--gil"] if gil else []), "--nonblocking",
                              "--format", "raw",
                              "--output", str(out / f"{label}-{pid}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in pids]


def stop(spies: list[subprocess.Popen]) -> None:
    """Stop the samplers (SIGINT: each writes its file) and wait for them."""
    for p in spies:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    for p in spies:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()


def read(paths: list[str | Path]) -> list[tuple[list[str], int]]:
    """The samples of raw py-spy files: (frames outermost first, without the thread's name; count)."""
    out = []
    for path in paths:
        for line in Path(path).read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = stack.split(";")
            if frames and not FRAME.match(frames[0]):  # the thread's name ("process 1:"...), when present
                frames = frames[1:]
            out.append((frames, int(count)))
    return out


def function(frame: str) -> str:
    """A frame as `function (file)`, without its line number."""
    m = FRAME.match(frame)
    return f"{m['func']} ({m['file']})" if m else frame


def package(frame: str) -> str:
    m = FRAME.match(frame)
    path = m["file"] if m else frame
    for name, fragment in PACKAGES:
        if fragment in path:
            return name
    return path.rsplit("/", 1)[-1] or "?"


def report(samples: list[tuple[list[str], int]], top: int = 30) -> str:
    """The shares of functions (own, cumulative) and packages (own, cumulative) in text."""
    total = sum(c for _, c in samples) or 1
    own, cum, pown, pcum = (collections.Counter() for _ in range(4))
    for frames, count in samples:
        funcs = [function(f) for f in frames]
        if funcs:
            own[funcs[-1]] += count
            pown[package(frames[-1])] += count
        for f in set(funcs):
            cum[f] += count
        for p in {package(f) for f in frames}:
            pcum[p] += count
    lines = [f"{total} samples"]
    for title, counter, n in (("packages, own (innermost frame)", pown, 20), ("packages, cumulative", pcum, 20),
                              ("functions, own", own, top), ("functions, cumulative", cum, top)):
        lines.append(f"-- {title}")
        lines += [f"{100 * c / total:6.1f} %  {name}" for name, c in counter.most_common(n)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pyspy", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    print(report(read(args.files), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
