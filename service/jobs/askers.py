"""Who asks for a background job, as the limits and the cancel count them (service.jobs.rules), and the jobs'
times as the API writes them."""

from __future__ import annotations

import hashlib
import time


def caller_of(token: str | None, address: str | None, anonymous: str | None = None) -> str:
    """Who asks, for the limits and the cancel: a token (its hash: a token is never kept), else a browser's own
    anonymous id (its hash), else the caller's address."""
    if token is not None:
        return "token " + hashlib.sha256(token.encode()).hexdigest()
    if anonymous:
        return "browser " + hashlib.sha256(anonymous.encode()).hexdigest()
    return f"address {address or 'unknown'}"


def iso(at: float | None) -> str | None:
    return None if at is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))
