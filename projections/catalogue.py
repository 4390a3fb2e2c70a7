"""The game catalogue: one row per game, a materialised read model kept next to the events.

Rows (``Catalogue.get`` / ``Catalogue.list`` give them as dicts)::

    id           the game's UUID, as a string
    game         the game id (domain.games)
    options      the game's options object as given at creation (its spec's options: an edition, variants, ...)
    players      the players list of the game's set-up: [{"name": ..., "team": ...?}, ...]
    status       "in_progress" or "finished"
    result       "win", "elimination", "draw" or None while in progress
    winner       {"seats": [...], "team": str | None}, or None (in progress, or a draw)
    scores       the final score of each seat (a list, seat order) where the game keeps one (chips, points), else None
    created_at   UTC ISO 8601 timestamp of the game's Created event
    finished_at  UTC ISO 8601 timestamp of the event that ended it, or None
    version      the game's latest version (the number of stored events)
    chain_head   domain.audit.event_hash of the game's latest event
    stacked      whether the deck was fixed by the creator
    imported     whether the game was made from an uploaded record (POST /records, `arbiter import`): its Created
                 event's `imported` (a game stored before that field existed shows as not imported)
    disputes     how many entries the game's disputes hold: the seats' disputes and the clock's automatic flags
                 (domain.disputes: the one definition every page counts by)
    open_disputes  how many of them await a ruling
    integrity    what the latest verification run found (written by ``Catalogue.mark``, never by the fold):
                 {"ok", "version", "checked_at", "problem"}, or None when the game was never verified

The fold (``evolve``) is pure: one game's row after one of its events. What ends a game is the generic
``SeedRevealed`` event, which carries the outcome (result, winner, scores) for any game; a ``Rewound`` event takes
the game back to the outcome of the state it restores (normally in progress again). No game's own event kinds are
read here. Where the rows are kept, how the notification log is pulled and tracked, and the desk's queries are
service/adapters/catalogue_store.py.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from domain import disputes as dispute_kinds
from domain.audit import event_hash
from domain.game import Chained, Game
from domain.games import spec_for

log = logging.getLogger("arbiter.catalogue")
COLUMNS = ("id", "game", "options", "players", "status", "result", "winner", "scores", "created_at", "finished_at",
           "version", "chain_head", "stacked", "imported", "disputes", "open_disputes")

Row = dict[str, Any]


def _utc_iso(ts: datetime) -> str:
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.astimezone(timezone.utc).isoformat()


def game_id_of(event: Any) -> str | None:
    """The game a decoded event belongs to, or None for events of other aggregates."""
    if isinstance(event, (Game.Created, Chained)):
        return str(event.originator_id)
    return None


def evolve(row: Row | None, event: Any, seq: int) -> Row | None:
    """The catalogue row of a game after one of its events (a new dict; `row` is not changed).

    `seq` is the event's notification id. Events of other aggregates, events of a game whose
    Created event was never seen, and events not newer than the row are ignored (`row` returned).
    """
    if isinstance(event, Game.Created):
        if row is not None:
            return row
        return {"id": str(event.originator_id), "seq": seq, "game": event.game,
                "options": copy.deepcopy(dict(event.options or {})), "players": [dict(p) for p in event.players],
                "status": "in_progress", "result": None, "winner": None, "scores": None,
                "created_at": _utc_iso(event.timestamp), "finished_at": None,
                "version": event.originator_version, "chain_head": event_hash(event), "stacked": bool(event.stacked),
                "imported": getattr(event, "imported", False) is True, "disputes": 0, "open_disputes": 0}
    if row is None or not isinstance(event, Chained) or event.originator_version <= row["version"]:
        return row
    new = dict(row)
    new["version"] = event.originator_version
    new["chain_head"] = event_hash(event)
    if isinstance(event, Game.SeedRevealed):
        new.update(status="finished", result=event.result, winner=copy.deepcopy(event.winner),
                   scores=None if event.scores is None else list(event.scores), finished_at=_utc_iso(event.timestamp))
    elif dispute_kinds.opens(event):  # a seat's dispute or the clock's flag (domain.disputes): both count
        new.update(disputes=row["disputes"] + 1, open_disputes=row["open_disputes"] + 1)
    elif isinstance(event, dispute_kinds.RULED_BY):
        new["open_disputes"] = max(0, row["open_disputes"] - 1)
    elif isinstance(event, Game.PlayerNamed):
        players = [dict(p) for p in row["players"]]
        players[event.seat]["name"] = event.name
        new["players"] = players
    elif isinstance(event, Game.Rewound):
        spec = spec_for(row["game"])
        outcome = spec.decider.outcome(spec.codec.load_state(event.state))
        if outcome.is_over:
            new.update(status="finished", result=outcome.result, winner=outcome.winner_json(),
                       scores=None if outcome.scores is None else list(outcome.scores),
                       finished_at=row["finished_at"] or _utc_iso(event.timestamp))
        else:
            new.update(status="in_progress", result=None, winner=None, scores=None, finished_at=None)
    return new


def fold_batch(batch: Sequence[tuple[int, Any]], load: Callable[[str], Row | None],
               before_each: Callable[[int], None]) -> dict[str, Row]:
    """Fold (notification id, event) pairs; `load` reads a stored row; returns the rows to write."""
    rows: dict[str, Row] = {}
    for nid, event in batch:
        before_each(nid)
        gid = game_id_of(event)
        if gid is None:
            continue
        row = rows[gid] if gid in rows else load(gid)
        try:
            new = evolve(row, event, nid)
        except Exception:  # a damaged event (arbiter verify reports it): the row stays as it was
            log.warning("catalogue: notification %s of game %s cannot be applied", nid, gid)
            continue
        if new is not None and new is not row:
            rows[gid] = new
    return rows


def integrity_of(report: dict, version: int | None, checked_at: str) -> dict:
    """What `mark` keeps of a verification report: its verdict, the version checked, when, and the first problem."""
    problem = None
    if not report.get("ok"):
        for part in ("chain", "checkpoint", "deal", "evidence", "engine", "catalogue"):
            found = report.get(part) or {}
            text = found.get("problem") or found.get("status")
            if found.get("ok") is False or found.get("consistent") is False or found.get("same") is False:
                problem = f"{part}: {text}" if text else part
                break
    return {"ok": bool(report.get("ok")), "version": version, "checked_at": checked_at,
            "problem": (problem or "a check failed")[:300] if not report.get("ok") else None}
