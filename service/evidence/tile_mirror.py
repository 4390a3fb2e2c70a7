"""A static mirror of the transparency log (docs/evidence.md, "Mirroring the log"): the log's C2SP tlog-tiles copied
into a directory laid out as the URLs are (`checkpoint`, `tile/...`), so that any static file server serves the same
bytes under its own prefix; and the check of such a directory.

Nothing is written before it is checked: the new checkpoint must verify under the log's key, its tiles must make its
root (service.evidence.tiles.check_tiles: every hash tile against the one above, every leaf against its hash), and it
must extend the checkpoint the mirror held (the old root folds from the new tiles), else MirrorError names what does
not hold and the directory is left as it was. Full tiles the mirror holds are read from it, not fetched again (they
never change); the new files are written each through a temporary file and a rename, the checkpoint last, so that a
reader of the mirror never sees a checkpoint whose tiles are not there yet.
"""

from __future__ import annotations

import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import tiles
from .signed_notes import NoteError, Verifier, open_note
from .tree_heads import TreeHead

CHECKPOINT = "checkpoint"
Fetch = Callable[[str], "bytes | None"]


class MirrorError(ValueError):
    """A log or a mirror whose checkpoint or tiles do not hold (names which)."""


class SourceError(MirrorError):
    """A source that cannot be read (unreachable, or an answer other than the file or a 404)."""


@dataclass(frozen=True)
class Mirrored:
    """What a mirror holds after a copy or a check: the checkpoint's size and root, how many files, how many new."""

    origin: str
    size: int
    root: bytes
    files: int
    written: int = 0
    previous: int | None = None  # the size of the checkpoint the mirror held before


def http_source(prefix: str, timeout: float = 30.0) -> Fetch:
    """`fetch(path)` from a tlog-tiles prefix URL (a server's /api/v1/log, or another mirror): the bytes, None for a
    404, SourceError for anything else."""
    base = prefix.rstrip("/") + "/"

    def fetch(path: str) -> bytes | None:
        request = urllib.request.Request(base + path, headers={"User-Agent": "arbiter-log-mirror"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - an http(s) prefix
                return response.read()
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return None
            raise SourceError(f"{base + path}: answered {e.code}") from None
        except (urllib.error.URLError, OSError) as e:
            raise SourceError(f"{base + path}: cannot be read ({getattr(e, 'reason', e)})") from None

    return fetch


def directory_source(directory: str | os.PathLike) -> Fetch:
    """`fetch(path)` from a mirror directory: the file's bytes, None when it is not there."""
    root = Path(directory)

    def fetch(path: str) -> bytes | None:
        try:
            return (root / path).read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return None

    return fetch


def _head(note: bytes | None, log_key: Verifier, where: str) -> TreeHead:
    """The tree head of a checkpoint note signed by the log's key; MirrorError when it is missing or does not verify."""
    if note is None:
        raise MirrorError(f"{where}: no checkpoint")
    try:
        head = TreeHead.parse(open_note(note, [log_key]).text)
    except NoteError as e:
        raise MirrorError(f"{where}: the checkpoint does not verify under {log_key.name}'s key: {e}") from None
    if head.origin != log_key.name:
        raise MirrorError(f"{where}: the checkpoint is of log {head.origin!r}, the key of {log_key.name!r}")
    return head


def check(directory: str | os.PathLike, log_key: Verifier) -> Mirrored:
    """Check a mirror directory: its checkpoint verifies and its tiles make that checkpoint's tree."""
    get = directory_source(directory)
    head = _head(get(CHECKPOINT), log_key, f"{directory}/{CHECKPOINT}")
    try:
        files, _ = tiles.check_tiles(get, head.size, head.root)
    except tiles.TileError as e:
        raise MirrorError(f"{directory}: {e}") from None
    return Mirrored(head.origin, head.size, head.root, len(files) + 1)


def mirror(fetch: Fetch, directory: str | os.PathLike, log_key: Verifier, source: str = "the log") -> Mirrored:
    """Copy the log's latest checkpoint and its tiles from `fetch` into `directory`, checked first (the module's
    docstring); raises MirrorError and writes nothing when a check fails."""
    root = Path(directory)
    mine = directory_source(root)
    held = mine(CHECKPOINT)
    old = _head(held, log_key, f"{root}/{CHECKPOINT}") if held is not None else None
    note = fetch(CHECKPOINT)
    head = _head(note, log_key, f"{source}/{CHECKPOINT}")
    if old is not None and head.size < old.size:
        raise MirrorError(f"{source}: its checkpoint has {head.size} leaves, fewer than the {old.size} of the one this "
                          "mirror holds: the log went back (keep the mirror; it is the evidence)")

    def get(path: str) -> bytes | None:
        if tiles.parse_path(path).full:  # a full tile never changes: kept once copied
            kept = mine(path)
            if kept is not None:
                return kept
        return fetch(path)

    try:
        files, tree = tiles.check_tiles(get, head.size, head.root)
    except tiles.TileError:  # the source's own tiles say whether it or this mirror's copy is at fault
        try:
            files, tree = tiles.check_tiles(fetch, head.size, head.root)
        except tiles.TileError as e:
            raise MirrorError(f"{source}: {e}") from None
    if old is not None and tree.root(old.size) != old.root:
        raise MirrorError(f"{source}: its tree of {head.size} leaves does not extend the checkpoint this mirror "
                          f"holds ({old.size} leaves): the log forked (keep the mirror; it is the evidence)")
    for path, data in files.items():
        kept = mine(path)
        if kept is not None and kept != data and tiles.parse_path(path).full:
            raise MirrorError(f"{root}/{path}: this mirror's copy differs from {source}'s, whose tiles make its "
                              "checkpoint's tree and extend this mirror's: the mirror's copy was altered (`arbiter log "
                              "check` names what does not hold; remove the file and mirror again)")
    written = 0
    for path, data in files.items():
        if mine(path) != data:
            _write(root / path, data)
            written += 1
    if held != note:
        _write(root / CHECKPOINT, note)
        written += 1
    return Mirrored(head.origin, head.size, head.root, len(files) + 1, written, old.size if old else None)


def _write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
