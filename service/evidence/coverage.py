"""What the published checkpoints cover, for `arbiter verify --all` (docs/evidence.md, "The maximum merge delay"): for
each game, the newest thing the store holds (a version, a refused attempt) that no published checkpoint covers, how
long ago it was acknowledged, and whether such a thing is past the maximum merge delay (a finding: the log broke the
promise it handed out with it).

Only what was acknowledged since the log's first `mmd` line is held to the delay: a store served before the maximum
merge delay came holds games whose last moves no line covers, and no promise was handed out for them (they are named,
not found). A log with no `mmd` line at all holds nothing to the delay (its server never covered a game: a server
from before, or one whose seats' promises are the only witnesses)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

from domain.attempts import attempts_id

from .transparency import leaf_fields


def published_coverage(lines: list[bytes]) -> dict[str, tuple[int, int]]:
    """game -> (highest version, most refused attempts) the lines sign (the lines of the latest published tree)."""
    out: dict[str, tuple[int, int]] = {}
    for raw in lines:
        fields = leaf_fields(raw)
        if fields is not None:
            game, version, attempts = fields
            had = out.get(game, (0, 0))
            out[game] = (max(had[0], version), max(had[1], attempts))
    return out


def promised_since(lines: list[bytes]) -> str | None:
    """The time of the log's first line of reason `mmd` (from when every acknowledgement carried a promise), or None."""
    from domain import json_limits

    for raw in lines:
        if b'"reason":"mmd"' in raw:
            try:
                return json_limits.read_document(raw)["at"]
            except (ValueError, KeyError, TypeError):
                continue
    return None


def _acknowledged(app: Any, stream: UUID, version: int) -> datetime | None:
    """When the stored entry `version` of a stream was recorded (its event's time), or None when unreadable."""
    try:
        rows = app.recorder.select_events(stream, gt=version - 1, lte=version)
        at = app.mapper.to_domain_event(rows[0]).timestamp
    except Exception:  # noqa: BLE001 - an unreadable row: the chain check names it
        return None
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def uncovered(app: Any, game_id: UUID, length: int, attempts: int, covered: tuple[int, int] | None, mmd: float,
              now: datetime | None = None, since: str | None = None) -> dict | None:
    """The game's newest stored thing no published checkpoint covers, or None when they cover everything:
    {newest, acknowledged, seconds_ago, oldest, oldest_seconds_ago, mmd, past_mmd}. `length`: its stored versions;
    `attempts`: its stored refused attempts; `covered`: (version, attempts) the published lines sign of it; `since`:
    when promises began (promised_since; None: nothing is held to the delay)."""
    now = now or datetime.now(timezone.utc)
    version_done, attempts_done = covered or (0, 0)
    things = []  # (acknowledged, what, oldest acknowledged of its kind)
    if length > version_done:
        things.append((_acknowledged(app, game_id, length), f"version {length}",
                       _acknowledged(app, game_id, version_done + 1), f"version {version_done + 1}"))
    if attempts > attempts_done:
        stream = attempts_id(game_id)  # entry n + 1 of the stream is refused attempt n
        things.append((_acknowledged(app, stream, attempts + 1), f"refused attempt {attempts}",
                       _acknowledged(app, stream, attempts_done + 2), f"refused attempt {attempts_done + 1}"))
    if not things:
        return None
    far = datetime.min.replace(tzinfo=timezone.utc)
    newest = max(things, key=lambda t: t[0] or far)
    oldest = min(things, key=lambda t: t[2] or now)
    age = (now - newest[0]).total_seconds() if newest[0] else None
    oldest_age = (now - oldest[2]).total_seconds() if oldest[2] else None
    start = datetime.fromisoformat(since) if since else None

    def late(at: datetime | None, seconds: float | None) -> bool:  # promised (acknowledged since), and past the delay
        return start is not None and at is not None and at >= start and seconds is not None and seconds > mmd

    return {"newest": newest[1], "acknowledged": newest[0].isoformat() if newest[0] else None,
            "seconds_ago": None if age is None else round(age, 3), "oldest": oldest[3],
            "oldest_seconds_ago": None if oldest_age is None else round(oldest_age, 3), "mmd": mmd,
            "past_mmd": late(oldest[2], oldest_age) or late(newest[0], age)}
