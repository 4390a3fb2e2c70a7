"""A game's refused attempts as a checkpoint signs them (`attempts`: how many, `attempts_head`: their chain's head after
the last), read from the store, and the store's refused attempts held against a checkpoint (docs/evidence.md)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.attempts import attempts_id
from domain.audit import event_hash

from .checkpoints import FORMAT, NO_ATTEMPTS


def stored_head(app: Any, game_id: UUID) -> tuple[int, str]:
    """(refused attempts, head of their chain) as the store holds them now: one read of the stream's last row."""
    rows = app.recorder.select_events(attempts_id(game_id), desc=True, limit=1)
    if not rows:
        return NO_ATTEMPTS
    return rows[0].originator_version - 1, event_hash(app.mapper.to_domain_event(rows[0]))  # entry 1 opens the stream


def stored_count(app: Any, game_id: UUID) -> int:
    """How many refused attempts the store holds of a game: one read of the stream's last row, nothing decoded."""
    rows = app.recorder.select_events(attempts_id(game_id), desc=True, limit=1)
    return rows[0].originator_version - 1 if rows else 0


def attempts_finding(app: Any, game_id: UUID, cp: dict, rows: list | None = None) -> tuple[str, str, dict] | None:
    """(finding, status, {stored, signed}) when the store's refused attempts fall short of, or differ from, those
    checkpoint `cp` signed; None when they match (or `cp` signed none, or is of format /1, which signs none).
    `rows`: the attempts stream's stored rows read in bulk already."""
    signed = cp.get("attempts", 0) if cp.get("format") == FORMAT else 0
    if not signed:
        return None
    if rows is None:
        rows = app.recorder.select_events(attempts_id(game_id))
    stored = rows[-1].originator_version - 1 if rows else 0
    counts = {"stored": stored, "signed": signed}
    if stored < signed:
        gone = (f"refused attempt {signed} is gone" if stored + 1 == signed else
                f"refused attempts {stored + 1} to {signed} are gone")
        if stored == 0:
            gone = f"all its {signed} refused attempt(s) are gone"
        return "truncated", (f"refused attempts truncated or rolled back: the store holds {stored} refused attempt(s) "
                             f"of this game, but checkpoint {cp['seq']} signed {signed} at {cp['at']}: {gone}"), counts
    row = next((r for r in rows if r.originator_version == signed + 1), None)
    try:
        head = event_hash(app.mapper.to_domain_event(row)) if row is not None else None
    except Exception:  # noqa: BLE001 - an unreadable row has no head: the chain check names it
        head = None
    if head != cp["attempts_head"]:
        return "rewritten", (f"refused attempts rewritten: the store's head of refused attempt {signed} differs from "
                             f"the one checkpoint {cp['seq']} signed at {cp['at']}"), counts
    return None
