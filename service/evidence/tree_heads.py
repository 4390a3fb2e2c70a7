"""C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the text of a signed tree head.

    <origin: the log's name, e.g. arbiter.example.org/federation-2026>
    <tree size, decimal>
    <root hash, base64>
    [extension lines]

Signed as a note (service.evidence.signed_notes) by the log's key, whose name is the origin, and cosigned by
witnesses (service.evidence.cosignatures).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from .merkle import HASH_SIZE
from .signed_notes import NoteError, check_text


@dataclass(frozen=True)
class TreeHead:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    @property
    def text(self) -> bytes:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return check_text("".join(line + "\n" for line in lines))

    @classmethod
    def parse(cls, text: bytes | str) -> "TreeHead":
        """A checkpoint's text read; raises NoteError naming the line that is wrong."""
        lines = check_text(text).decode().split("\n")[:-1]
        if len(lines) < 3:
            raise NoteError("a checkpoint has at least three lines: origin, tree size, root hash")
        origin, size, root, *extensions = lines
        if not origin or origin.strip() != origin:
            raise NoteError("the checkpoint's origin line is empty or has surrounding spaces")
        if not re.fullmatch(r"0|[1-9][0-9]{0,18}", size):
            raise NoteError(f"the checkpoint's tree size {size[:30]!r} is not a decimal number")
        try:
            raw = base64.b64decode(root, validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != HASH_SIZE:
            raise NoteError("the checkpoint's root hash is not 32 bytes of base64")
        if any(not line for line in extensions):
            raise NoteError("the checkpoint has an empty extension line")
        return cls(origin, int(size), raw, tuple(extensions))
