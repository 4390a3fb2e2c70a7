"""A static mirror of the transparency log (docs/evidence.md, "Mirroring the log"): the log's C2SP tlog-tiles copied
into a directory laid out as the URLs are (`checkpoint`, `tile/...`), so that any static file server serves the same
bytes under its own prefix; and the check of such a directory.

Nothing is written before it is checked: the new checkpoint must verify under the log's key, its hash tiles must make
its root (service.evidence.tiles.check_hash_tiles: every full tile against the one above, the top ones against the
root) and extend the checkpoint the mirror held (the old root folds from the new tiles), else MirrorError names what
does not hold and nothing is written. The entry bundles are then checked one at a time against those hash tiles and
each is written once it holds (a mirror of a million leaves never holds its half a gigabyte of entries in memory);
the hash tiles follow, the checkpoint last. Full tiles the mirror holds are read from it, not fetched again (they
never change); every file is written through a temporary file and a rename, so a reader of the mirror never sees a
checkpoint whose tiles are not there yet, nor half a file.
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
    """Check a mirror directory: its checkpoint verifies and its tiles make that checkpoint's tree (one entry bundle
    in memory at a time)."""
    get = directory_source(directory)
    head = _head(get(CHECKPOINT), log_key, f"{directory}/{CHECKPOINT}")
    try:
        tree, files = tiles.check_hash_tiles(get, head.size, head.root)
        bundles = tiles.check_entries(get, head.size, tree)
    except tiles.TileError as e:
        raise MirrorError(f"{directory}: {e}") from None
    return Mirrored(head.origin, head.size, head.root, len(files) + bundles + 1)


def mirror(fetch: Fetch, directory: str | os.PathLike, log_key: Verifier, source: str = "the log") -> Mirrored:
    """Copy the log's latest checkpoint and its tiles from `fetch` into `directory`, checked first (the module's
    docstring); raises MirrorError when a check fails, having written no file the new checkpoint does not prove and
    not the checkpoint itself."""
    root = Path(directory)
    mine = directory_source(root)
    held = mine(CHECKPOINT)
    old = _head(held, log_key, f"{root}/{CHECKPOINT}") if held is not None else None
    note = fetch(CHECKPOINT)
    head = _head(note, log_key, f"{source}/{CHECKPOINT}")
    if old is not None and head.size < old.size:
        raise MirrorError(f"{source}: its checkpoint has {head.size} leaves, fewer than the {old.size} of the one this "
                          "mirror holds: the log went back (keep the mirror; it is the evidence)")
    local: set[str] = set()

    def get(path: str) -> bytes | None:
        if tiles.parse_path(path).full:  # a full tile never changes: kept once copied
            kept = mine(path)
            if kept is not None:
                local.add(path)
                return kept
        return fetch(path)

    fell_back = False
    try:
        tree, hash_files = tiles.check_hash_tiles(get, head.size, head.root)
    except tiles.TileError:  # the source's own tiles say whether it or this mirror's copy is at fault
        local.clear()
        fell_back = True
        try:
            tree, hash_files = tiles.check_hash_tiles(fetch, head.size, head.root)
        except tiles.TileError as e:
            raise MirrorError(f"{source}: {e}") from None
    if old is not None and tree.root(old.size) != old.root:
        raise MirrorError(f"{source}: its tree of {head.size} leaves does not extend the checkpoint this mirror "
                          f"holds ({old.size} leaves): the log forked (keep the mirror; it is the evidence)")
    for path, data in hash_files.items() if fell_back else ():
        kept = mine(path)
        if kept is not None and kept != data and tiles.parse_path(path).full:
            raise MirrorError(f"{root}/{path}: this mirror's copy differs from {source}'s, whose tiles make its "
                              "checkpoint's tree and extend this mirror's: the mirror's copy was altered (`arbiter "
                              "log check` names what does not hold; remove the file and mirror again)")
    written = 0

    def keep(path: str, data: bytes) -> None:  # a file the new checkpoint proves, written if the mirror lacks it
        nonlocal written
        if path not in local and mine(path) != data:
            _write(root / path, data)
            written += 1

    try:
        bundles = tiles.check_entries(get, head.size, tree, keep)
    except tiles.TileError as e:
        where = f"this mirror's copy in {root}" if e.tile is not None and e.tile.path in local else source
        raise MirrorError(f"{where}: {e}") from None
    for path, data in hash_files.items():
        keep(path, data)
    if held != note:
        _write(root / CHECKPOINT, note)
        written += 1
    return Mirrored(head.origin, head.size, head.root, len(hash_files) + bundles + 1, written,
                    old.size if old else None)


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
