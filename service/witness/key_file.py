"""The witness's own Ed25519 key: a PEM file (PKCS#8), created on first start, whose public half under the
witness's name is the cosigner verifier key logs and auditors trust.

The server's key (service.evidence.keys) is kept the same way; this file is the witness's twin of its load_or_create
because a witness key is another identity with another warning (and the witness needs the private key as such, to
make a Cosigner).
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence.cosignatures import Cosigner
from service.evidence.signed_notes import NoteError, check_name

log = logging.getLogger("arbiter.witness")


class WitnessKeyError(ValueError):
    """A witness key file or name the witness cannot use (names which and why)."""


def load_or_create(path: str | os.PathLike, name: str) -> tuple[Cosigner, bool]:
    """The cosigner of the key in `path` under `name`, the file created (mode 0600) when missing; (cosigner, created)."""
    try:
        check_name(name)
    except NoteError as e:
        raise WitnessKeyError(f"witness name: {e}") from None
    path = Path(path)
    created = False
    if not path.exists():
        created = _create(path)
    cosigner = Cosigner(name, _load(path))
    if created:
        log.warning("arbiter witness: created a new witness key %s; its verifier key is %s. Keep the key and its "
                    "state file together and back them up: a witness that loses its state must be retired with its key.",
                    path.resolve(), cosigner.verifier.text)
    return cosigner, created


def _create(path: Path) -> bool:
    """Write a new key to a temporary file and link it into place; False when another process made it first."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption())
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".witness-key-")
    except OSError as e:
        raise WitnessKeyError(f"witness key file {path}: cannot be created ({e.strerror or e})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        os.unlink(tmp)


def _load(path: Path) -> Ed25519PrivateKey:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise WitnessKeyError(f"witness key file {path}: cannot be read ({e.strerror or e})") from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as e:
        raise WitnessKeyError(f"witness key file {path}: not an unencrypted PEM private key ({e})") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise WitnessKeyError(f"witness key file {path}: holds a {type(private).__name__}, expected an Ed25519 key")
    return private
