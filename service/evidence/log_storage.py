"""Where the checkpoint log's lines are kept on one machine: a JSON-lines file (appends under an exclusive flock, so
several processes of one machine may write) or memory (an in-memory store's). The PostgreSQL table is
service.evidence.pg_tables.TableStorage. Each storage reads the whole log (`read`), only the lines after a point
(`tail`, for the transparency log's tree, extended as lines come: service.evidence.transparency) and one line
(`line_at`), and appends under its lock (`append`, group-committed)."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from pathlib import Path
from typing import Callable

from service.adapters.group_commit import Batches

TAIL_CHUNK = 1 << 22  # how much of a file log one read of its tail takes


SYNC_SECONDS = 1.0  # a power cut costs at most the log lines of the last second, never a published one (docs/evidence.md)


class FileStorage:
    """The log as a JSON-lines file; appends hold an exclusive flock, so several processes on one machine may write."""

    def __init__(self, path: str | os.PathLike, sync_seconds: float | None = None):
        """`sync_seconds`: how long a written line may wait for its fsync (ARBITER_LOG_SYNC_SECONDS, default 1; 0:
        every write is synced before its callers return). A line is written, and seen by every process, at once; it is
        synced within that time and always before a checkpoint of the tree is published (make_durable)."""
        self.path = Path(path)
        if sync_seconds is None:
            sync_seconds = float(os.environ.get("ARBITER_LOG_SYNC_SECONDS") or SYNC_SECONDS)
        self.sync_seconds = sync_seconds
        self._synced_at = time.monotonic()
        self._dirty = False
        self._batches = Batches(self._write)  # appends waiting for the next write (service.adapters.group_commit)

    def make_durable(self) -> None:
        """fsync the log (before a checkpoint of the tree is published: whichever process wrote its last lines)."""
        try:
            with open(self.path, "rb") as f:
                os.fsync(f.fileno())
        except FileNotFoundError:
            return
        self._dirty, self._synced_at = False, time.monotonic()

    def __str__(self) -> str:
        return str(self.path)

    def read(self) -> bytes:
        """The whole log (empty when the file does not exist yet)."""
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""

    def exists(self) -> bool:
        return self.path.exists()

    def tail(self, after: int) -> tuple[list[tuple[int, bytes]], int]:
        """Whole lines from byte `after` on (about TAIL_CHUNK bytes of them: call again until none come), each with
        where it starts, and where the next read starts (a line being written is left for then); raises LogShrank
        when the file is shorter than `after`."""
        try:
            with open(self.path, "rb") as f:
                if f.seek(0, os.SEEK_END) < after:
                    raise LogShrank(f"the checkpoint log {self.path} is shorter than this process read it")
                f.seek(after)
                data = f.read(TAIL_CHUNK)
                while data and b"\n" not in data:  # a line longer than a chunk
                    more = f.read(TAIL_CHUNK)
                    if not more:
                        break
                    data += more
                return _whole_lines([data], after)
        except FileNotFoundError:
            if after:
                raise LogShrank(f"the checkpoint log {self.path} is gone") from None
            return [], 0

    def line_at(self, position: int) -> bytes:
        """The line that starts at byte `position` (without its newline)."""
        with open(self.path, "rb") as f:
            f.seek(position)
            return f.readline().rstrip(b"\n")

    def lines_at(self, positions) -> list[bytes]:
        """The lines that start at each of `positions` (an entry bundle's leaves), read through one open file."""
        out = []
        with open(self.path, "rb") as f:
            for position in positions:
                f.seek(position)
                out.append(f.readline().rstrip(b"\n"))
        return out

    def append(self, make: Callable[[bytes | None], bytes]) -> bytes:
        """Under the lock: `make(last line or None)` gives the new line, which is appended (and synced: at once, or
        within `sync_seconds`).

        Appends of this process's threads that arrive while another is being written go together in the next
        write, each line made on the one before it (group commit); each caller returns once its own line is written,
        or raises its own `make`'s error."""
        mine = self._batches.submit(make)
        if mine.error is not None:
            raise mine.error
        return mine.result

    def _write(self, batch: list) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a+b") as f:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                try:
                    last, lines = _last_line(f), []
                    for pending in batch:
                        try:
                            pending.result = last = pending.item(last)
                            lines.append(last + b"\n")
                        except Exception as e:  # noqa: BLE001 - that caller's own error; the others go on
                            pending.error = e
                    f.seek(0, os.SEEK_END)
                    f.write(b"".join(lines))
                    f.flush()
                    if time.monotonic() - self._synced_at >= self.sync_seconds:
                        os.fsync(f.fileno())
                        self._dirty, self._synced_at = False, time.monotonic()
                    else:
                        self._dirty = True
                finally:
                    fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        except Exception as e:  # noqa: BLE001 - nothing of this write is known to be kept: every caller hears it
            for pending in batch:
                if pending.error is None:
                    pending.result, pending.error = None, e


class MemoryStorage:
    """The log of an in-memory store: lives and dies with the process."""

    path = None

    def __init__(self):
        self._data = bytearray()
        self._lock = threading.Lock()

    def __str__(self) -> str:
        return "(in memory)"

    def read(self) -> bytes:
        with self._lock:
            return bytes(self._data)

    def exists(self) -> bool:
        return True

    def tail(self, after: int) -> tuple[list[tuple[int, bytes]], int]:
        with self._lock:
            data = bytes(self._data[after:])
        return _whole_lines([data], after)

    def line_at(self, position: int) -> bytes:
        with self._lock:
            end = self._data.index(b"\n", position)
            return bytes(self._data[position:end])

    def lines_at(self, positions) -> list[bytes]:
        return [self.line_at(position) for position in positions]

    def append(self, make: Callable[[bytes | None], bytes]) -> bytes:
        with self._lock:
            lines = bytes(self._data).rstrip(b"\n").rsplit(b"\n", 1)
            line = make(lines[-1] if self._data else None)
            self._data += line + b"\n"
            return line


class LogShrank(OSError):
    """The log is shorter than a reader of its tail had read: lines were cut or the file replaced."""


def _whole_lines(chunks, start: int) -> tuple[list[tuple[int, bytes]], int]:
    """The whole lines of the bytes `chunks` (read from offset `start`), each with its offset, and the offset after
    the last whole line."""
    out, pending, position = [], b"", start
    for chunk in chunks:
        pending += chunk
        lines = pending.split(b"\n")
        pending = lines.pop()
        for raw in lines:
            out.append((position, raw))
            position += len(raw) + 1
    return out, position


def _last_line(f) -> bytes | None:
    """The last line of an open file (without its newline), read backwards from the end."""
    end = f.seek(0, os.SEEK_END)
    if end == 0:
        return None
    chunk, pos = b"", end
    while pos > 0:
        step = min(4096, pos)
        pos -= step
        f.seek(pos)
        chunk = f.read(step) + chunk
        body = chunk.rstrip(b"\n")
        if b"\n" in body:
            return body.rsplit(b"\n", 1)[1]
    return chunk.rstrip(b"\n")
