"""C2SP signed notes (https://c2sp.org/signed-note, the format of `golang.org/x/mod/sumdb/note`): a text signed by one
or more named keys, how the log's checkpoints and the witnesses' cosignatures travel.

    <text: UTF-8 lines, each ending in a newline>
    <an empty line>
    — <key name> <base64(4-byte key id || signature)>
    ...

A key's id is the first 4 bytes of SHA-256(name || 0x0A || algorithm byte || public key); a verifier key is written
`<name>+<key id, 8 hex digits>+<base64(algorithm byte || public key)>`. Algorithm 0x01 is Ed25519 over the text
(arbiter's log key); 0x04 is a timestamped Ed25519 cosignature (service.evidence.cosignatures). Parsing is strict
and every refusal names what is wrong (NoteError): a note arrives from anyone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = 0x01
COSIGNATURE = 0x04
DASH = "\u2014"  # the em dash that starts a signature line
KINDS = {ED25519: "an Ed25519 signing key (algorithm 0x01): a log signs its checkpoints with one",
         COSIGNATURE: "a cosignature key (algorithm 0x04, C2SP tlog-cosignature): a witness cosigns with one"}
MAX_SIGNATURES = 100
MAX_NOTE = 1 << 20
CONTROL = re.compile("[\x00-\x09\x0b-\x1f]")  # a control character other than the newline (one search: a promise is
# made for every acknowledgement, and a loop over its characters cost a fifth of its signing)


class NoteError(ValueError):
    """A note, a signature line or a key that cannot be read, or a signature that does not hold (names which)."""


def key_id(name: str, algorithm: int, public: bytes) -> int:
    """The 32-bit id of a key: the first 4 bytes of SHA-256(name, a newline, the algorithm byte, the public key)."""
    return struct.unpack(">I", hashlib.sha256(name.encode() + b"\n" + bytes([algorithm]) + public).digest()[:4])[0]


def check_name(name: str) -> str:
    """A key name as the format allows it: not empty, no whitespace, no '+'."""
    if not name or re.search(r"[\s+]", name) or not name.isprintable():
        raise NoteError(f"key name {name!r}: must be non-empty, printable, without spaces or '+'")
    return name


@dataclass(frozen=True)
class Verifier:
    """A named public key that checks one kind of signature line."""

    name: str
    algorithm: int
    public: bytes

    @property
    def id(self) -> int:
        return key_id(self.name, self.algorithm, self.public)

    @property
    def text(self) -> str:
        """The verifier key's text form, `<name>+<id>+<base64>`."""
        return f"{self.name}+{self.id:08x}+{base64.b64encode(bytes([self.algorithm]) + self.public).decode()}"

    def verify(self, text: bytes, signature: bytes) -> bool:
        """Whether `signature` (the signature line's bytes after the key id) signs the note text."""
        if self.algorithm == ED25519:
            return _ed25519_ok(self.public, signature, text)
        if self.algorithm == COSIGNATURE:
            if len(signature) != 72:
                return False
            (timestamp,) = struct.unpack(">Q", signature[:8])
            return _ed25519_ok(self.public, signature[8:], cosigned_message(text, timestamp))
        return False

    @classmethod
    def parse(cls, text: str, algorithm: int | None = None) -> "Verifier":
        """A verifier key from its text form, of `algorithm` when one is asked for (ED25519: a log's signing key;
        COSIGNATURE: a witness's); raises NoteError naming what is wrong."""
        verifier = cls._parse(text)
        if algorithm is not None and verifier.algorithm != algorithm:
            raise NoteError(f"{verifier.name}'s key is not {KINDS[algorithm]}")
        return verifier

    @classmethod
    def _parse(cls, text: str) -> "Verifier":
        parts = text.strip().split("+", 2)
        if len(parts) != 3:
            raise NoteError(f"verifier key {text.strip()[:80]!r}: expected <name>+<key id>+<base64 key>")
        name, hex_id, b64 = parts
        check_name(name)
        if not re.fullmatch(r"[0-9a-f]{8}", hex_id):
            raise NoteError(f"verifier key of {name}: the key id {hex_id[:20]!r} is not 8 lower-case hex digits")
        try:
            raw = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError):
            raise NoteError(f"verifier key of {name}: the key is not base64") from None
        if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
            found = f"algorithm 0x{raw[0]:02x} and {len(raw) - 1} bytes" if raw else "nothing"
            other = " (a key type arbiter does not verify)" if raw and raw[0] not in (ED25519, COSIGNATURE) else ""
            raise NoteError(f"verifier key of {name}: expected an algorithm byte 0x01 (Ed25519) or 0x04 (cosignature) "
                            f"and a 32-byte Ed25519 public key, found {found}{other}")
        verifier = cls(name, raw[0], raw[1:])
        if verifier.id != int(hex_id, 16):
            raise NoteError(f"verifier key of {name}: key id {hex_id} does not match the name and key (expected "
                            f"{verifier.id:08x})")
        return verifier


def cosigned_message(text: bytes, timestamp: int) -> bytes:
    """The bytes a witness signs for checkpoint `text` at `timestamp` (C2SP tlog-cosignature/v1)."""
    return b"cosignature/v1\ntime " + str(timestamp).encode() + b"\n" + text


def _ed25519_ok(public: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


class Signer:
    """An Ed25519 key that signs note texts under a name (algorithm 0x01)."""

    def __init__(self, name: str, private: Ed25519PrivateKey):
        self.name = check_name(name)
        self.private = private
        self.public = private.public_key().public_bytes_raw()
        self.verifier = Verifier(name, ED25519, self.public)

    def signature_line(self, text: bytes) -> str:
        sig = struct.pack(">I", self.verifier.id) + self.private.sign(text)
        return f"{DASH} {self.name} {base64.b64encode(sig).decode()}\n"

    def sign(self, text: str | bytes) -> str:
        """The signed note of `text` (which must end in a newline)."""
        raw = check_text(text)
        return raw.decode() + "\n" + self.signature_line(raw)


@dataclass(frozen=True)
class Signature:
    """One signature line of a note: who (name, key id) and the bytes after the key id."""

    name: str
    id: int
    signature: bytes

    @property
    def line(self) -> str:
        return f"{DASH} {self.name} {base64.b64encode(struct.pack('>I', self.id) + self.signature).decode()}\n"


@dataclass(frozen=True)
class Note:
    """A note read: its text, the signatures that verified (by a known key) and the others (unknown keys)."""

    text: bytes
    verified: tuple[Signature, ...]
    unverified: tuple[Signature, ...]

    def signed_by(self, name: str) -> bool:
        return any(s.name == name for s in self.verified)


def check_text(text: str | bytes) -> bytes:
    """A note's text as bytes, after the format's rules (UTF-8, ends in one newline, no control characters)."""
    raw = text.encode() if isinstance(text, str) else text
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NoteError("the note's text is not UTF-8") from None
    if not raw.endswith(b"\n"):
        raise NoteError("the note's text must end with a newline")
    if CONTROL.search(decoded):
        raise NoteError("the note's text holds a control character")
    return raw


def split(note: str | bytes) -> tuple[bytes, list[Signature]]:
    """A note's text and its signature lines, unverified; raises NoteError for a note that is not well formed."""
    raw = note.encode() if isinstance(note, str) else note
    if len(raw) > MAX_NOTE:
        raise NoteError(f"the note is {len(raw)} bytes, more than {MAX_NOTE}")
    cut = raw.rfind(b"\n\n")
    if cut < 0:
        raise NoteError("the note has no signature block (an empty line, then signature lines)")
    text, block = check_text(raw[:cut + 1]), raw[cut + 2:]
    if not block.endswith(b"\n"):
        raise NoteError("the note's last signature line must end with a newline")
    try:
        lines = block.decode("utf-8").split("\n")[:-1]
    except UnicodeDecodeError:
        raise NoteError("the note's signature lines are not UTF-8") from None
    if not lines or len(lines) > MAX_SIGNATURES:
        raise NoteError(f"a note carries 1 to {MAX_SIGNATURES} signature lines, this one {len(lines)}")
    return text, [_parse_line(line) for line in lines]


def _parse_line(line: str) -> Signature:
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != DASH:
        raise NoteError(f"signature line {line[:80]!r}: expected '{DASH} <name> <base64 signature>'")
    name = check_name(parts[1])
    try:
        raw = base64.b64decode(parts[2], validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"signature line of {name}: the signature is not base64") from None
    if len(raw) < 5:
        raise NoteError(f"signature line of {name}: too short to hold a key id and a signature")
    return Signature(name, struct.unpack(">I", raw[:4])[0], raw[4:])


def open_note(note: str | bytes, verifiers: list[Verifier]) -> Note:
    """A note checked against known keys: signatures of a known key (name and id) must verify (NoteError names the
    key whose signature does not), others are kept unverified; at least one known key must have signed."""
    text, signatures = split(note)
    known = {(v.name, v.id): v for v in verifiers}
    verified, unverified, seen = [], [], set()
    for sig in signatures:
        verifier = known.get((sig.name, sig.id))
        if verifier is None:
            unverified.append(sig)
            continue
        if (sig.name, sig.id) in seen:
            raise NoteError(f"the note carries two signatures of key {sig.name}+{sig.id:08x}")
        seen.add((sig.name, sig.id))
        if not verifier.verify(text, sig.signature):
            raise NoteError(f"the signature of {sig.name} (key id {sig.id:08x}) does not verify: the note was altered, "
                            "or signed with another key")
        verified.append(sig)
    if not verified:
        names = ", ".join(sorted({f"{v.name}+{v.id:08x}" for v in verifiers})) or "none given"
        raise NoteError(f"no signature of a known key (known: {names})")
    return Note(text, tuple(verified), tuple(unverified))
