"""The server's Ed25519 signing key, kept in a file outside the event store, and signed documents.

A signed document (a receipt, a checkpoint line) is a JSON object of strings and integers with a
`key` field (the signer's key id) and a `signature` field: the Ed25519 signature, in hex, of the
document's canonical JSON without `signature` (keys sorted, no spaces, ASCII only, UTF-8).
Hashing and signing are the `cryptography` library's.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import tempfile
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

log = logging.getLogger("arbiter.evidence")
ALGORITHM = "Ed25519"


class KeyFileError(ValueError):
    """A signing key file arbiter cannot use (names the file and what is wrong)."""


def canonical(doc: dict) -> bytes:
    """The canonical JSON bytes of a document: keys sorted, no spaces, ASCII only."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


class PublicKey:
    """A server's public key: checks signatures; its id is the first 16 hex digits of SHA-256(raw key)."""

    def __init__(self, key: Ed25519PublicKey):
        self._key = key
        self.raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.id = hashlib.sha256(self.raw).hexdigest()[:16]

    @classmethod
    def from_hex(cls, text: str) -> "PublicKey":
        """A public key from its 64 hex digits; raises KeyFileError."""
        try:
            return cls(Ed25519PublicKey.from_public_bytes(bytes.fromhex(text)))
        except ValueError:
            raise KeyFileError(f"public key {text[:80]!r}: expected the 64 hex digits of an Ed25519 public key") from None

    @classmethod
    def from_text(cls, text: str) -> "PublicKey":
        """A public key given on the command line: its 64 hex digits (as GET /api/v1/keys publishes it), or a PEM file
        holding it (SubjectPublicKeyInfo); raises KeyFileError naming what is wrong."""
        text = text.strip()
        if len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text):
            return cls.from_hex(text.lower())
        path = Path(text)
        if not path.is_file():
            raise KeyFileError(f"public key {text[:80]!r}: expected the 64 hex digits of an Ed25519 public key "
                               "(GET /api/v1/keys: public_key) or a PEM file holding it")
        try:
            key = serialization.load_pem_public_key(path.read_bytes())
        except (OSError, ValueError) as e:
            raise KeyFileError(f"public key file {path}: not a PEM public key ({e})") from None
        if not isinstance(key, Ed25519PublicKey):
            raise KeyFileError(f"public key file {path}: holds a {type(key).__name__}, expected an Ed25519 key")
        return cls(key)

    def describe(self) -> dict:
        """What GET /api/v1/keys publishes."""
        pem = self._key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        return {"algorithm": ALGORITHM, "key_id": self.id, "public_key": self.raw.hex(), "pem": pem.decode("ascii")}

    def signature_problem(self, doc: dict) -> str | None:
        """None when `doc` carries this key's id and a good signature of its other fields, else what is wrong."""
        if doc.get("key") != self.id:
            return f"it names signing key {str(doc.get('key'))[:40]!r}, but this server's key is {self.id}"
        try:
            signature = bytes.fromhex(doc.get("signature", ""))
        except (TypeError, ValueError):
            return "its signature is not hex"
        body = {k: v for k, v in doc.items() if k != "signature"}
        try:
            self._key.verify(signature, canonical(body))
        except InvalidSignature:
            return "its signature does not match its content (a field was changed after signing, or this key never signed it)"
        return None


class ServerKey(PublicKey):
    """The private signing key and its public half."""

    def __init__(self, private: Ed25519PrivateKey):
        super().__init__(private.public_key())
        self._private = private

    @classmethod
    def generate(cls) -> "ServerKey":
        """A fresh key that lives only in this process (the in-memory store's)."""
        return cls(Ed25519PrivateKey.generate())

    def derived_secret(self, label: str) -> str:
        """A secret (hex) derived from the private key for one use named by `label` (HMAC-SHA256): what the server
        seals with (service.play.seat_offers); it tells nothing about the signing key."""
        raw = self._private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                          serialization.NoEncryption())
        return hmac.new(raw, label.encode("utf-8"), hashlib.sha256).hexdigest()

    def note_signer(self, name: str):
        """This key as the signer of signed notes under `name` (the transparency log's checkpoints)."""
        from .signed_notes import Signer

        return Signer(name, self._private)

    def sign(self, doc: dict) -> dict:
        """`doc` with `key` and `signature` added."""
        body = {**doc, "key": self.id}
        return {**body, "signature": self._private.sign(canonical(body)).hex()}


def load(path: str | os.PathLike) -> ServerKey | None:
    """The key in `path`, or None when there is no such file (verification never creates a key)."""
    path = Path(path)
    return _load(path) if path.exists() else None


def load_or_create(path: str | os.PathLike) -> tuple[ServerKey, bool]:
    """The key in `path` (PEM, PKCS#8), created (mode 0600) when the file does not exist; returns (key, created)."""
    path = Path(path)
    if not path.exists():
        try:
            _create(path)
        except FileExistsError:  # another worker created it at the same moment: use theirs
            pass
        else:
            key = _load(path)
            log.warning("arbiter: created a new signing key %s (key id %s). Keep it and back it up apart from the "
                        "database: receipts and checkpoints are signed with it.", path.resolve(), key.id)
            return key, True
    return _load(path), False


def create_key_file(path: Path, what: str = "signing key file", error: type = None) -> None:
    """Write a new Ed25519 key (PEM, PKCS#8, mode 0600) to a temporary file and link it into place: never a
    half-written key; raises FileExistsError if one exists, `error` (KeyFileError) naming `what` if it cannot."""
    error = error or KeyFileError
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption())
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".arbiter-key-")
    except OSError as e:
        raise error(f"{what} {path}: cannot be created ({e.strerror or e})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        os.link(tmp, path)
    finally:
        os.unlink(tmp)


def read_key_file(path: Path, what: str = "signing key file", error: type = None) -> Ed25519PrivateKey:
    """The Ed25519 private key of a PEM file; `error` (KeyFileError) names `what` and what is wrong."""
    error = error or KeyFileError
    try:
        data = path.read_bytes()
    except OSError as e:
        raise error(f"{what} {path}: cannot be read ({e.strerror or e})") from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as e:
        raise error(f"{what} {path}: not an unencrypted PEM private key ({e})") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise error(f"{what} {path}: holds a {type(private).__name__}, expected an Ed25519 key")
    return private


def _create(path: Path) -> None:
    create_key_file(path)


def _load(path: Path) -> ServerKey:
    return ServerKey(read_key_file(path))
