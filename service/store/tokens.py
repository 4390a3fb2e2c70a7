"""Bearer tokens: fresh ones, the seats' derived from the referee's, and the hash that is all a game stores of them."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def token_hash(token: str) -> str:
    """How a token is stored: its SHA-256 (tokens themselves never enter events, logs or exports)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh bearer token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def seat_token(referee_token: str, seat: int) -> str:
    """A seat's token, derived from the referee's (HMAC-SHA256, 192 bits, URL-safe): whoever holds the referee
    token can give the seats their links again; a seat token tells nothing about the referee's or another seat's."""
    digest = hmac.new(referee_token.encode("utf-8"), f"arbiter seat {seat}".encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")
