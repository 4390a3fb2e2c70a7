"""The checkpoint log's line format, what its check reports, and the hashes that chain its lines (the format is
described in service.evidence.checkpoints' docstring and docs/evidence.md). Apart from the log so that the log
(service.evidence.checkpoints) and its check (service.evidence.log_check) both read it, neither importing the other."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime

from . import merkle

FORMAT = "arbiter.checkpoint/3"
FORMAT_V2 = "arbiter.checkpoint/2"
FORMAT_V1 = "arbiter.checkpoint/1"
FIELDS_V1 = {"format": str, "seq": int, "prev": str, "game": str, "version": int, "head": str, "at": str, "reason": str,
             "key": str, "signature": str}
FIELDS_V2 = {**FIELDS_V1, "attempts": int, "attempts_head": str}
FIELDS = {**FIELDS_V2, "prev_game": str, "prev_version": int}
FIELDS_OF = {FORMAT: FIELDS, FORMAT_V2: FIELDS_V2, FORMAT_V1: FIELDS_V1}
REASONS = ("created", "every", "end", "import", "ruling", "refused", "receipt", "mmd")
NO_ATTEMPTS = (0, "")  # (count, head) of a game nobody made a refused attempt at
def line_hash(line: bytes) -> str:
    """The SHA-256 (hex) of one line's bytes, without its newline: the next line's `prev` in formats 1 and 2, and the
    log's head."""
    return hashlib.sha256(line).hexdigest()


def leaf_hex(line: bytes) -> str:
    """The RFC 6962 leaf hash (hex) of one line's bytes: the next line's `prev` in format 3."""
    return merkle.leaf_hash(line).hex()


def prev_of(line_format: object, previous: bytes) -> str:
    """The `prev` a line of `line_format` gives the line before it."""
    return leaf_hex(previous) if line_format == FORMAT else line_hash(previous)


def now() -> str:
    """The current time, UTC, ISO 8601 with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass
class LogReport:
    """The log checked: ok, or the first bad line and why; each game's latest checkpoint in the good lines (read past
    lines that are gone: service.evidence.log_check).

    `gone`: the runs of lines that are gone, each {first, last, why ("deleted", "altered" or "cut"), game, version,
    leaf, named_by}: the game, version and leaf hash (hex) of line `last` as line `named_by` names it, else None.
    `stopped`: the lines after `broken_at` could not be read in order (a line inserted or moved), so `latest` holds
    only the lines before it. `lines`: the number of lines the log should hold, those gone counted."""

    ok: bool
    lines: int
    head: str
    broken_at: int | None = None
    problem: str | None = None
    latest: dict[str, dict] = field(default_factory=dict)
    gone: list[dict] = field(default_factory=list)
    stopped: bool = False
    last_line: bytes | None = field(default=None, repr=False)  # the last good line, that the next one follows
    covered: dict[str, tuple[int, int]] | None = None  # what the latest published checkpoint signs (Evidence.coverage_report)
    promised_since: str | None = None  # the time of the log's first `mmd` line: promises were handed out from then on

    def as_dict(self) -> dict:
        return {"ok": self.ok, "lines": self.lines, "head": self.head, "broken_at": self.broken_at,
                "problem": self.problem, "gone": [dict(g) for g in self.gone], "stopped": self.stopped}
