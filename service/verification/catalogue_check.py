"""The catalogue check: whether a game's catalogue row (projections.catalogue) is what its events make of it at the
row's version."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.game import Game

from .decoded import DecodedGame
from .report import catalogue_report

NO_ROW = object()  # the row was not read in bulk: the check reads it


def check_catalogue(app: Any, game_id: UUID, decoded: DecodedGame, row: Any = NO_ROW) -> dict:
    """The catalogue row's report (`decoded`: the game's decoded rows; `row`: its catalogue row read in bulk already,
    None for none, else it is read here). A row not there yet (the catalogue catches up when it is read) is no
    problem: `ok` is None."""
    rows = decoded.rows
    from service.adapters.catalogue_store import Catalogue

    try:
        if row is NO_ROW:
            row = Catalogue.for_app(app).get(game_id)
    except Exception as e:
        return {"ok": False, "problem": f"the catalogue row cannot be read ({type(e).__name__})"}
    if row is None:
        return {"ok": None, "problem": None}
    version = row.get("version")
    if isinstance(version, int) and version > len(rows) and app.recorder.select_events(game_id, gt=len(rows), limit=1):
        return {"ok": None, "problem": "the game moved on while it was checked"}
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= len(rows):
        return {"ok": False, "problem": f"the catalogue row is at version {str(version)[:20]} but the game has "
                                        f"{len(rows)} events"}
    return catalogue_report(row, catalogue_events(rows[:version], decoded.plain, decoded.first_reveal))


_KINDS = {Game.Created, Game.Happened, Game.SeedRevealed}


def catalogue_events(rows: list, plain: bool = False, first_reveal: int | None = None) -> list:
    """The events whose fold gives the same catalogue row as all of `rows`' events: when the game holds only its
    Created, Happened and SeedRevealed events, a Happened event changes nothing but the version and chain head, which
    the last event sets anyway; so the fold needs the Created event, the SeedRevealed events and the last one.
    (`plain`: rows of the plain decoder, which holds only those events, at versions 1..n; `first_reveal`: the index of
    the first SeedRevealed row, where the search for them starts.)"""
    if len(rows) < 3 or not plain and (not {r.kind for r in rows} <= _KINDS
                                       or [r.version for r in rows] != list(range(1, len(rows) + 1))):
        return [r.event for r in rows]
    last = len(rows) - 1
    middle = rows[max(1, last if first_reveal is None else first_reveal):last]
    return [rows[0].event] + [r.event for r in middle if r.kind is Game.SeedRevealed] + [rows[last].event]
