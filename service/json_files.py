"""JSON files a stranger can hand arbiter (records, JSON Lines archives and bundles, receipts, proof bundles), opened
and read under the bounds of domain.json_limits — its size, nesting, numbers, keys and strings, each line of a JSON
Lines file on its own — by one reader: `read_json` for a document, `read_json_lines` for JSON Lines. Whatever the file
holds, the only error is FileProblem, whose message names the file, the line where there is one, and the bound.
"""

from __future__ import annotations

from typing import Any, Iterator

from domain import json_limits
from domain.json_limits import MAX_DOCUMENT_BYTES


class FileProblem(ValueError):
    """A file that cannot be read as bounded JSON: `path`, `line` (None: the whole file) and `reason`."""

    def __init__(self, path: str, reason: str, line: int | None = None):
        super().__init__(f"{path}{f', line {line}' if line is not None else ''}: {reason}")
        self.path, self.line, self.reason = path, line, reason


def read_bytes(path: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """A file's bytes, at most `limit` of them; raises FileProblem (cannot be read, too large)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise FileProblem(path, f"cannot be read ({e.strerror or e})") from None
    if len(data) > limit:
        raise FileProblem(path, f"too large: a file read as one document is at most {limit:,} bytes "
                                f"({limit // (1024 * 1024)} MiB)")
    return data


def read_json(path: str) -> Any:
    """The JSON document of a file, read within every bound; raises FileProblem."""
    return parse(path, read_bytes(path))


def parse(path: str, data: bytes | str, line: int | None = None) -> Any:
    """A document's text (the file at `path`, or its line `line`) read within every bound; raises FileProblem."""
    try:
        return json_limits.read_document(data)
    except json_limits.LimitError as e:
        reason = str(e) if line is None else str(e).replace(" at line 1 column ", " at column ")  # within that line
        raise FileProblem(path, reason, line) from None


def read_json_lines(path: str) -> Iterator[tuple[int, Any]]:
    """(line number, document or the FileProblem of that line) for each non-blank line of a JSON Lines file; a line
    longer than MAX_DOCUMENT_BYTES is a problem of its own (and is skipped, never held whole). Raises FileProblem only
    when the file cannot be opened."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise FileProblem(path, f"cannot be read ({e.strerror or e})") from None
    with f:
        number = 0
        while True:
            try:
                line = f.readline(MAX_DOCUMENT_BYTES + 1)
            except OSError as e:
                yield number + 1, FileProblem(path, f"cannot be read ({e.strerror or e})", number + 1)
                return
            if not line:
                return
            number += 1
            if len(line) > MAX_DOCUMENT_BYTES:
                yield number, FileProblem(path, f"too large: a line of JSON Lines is at most {MAX_DOCUMENT_BYTES:,} "
                                                f"bytes ({MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB)", number)
                while line and not line.endswith(b"\n"):  # the rest of that line, in bounded pieces
                    line = f.readline(MAX_DOCUMENT_BYTES + 1)
                continue
            if not line.strip():
                continue
            try:
                yield number, parse(path, line, number)
            except FileProblem as problem:
                yield number, problem
