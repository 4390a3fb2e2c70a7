"""The witness's own Ed25519 key: a PEM file (PKCS#8), created on first start, whose public half under the
witness's name is the cosigner verifier key logs and auditors trust.

The file is written and read as the server's key is (service.evidence.keys); a witness key is another identity, with
its own name, errors and warning, and the witness needs the private key as such, to make a Cosigner.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence.cosignatures import Cosigner
from service.evidence.keys import create_key_file, read_key_file
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
    """A new key file (service.evidence.keys); False when another process made it first."""
    try:
        create_key_file(path, "witness key file", WitnessKeyError)
        return True
    except FileExistsError:
        return False


def _load(path: Path) -> Ed25519PrivateKey:
    return read_key_file(path, "witness key file", WitnessKeyError)
