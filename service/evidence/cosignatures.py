"""C2SP tlog-cosignature (https://c2sp.org/tlog-cosignature): a witness's timestamped Ed25519 signature of a
checkpoint, carried as one more signature line of the checkpoint's note.

The witness signs `cosignature/v1\\ntime <seconds since 1970>\\n` followed by the checkpoint's text; the signature
line holds the key id (algorithm 0x04), the time (8 bytes, big-endian) and the 64-byte Ed25519 signature.
"""

from __future__ import annotations

import struct
import time as clock

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .signed_notes import COSIGNATURE, Signature, Verifier, check_name, check_text, cosigned_message


class Cosigner:
    """A witness's key: cosigns checkpoint texts under its name."""

    def __init__(self, name: str, private: Ed25519PrivateKey):
        self.name = check_name(name)
        self.private = private
        self.verifier = Verifier(name, COSIGNATURE, private.public_key().public_bytes_raw())

    def cosign(self, text: bytes, timestamp: int | None = None) -> Signature:
        """The cosignature of checkpoint `text` (now, unless `timestamp` is given)."""
        text = check_text(text)
        timestamp = int(clock.time()) if timestamp is None else timestamp
        body = struct.pack(">Q", timestamp) + self.private.sign(cosigned_message(text, timestamp))
        return Signature(self.name, self.verifier.id, body)


def cosignature_time(signature: Signature) -> int:
    """When a cosignature says it was made (seconds since 1970)."""
    return struct.unpack(">Q", signature.signature[:8])[0]
