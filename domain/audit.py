"""The hash chain of a game's stored events: every event carries the hash of its predecessor.

An event's hash covers its originator, version, class, timestamp and every field
(the secret seed excepted: the `Created` event commits to it through
`commitment`), plus `prev`. Changing, deleting, reordering or inserting a stored
event breaks the chain; truncation shows against a head hash kept by a player or
the referee.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable

GENESIS = ""
_SECRET_FIELDS = {"seed"}  # in Created only; revealed later by its own event


def _plain(value: Any) -> Any:
    """JSON for the few non-JSON values an event holds: timestamps and ids."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain).encode


def event_hash(event: Any) -> str:
    """The chain hash of one domain event (a `Game` event object)."""
    fields = dict(event.__dict__)
    for name in ("timestamp", "originator_id"):  # what _plain would write, without a call back from the encoder
        value = fields.get(name)
        if value is not None and not isinstance(value, (str, int, float, list, tuple, dict)):
            fields[name] = _plain(value)
    return fields_hash(fields, type(event).__qualname__)


def fields_hash(fields: dict, kind: str) -> str:
    """event_hash of an event given as its fields (a new dict the caller gives up; timestamp and id may be given as
    their text already) and its class's qualified name."""
    if kind.endswith("Created"):
        for secret in _SECRET_FIELDS:
            fields.pop(secret, None)
    fields["class"] = kind
    return hashlib.sha256(_encode(fields).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ChainReport:
    """The outcome of verifying a chain: ok, or the first version where it breaks and why."""

    ok: bool
    length: int
    head: str
    broken_at: int | None = None
    problem: str | None = None

    def as_dict(self) -> dict:
        """Simple types for the API and CLI."""
        return {"ok": self.ok, "length": self.length, "head": self.head, "broken_at": self.broken_at, "problem": self.problem}


def verify_chain(events: Iterable[Any], kept_head: str | None = None, kept_length: int | None = None,
                 hashes: list[str] | None = None) -> ChainReport:
    """Check versions run 1, 2, 3 ... and each `prev` is its predecessor's hash; optionally against a kept head.

    `hashes`: the hashes of the first events, where the caller has computed them already (the others are computed).

    A kept head (with the log length it was published at, if known) must be the hash of that
    event: a log shorter than what was published is truncated; a different hash means a change.
    """
    heads, version = [GENESIS], 0
    for event in events:
        version += 1
        if event.originator_version != version:
            return ChainReport(False, version - 1, heads[-1], version,
                               f"expected version {version}, found {event.originator_version} (an event was deleted, inserted or moved)")
        if getattr(event, "prev", None) != heads[-1]:
            return ChainReport(False, version - 1, heads[-1], version,
                               f"event {version} does not follow event {version - 1}: its recorded predecessor hash differs "
                               "(an event was changed, swapped or inserted)")
        heads.append(hashes[version - 1] if hashes is not None and version <= len(hashes) else event_hash(event))
    head = heads[-1]
    if kept_head is None:
        return ChainReport(True, version, head)
    if kept_length is not None:
        if kept_length > version:
            return ChainReport(False, version, head, version + 1,
                               f"the log ends at event {version} but {kept_length} events were published (truncated)")
        if heads[kept_length] != kept_head:
            return ChainReport(False, version, head, kept_length,
                               f"event {kept_length} differs from the head published at that length (changed)")
    elif kept_head not in heads:
        return ChainReport(False, version, head, None, "the kept head is not in this log (truncated or changed)")
    return ChainReport(True, version, head)
