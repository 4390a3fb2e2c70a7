"""C2SP tlog-proof (https://c2sp.org/tlog-proof): an offline-verifiable proof that an entry is in a log, as text.

    c2sp.org/tlog-proof@v1
    extra <base64 of opaque extra data>      (optional; arbiter puts the leaf's bytes here: its checkpoint line)
    index <the leaf's zero-based index, decimal, no leading zero>
    <base64 of a SHA-256 hash, one per line: the RFC 6962 inclusion proof, from the leaf's sibling up>
    <an empty line>
    <the checkpoint's signed note, verbatim, with any cosignatures>

The spec leaves the leaf out of the file (the verifier knows what was logged) and allows the `extra` line for "data
necessary to reconstruct the record hash": arbiter's proofs carry the leaf there, never trusted as such (its hash
must lead to the signed root, and the line's own signature must hold). A file without it (another writer's) is
checked with the leaf given beside it (`arbiter proof check --leaf FILE`). Reading is strict and every refusal
(ProofFormatError) names the line and what is wrong: a proof arrives from anyone.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from .merkle import HASH_SIZE

HEADER = "c2sp.org/tlog-proof@v1"
FAMILY = "c2sp.org/tlog-proof"
MAX_BYTES = 2 << 20  # a note is at most 1 MiB (signed_notes.MAX_NOTE), the rest is at most 64 hashes and the leaf
MAX_HASHES = 64  # a tree of fewer than 2**63 leaves has an inclusion proof of at most 63 hashes
SUFFIX = ".tlog-proof"  # the spec's file extension


class ProofFormatError(ValueError):
    """A tlog-proof that cannot be read (names the line and what is wrong)."""


@dataclass(frozen=True)
class TlogProof:
    index: int
    hashes: tuple[bytes, ...]
    checkpoint: str  # the signed note, verbatim
    extra: bytes | None = None

    @property
    def text(self) -> str:
        lines = [HEADER]
        if self.extra is not None:
            lines.append(f"extra {base64.b64encode(self.extra).decode()}")
        lines.append(f"index {self.index}")
        lines += [base64.b64encode(h).decode() for h in self.hashes]
        return "".join(line + "\n" for line in lines) + "\n" + self.checkpoint


def is_tlog_proof(data: bytes) -> bool:
    """Whether a file's bytes claim to be a tlog-proof (of any version): its first line names the format."""
    return data.lstrip(b"\xef\xbb\xbf").startswith(FAMILY.encode())


def from_bundle(bundle: dict) -> TlogProof:
    """An `arbiter.proof/1` bundle as a tlog-proof, the leaf's bytes as its extra data; raises ProofFormatError for a
    bundle whose parts cannot be written (it is not checked: `arbiter proof check` does that)."""
    try:
        index, proof, checkpoint = bundle["index"], bundle["proof"], bundle["checkpoint"]
        if not (isinstance(index, int) and index >= 0 and isinstance(checkpoint, str) and isinstance(proof, list)):
            raise TypeError
        return TlogProof(index, tuple(base64.b64decode(h, validate=True) for h in proof), checkpoint,
                         base64.b64decode(bundle["leaf"], validate=True))
    except (KeyError, TypeError, ValueError, binascii.Error):
        raise ProofFormatError("its index, proof, leaf or checkpoint is missing or malformed") from None


def parse(data: bytes | str) -> TlogProof:
    """A tlog-proof read from its bytes; raises ProofFormatError naming the line and what is wrong."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise ProofFormatError(f"the proof is {len(raw)} bytes, more than {MAX_BYTES}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise ProofFormatError(f"line {line}: not UTF-8 text") from None
    cut = text.find("\n\n")
    if cut < 0:
        crlf = " (its lines end in a carriage return and a newline: the format's end in a newline only)" \
            if "\r\n" in text else ""
        raise ProofFormatError(f"no empty line: the checkpoint must follow the proof's lines after an empty line{crlf}")
    lines, checkpoint = text[:cut].split("\n"), text[cut + 2:]
    for number, line in enumerate(lines, 1):
        if "\r" in line:
            raise ProofFormatError(f"line {number}: a carriage return (lines end with a newline only)")
    if lines[0] != HEADER:
        found = lines[0][:60]
        raise ProofFormatError(f"line 1 is {found!r}, expected {HEADER!r}" + (
            " (another version of the format)" if found.startswith(FAMILY) else ""))
    number, extra = 2, None
    if len(lines) > 1 and lines[1].startswith("extra "):
        extra = _base64(lines[1][len("extra "):], 2, "the extra data")
        number = 3
    if len(lines) < number or not lines[number - 1].startswith("index "):
        got = repr(lines[number - 1][:40]) if len(lines) >= number else "nothing"
        raise ProofFormatError(f"line {number}: expected 'index <decimal>'" + (
            " (or 'extra <base64>' before it)" if number == 2 else "") + f", found {got}")
    index = lines[number - 1][len("index "):]
    if not re.fullmatch(r"0|[1-9][0-9]{0,18}", index) or int(index) >= 1 << 63:
        raise ProofFormatError(f"line {number}: the index {index[:30]!r} is not a decimal number without leading zeros")
    hashes = lines[number:]
    if len(hashes) > MAX_HASHES:
        raise ProofFormatError(f"{len(hashes)} proof hashes, more than {MAX_HASHES} (no tree has a proof that long)")
    proof = []
    for at, line in enumerate(hashes, number + 1):
        digest = _base64(line, at, "the proof hash")
        if len(digest) != HASH_SIZE:
            raise ProofFormatError(f"line {at}: the proof hash is {len(digest)} bytes, a SHA-256 hash is {HASH_SIZE}")
        proof.append(digest)
    if not checkpoint:
        raise ProofFormatError("nothing after the empty line: the checkpoint is missing")
    return TlogProof(int(index), tuple(proof), checkpoint, extra)


def _base64(text: str, line: int, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ProofFormatError(f"line {line}: {what} is not base64 ({text[:60]!r})") from None
