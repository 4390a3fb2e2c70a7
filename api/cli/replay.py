"""`arbiter replay`'s work, without click: verdicts of record files and archives, and the plain form's fast road.

The click command (api/cli/group.py) and the console entry point's fast road (api/cli/main.py) both call
`replay_records`, so the two print the same lines and exit with the same code. `plain_replay` says whether a
command line is the plain form `arbiter replay FILES [--json]` that click would run without a word of its own:
anything else (an option other than --json, --help, `--`, no file, only expected verdicts, a directory, an
unreadable file, shell completion) is click's, so its usage errors and help keep their one source.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
from typing import Callable

EXIT_OK, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2
EXPECTED_SUFFIX = ".expected.json"  # the verdict files beside sample records: `replay dir/*.json` skips them


def _exit_code(verdict: dict) -> int:
    if verdict["status"] == "invalid":
        return EXIT_INVALID
    return EXIT_ILLEGAL if verdict["status"] == "illegal" else EXIT_OK


def replay_records(records: tuple[str, ...] | list[str], as_json: bool, warn: Callable[[str], None]) -> int:
    """Verify record files and archives, print each verdict (or account), and give the worst exit code.

    `warn` writes one line to standard error (a skipped expected verdict); at least one path is a record."""
    from service.offline.archives import is_archive
    from service.offline.records import verify_file

    worst = EXIT_OK
    out = sys.stdout
    verdicts = [p for p in records if not p.endswith(EXPECTED_SUFFIX)]
    for path in records:
        if path.endswith(EXPECTED_SUFFIX):
            warn(f"{path}: skipped (an expected verdict beside a record, not a record)")
    for path in verdicts:
        if is_archive(path):  # a JSON Lines archive of records (arbiter simulate --out X.jsonl)
            worst = max(worst, _archive_verdicts(path, out))
            continue
        verdict, account = verify_file(path, with_account=not as_json)
        worst = max(worst, _exit_code(verdict))
        if as_json:
            out.write(json.dumps(verdict, separators=(", ", ": ")) + "\n")
        else:
            from .narrate import narrate

            narrate(path, account, verdict)
    out.flush()
    return worst


def _archive_verdicts(path: str, out) -> int:
    """Verify every record of a JSON Lines archive: one verdict line a game (always JSON); the worst exit code."""
    from service.offline.archives import verify_archive

    worst = EXIT_OK
    for verdict in verify_archive(path):
        worst = max(worst, _exit_code(verdict))
        out.write(json.dumps(verdict, separators=(", ", ": ")) + "\n")
    return worst


def plain_replay(args: list[str], environ=os.environ) -> tuple[list[str], bool] | None:
    """(paths, as_json) when `args` (the command line after the program name) is `replay FILES [--json]` exactly as
    click would accept it without a message of its own; None for anything else."""
    if len(args) < 2 or args[0] != "replay":
        return None
    if any(key.startswith("_") and key.endswith("_COMPLETE") for key in environ):
        return None  # click's shell completion
    paths = [a for a in args[1:] if a != "--json"]
    if len(args) - 1 - len(paths) > 1 or not paths:
        return None
    for path in paths:
        if path.startswith("-") or not path:
            return None  # an option, `--`, `-`: click's
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            continue  # click.Path(exists=False) passes a path it cannot stat; the replay says it cannot read it
        if stat.S_ISDIR(mode) or not os.access(path, os.R_OK):
            return None  # click's "is a directory" / "is not readable"
    if all(path.endswith(EXPECTED_SUFFIX) for path in paths):
        return None  # click's usage error: no record to replay
    return paths, len(paths) < len(args) - 1


class _QuietFlush:
    """click's answer to a closed pipe: later flushes of the stream are silent (click.core._PacifyFlushWrapper)."""

    def __init__(self, stream):
        self.wrapped = stream

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as e:
            if e.errno != errno.EPIPE:
                raise

    def __getattr__(self, name):
        return getattr(self.wrapped, name)


def run_plain(paths: list[str], as_json: bool) -> None:
    """Run the plain replay as click's standalone mode would: exit with its code; Ctrl-C prints "Aborted!" and exits
    1; a closed output pipe exits 1 quietly."""
    try:
        code = replay_records(paths, as_json, _warn)
    except (EOFError, KeyboardInterrupt):
        sys.stderr.write("\nAborted!\n")
        sys.stderr.flush()
        sys.exit(1)
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise
        sys.stdout = _QuietFlush(sys.stdout)
        sys.stderr = _QuietFlush(sys.stderr)
        sys.exit(1)
    sys.exit(code)


def _warn(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
