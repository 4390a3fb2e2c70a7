"""Sealed boxes: anyone can seal a secret to a tournament director's public key; only the director's token opens it.

A tournament keeps every game's referee token sealed to its director (X25519 + HKDF-SHA256 + AES-GCM, the
`cryptography` library's), so that the service can create the next game on anyone's request while only the
director can later hand out the game's links again. The director's key pair is derived from the director token's
secret, which is never stored (only its SHA-256 is).
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

_RAW = {"encoding": serialization.Encoding.Raw, "format": serialization.PublicFormat.Raw}
_NONCE = bytes(12)  # every box has its own ephemeral key, so its AES key is used once


def _private(secret: str) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(hashlib.sha256(b"arbiter director|" + secret.encode("utf-8")).digest())


def public_key(secret: str) -> str:
    """The director's public key (hex) for a director token's secret."""
    return _private(secret).public_key().public_bytes(**_RAW).hex()


def _key(shared: bytes, label: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"arbiter seal|" + label.encode()).derive(shared)


def seal(public_hex: str, label: str, text: str) -> str:
    """`text` sealed to a public key, bound to `label` (a game id): hex of ephemeral key + ciphertext."""
    ephemeral = X25519PrivateKey.generate()
    shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)))
    box = AESGCM(_key(shared, label)).encrypt(_NONCE, text.encode("utf-8"), label.encode())
    return (ephemeral.public_key().public_bytes(**_RAW) + box).hex()


def open_box(secret: str, label: str, sealed: str) -> str:
    """The text of a box sealed to the director of `secret`; raises ValueError if it does not open."""
    raw = bytes.fromhex(sealed)
    shared = _private(secret).exchange(X25519PublicKey.from_public_bytes(raw[:32]))
    try:
        return AESGCM(_key(shared, label)).decrypt(_NONCE, raw[32:], label.encode()).decode("utf-8")
    except Exception as e:  # InvalidTag: another director's box, or damaged
        raise ValueError("the sealed token does not open with this director token") from e
