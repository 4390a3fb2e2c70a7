"""Which logs a witness cosigns for: each known by its origin and the verifier keys of its checkpoints.

C2SP tlog-checkpoint: "The log's key name in its signature line SHOULD match the origin line", so a key given alone
(`--log VKEY`) names its log's origin. A config file may say otherwise for a log whose key is named apart:

    # one log a line: a verifier key, or an origin then a verifier key
    arbiter.example.org/federation+1a2b3c4d+AQ...
    example.com/behind-the-sofa example.com/sofa-key-2+5e6f7a8b+AQ...

Several keys for one origin (a key rotation) are all trusted. Every refusal names the line and what is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from service.evidence.signed_notes import ED25519, NoteError, Verifier

from .decide import KnownLog


class LogConfigError(ValueError):
    """A log key or config line the witness cannot use."""


def log_verifier(text: str, where: str = "--log") -> Verifier:
    """A log's verifier key (Ed25519, algorithm 0x01) from its text form; raises LogConfigError."""
    try:
        return Verifier.parse(text, ED25519)
    except NoteError as e:
        raise LogConfigError(f"{where}: {e}") from None


def known_logs(keys: Iterable[str] = (), config: str | Path | None = None) -> dict[str, KnownLog]:
    """The logs of `--log` keys (origin = key name) and of a config file, by origin."""
    pairs = [(v.name, v) for v in (log_verifier(k) for k in keys)]
    if config is not None:
        pairs += read_config(config)
    logs: dict[str, list[Verifier]] = {}
    for origin, verifier in pairs:
        if verifier not in logs.setdefault(origin, []):
            logs[origin].append(verifier)
    return {origin: KnownLog(origin, tuple(vs)) for origin, vs in logs.items()}


def read_config(path: str | Path) -> list[tuple[str, Verifier]]:
    """(origin, verifier) of each line of a config file; raises LogConfigError naming the file and line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise LogConfigError(f"log config {path}: cannot be read ({getattr(e, 'strerror', None) or e})") from None
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) > 2:
            raise LogConfigError(f"log config {path}, line {number}: expected a verifier key, or an origin and a "
                                 "verifier key")
        verifier = log_verifier(fields[-1], f"log config {path}, line {number}")
        out.append((fields[0] if len(fields) == 2 else verifier.name, verifier))
    return out
