"""Promises: the log's signed word, handed out with every acknowledgement, that what it acknowledged will be covered
by a published checkpoint within the maximum merge delay (ARBITER_LOG_MMD), and their check.

Certificate Transparency's signed certificate timestamp, for arbiter: a C2SP signed note (service.evidence.signed_notes)
signed with the log's key under the log's origin, so anyone holding the log's verifier key (GET /api/v1/log/key)
checks it with any signed-note library:

    arbiter.invalid/3f1c0a9b2d4e5f60
    arbiter.promise/1
    game 0f8e6a52-...
    version 42
    attempts 3
    acknowledged 2025-05-01T12:00:00.123456+00:00
    in-log-by 2025-05-01T12:00:10.123456+00:00

    — arbiter.invalid/3f1c0a9b2d4e5f60 <base64 signature>

The second line keeps a promise from ever reading as a checkpoint (whose second line is a tree size). The promise
is kept when a checkpoint published at or before `in-log-by` holds a line of the game at `version` or later with
`attempts` refused attempts or more (a later line covers the earlier versions: the game's hash chain links them).
A promise past its time that no such checkpoint keeps is the log's broken word: the holder shows it to anyone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Iterable
from uuid import UUID

from domain import json_limits

from service.errors import BadInput, ServiceError

from .signed_notes import NoteError, Signer, Verifier, open_note, split

FORMAT = "arbiter.promise/1"
DEFAULT_MMD = 10.0
MAX_MMD = 86400.0
FIELDS = ("game", "version", "attempts", "acknowledged", "in-log-by")


class ForgedPromise(ServiceError):
    """A promise whose signature does not verify under this log's key: refused."""

    status = 422
    title = "Forged promise"


def mmd_seconds() -> float:
    """The maximum merge delay (ARBITER_LOG_MMD, default 10 seconds); raises BadInput naming the variable."""
    text = os.environ.get("ARBITER_LOG_MMD") or DEFAULT_MMD
    try:
        seconds = float(text)
        if not 1 <= seconds <= MAX_MMD:
            raise ValueError
    except ValueError:
        raise BadInput(f"ARBITER_LOG_MMD {text!r}: must be a number of seconds from 1 to {MAX_MMD:.0f}",
                       field="log_mmd") from None
    return seconds


@dataclass(frozen=True)
class Promise:
    origin: str
    game: str
    version: int
    attempts: int
    acknowledged: datetime
    by: datetime
    note: str

    def as_dict(self) -> dict:
        return {"game": self.game, "version": self.version, "attempts": self.attempts,
                "acknowledged": self.acknowledged.isoformat(), "in_log_by": self.by.isoformat()}


def issue(signer: Signer, game: str, version: int, attempts: int, mmd: float, at: datetime | None = None) -> str:
    """The signed note promising that `game` at `version` with `attempts` refused attempts is in a published
    checkpoint within `mmd` seconds of `at` (now)."""
    at = at or datetime.now(timezone.utc)
    by = at + timedelta(seconds=mmd)
    text = (f"{signer.name}\n{FORMAT}\ngame {game}\nversion {version}\nattempts {attempts}\n"
            f"acknowledged {at.isoformat(timespec='microseconds')}\nin-log-by {by.isoformat(timespec='microseconds')}\n")
    return signer.sign(text)


def read(note: object, verifier: Verifier | None = None) -> Promise:
    """A promise's note read (and, given the log's verifier key, its signature checked); raises BadInput naming what is
    malformed, ForgedPromise for a signature that does not hold."""
    if not isinstance(note, str) or len(note) > 4096:
        raise BadInput("promise: must be a signed note (a string of at most 4096 characters)", field="promise")
    try:
        text, _ = split(note)
    except NoteError as e:
        raise BadInput(f"promise: {e}", field="promise") from None
    lines = text.decode().split("\n")[:-1]
    if len(lines) != 2 + len(FIELDS) or lines[1] != FORMAT:
        raise BadInput(f"promise: not an {FORMAT} note (its origin, then {FORMAT}, then "
                       + ", ".join(FIELDS) + ", one a line)", field="promise")
    values = {}
    for line, name in zip(lines[2:], FIELDS):
        key, _, value = line.partition(" ")
        if key != name or not value:
            raise BadInput(f"promise: expected the line '{name} ...', found {line[:60]!r}", field="promise")
        values[name] = value
    try:
        game = str(UUID(values["game"]))
        version, attempts = int(values["version"]), int(values["attempts"])
        at, by = datetime.fromisoformat(values["acknowledged"]), datetime.fromisoformat(values["in-log-by"])
        if version < 0 or attempts < 0 or at.tzinfo is None or by.tzinfo is None:
            raise ValueError
    except ValueError:
        raise BadInput("promise: its game must be a game id, version and attempts whole numbers, and both times "
                       "ISO 8601 with a time zone", field="promise") from None
    if verifier is not None:
        if verifier.name != lines[0]:
            raise ForgedPromise(f"promise refused: it is signed under {lines[0]!r}, this log is {verifier.name!r}",
                                field="promise")
        try:
            open_note(note, [verifier])
        except NoteError as e:
            raise ForgedPromise(f"promise refused: {e}", field="promise") from None
    return Promise(lines[0], game, version, attempts, at, by, note)


def covers(doc: dict, promise: Promise) -> bool:
    """Whether checkpoint line `doc` covers what the promise acknowledged."""
    return (doc.get("game") == promise.game and isinstance(doc.get("version"), int)
            and doc["version"] >= promise.version and int(doc.get("attempts") or 0) >= promise.attempts)


def held(promise: Promise, lines: Iterable[bytes], heads: list, now: datetime | None = None) -> dict:
    """The promise held against the stored checkpoint lines and the published checkpoints (oldest first, each with
    `size` and `published_at`): {status: kept | pending | broken, detail, line, published_at}."""
    now = now or datetime.now(timezone.utc)
    index = None
    for i, raw in enumerate(lines):
        try:
            doc = json_limits.read_document(raw)
        except ValueError:
            continue
        if isinstance(doc, dict) and covers(doc, promise):
            index = i
            break
    what = f"game {promise.game} at version {promise.version}" + (
        f" with {promise.attempts} refused attempt(s)" if promise.attempts else "")
    due = promise.by.isoformat()
    published = next((h for h in heads if h.size > index), None) if index is not None else None
    out = {"line": None if index is None else index + 1, "published_at": published.published_at if published else None,
           "promise": promise.as_dict()}
    if published is not None:
        at = datetime.fromisoformat(published.published_at)
        if at <= promise.by:
            return {**out, "status": "kept", "detail": f"kept: line {index + 1} covers {what}, in the checkpoint of "
                                                       f"tree size {published.size} published at {published.published_at}"
                                                       f" (promised by {due})"}
        late = (at - promise.by).total_seconds()
        return {**out, "status": "broken",
                "detail": f"broken promise: the log promised {what} in a published checkpoint by {due}; the first that "
                          f"covers it (tree size {published.size}) was published at {published.published_at}, "
                          f"{late:.1f} s late"}
    if now <= promise.by:
        return {**out, "status": "pending", "detail": f"pending: {what} is promised in a published checkpoint by {due}"}
    where = "no line of the log covers it" if index is None else \
        f"line {index + 1} covers it, but no published checkpoint holds that line"
    return {**out, "status": "broken",
            "detail": f"broken promise: the log promised {what} in a published checkpoint by {due}, and {where} "
                      f"({(now - promise.by).total_seconds():.1f} s past due)"}
