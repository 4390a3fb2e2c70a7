"""The `arbiter` console entry point (`main`): the click group of api/cli/group.py, with one fast road.

Why the fast road: `arbiter replay ARCHIVE.jsonl --json` is measured as a whole process against python-chess
(bench/archive.py), and importing click alone costs ~15 ms CPU of a ~130 ms run. So `main()`, called with no
arguments as the console script does, runs the plain form `arbiter replay FILES [--json]` (api/cli/replay.py,
`plain_replay` says exactly which command lines) without importing click, through the very function the click
command calls: the same lines out, the same exit codes. Every other command line (--help, any other option, any
command line click would answer with a message of its own) goes to click as before.

`main` otherwise behaves as the click group itself (attributes are the group's), so `CliRunner().invoke(main, ...)`
and `main.commands` work as they did.
"""

from __future__ import annotations

import sys


class _Entry:
    """The click group `api.cli.group.group`, imported when first needed, with the plain replay's fast road."""

    def __call__(self, *args, **kwargs):
        if not args and not kwargs:  # the console script: the command line is sys.argv
            from .replay import plain_replay, run_plain

            plain = plain_replay(sys.argv[1:])
            if plain is not None:
                run_plain(*plain)
        return _group()(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(_group(), name)


def _group():
    from .group import group

    return group


main = _Entry()
