"""The add-checkpoint request of C2SP tlog-witness and the witness's answer.

    old <size>\\n                 the size the client thinks the witness last cosigned (decimal, no leading zeroes)
    <base64 hash>\\n ...          0 to 63 lines: the RFC 6962 consistency proof from `old` to the checkpoint's size
    \\n
    <the signed checkpoint note>

Reading is strict; every refusal is a Refusal (status 400) naming what is wrong.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from service.evidence.merkle import HASH_SIZE
from service.evidence.signed_notes import NoteError, Signature, split
from service.evidence.tree_heads import TreeHead

MAX_PROOF_LINES = 63
MAX_BODY = 64 * 1024  # 63 proof lines and a checkpoint with a hundred signature lines fit several times over
TEXT = "text/plain; charset=utf-8"
SIZE = "text/x.tlog.size"


@dataclass(frozen=True)
class Answer:
    """What the witness answers: an HTTP status, a body and its content type."""

    status: int
    body: str
    content_type: str = TEXT


class Refusal(ValueError):
    """A request the witness cannot read (400)."""


@dataclass(frozen=True)
class AddCheckpoint:
    """An add-checkpoint request read: the old size, the proof, and the checkpoint (its text, head and signatures)."""

    old: int
    proof: tuple[bytes, ...]
    note: bytes
    text: bytes
    head: TreeHead
    signatures: tuple[Signature, ...]

    @property
    def origin(self) -> str:
        return self.head.origin


def read_request(body: bytes) -> AddCheckpoint:
    """The request in `body`; raises Refusal naming what is malformed."""
    first, sep, rest = body.partition(b"\n")
    if not sep:
        raise Refusal("the body must start with a line 'old <size>' ending in a newline")
    match = re.fullmatch(rb"old (0|[1-9][0-9]{0,18})", first)
    if not match:
        raise Refusal(f"the first line {first[:40].decode('utf-8', 'replace')!r} is not 'old <size>' (a decimal "
                      "without leading zeroes)")
    old = int(match.group(1))
    proof = []
    while True:
        line, sep, rest = rest.partition(b"\n")
        if not sep:
            raise Refusal("the proof lines must end with an empty line, then the checkpoint")
        if not line:
            break
        if len(proof) == MAX_PROOF_LINES:
            raise Refusal(f"more than {MAX_PROOF_LINES} consistency proof lines")
        proof.append(_hash(line, len(proof) + 1))
    try:
        text, signatures = split(rest)
        head = TreeHead.parse(text)
    except NoteError as e:
        raise Refusal(f"the checkpoint: {e}") from None
    return AddCheckpoint(old, tuple(proof), rest, text, head, tuple(signatures))


def _hash(line: bytes, number: int) -> bytes:
    try:
        raw = base64.b64decode(line, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != HASH_SIZE:
        raise Refusal(f"consistency proof line {number} is not a {HASH_SIZE}-byte hash in base64")
    return raw


def request_body(old: int, proof: list[bytes], note: str | bytes) -> bytes:
    """The add-checkpoint body a client sends (service.evidence.witness_client builds the same)."""
    raw = note.encode() if isinstance(note, str) else note
    return (f"old {old}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in proof) + "\n").encode() + raw
