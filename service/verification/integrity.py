"""One stored game's integrity report: every check runs, none can crash the others, provenance beside them.

`verify_game` reads the game's rows once (stored_rows), then runs the hash chain, the fair deal,
the game's own evidence, optionally the replay under the current engine and the catalogue row,
each guarded: a check that fails on damaged data reports that, and the next check still runs.

Integrity (`ok`) and provenance are separate answers. `ok` is false when a stored row is damaged,
the chain breaks, the stored shuffles disagree with the revealed seed, the game's evidence fails,
the current engine would decide the game differently, or the catalogue row does not match the
game. `provenance` lists how the game came to be, which is no fault: a stacked deck, shuffles
fixed by a record, a seed or dealer chosen by the creator (an imported record shows its own).
"""

from __future__ import annotations

from typing import Any, Callable
from uuid import UUID

from domain.game import Game

from service.errors import NotFound
from service.play.application import Referee

from . import fast_verify
from .checks import chain_report_of, check_deal, check_evidence, reverify
from .report import catalogue_report, provenance, report_ok
from .stored_rows import read_game

_NO_ROW = object()


def check_catalogue(app: Referee, game_id: UUID, events: list, row: Any = _NO_ROW) -> dict:
    """Whether the game's catalogue row (projections.catalogue) is what the game's events make of it at the row's version
    (`row`: the row already read in bulk, None for none; else it is read here).

    A row not there yet (the catalogue catches up when it is read) is not a problem: `ok` is None.
    """
    from service.adapters.catalogue_store import Catalogue

    try:
        if row is _NO_ROW:
            row = Catalogue.for_app(app).get(game_id)
    except Exception as e:
        return {"ok": False, "problem": f"the catalogue row cannot be read ({type(e).__name__})"}
    if row is None:
        return {"ok": None, "problem": None}
    version = row.get("version")
    if isinstance(version, int) and version > len(events) and app.recorder.select_events(game_id, gt=len(events), limit=1):
        return {"ok": None, "problem": "the game moved on while it was checked"}
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= len(events):
        return {"ok": False, "problem": f"the catalogue row is at version {str(version)[:20]} but the game has "
                                        f"{len(events)} events"}
    return catalogue_report(row, _catalogue_events(events[:version]))


def _catalogue_events(events: list) -> list:
    """The events whose fold gives the same catalogue row as all of `events`: when the game holds only its Created,
    Happened and SeedRevealed events, a Happened event changes nothing but the version and chain head, which the
    last event sets anyway; so the fold needs the Created event, the SeedRevealed events and the last one."""
    kinds = (Game.Created, Game.Happened, Game.SeedRevealed)
    if len(events) < 3 or not all(type(e) in kinds and getattr(e, "originator_version", None) == i
                                  for i, e in enumerate(events, 1)):
        return events
    last = len(events) - 1
    return [e for i, e in enumerate(events) if i == 0 or i == last or type(e) is Game.SeedRevealed]


def _guarded(what: str, check: Callable[[], Any], fallback: dict) -> Any:
    try:
        return check()
    except NotFound:
        raise
    except Exception as e:  # damaged data a check could not digest: its own finding, and the next check still runs
        return {**fallback, "status": f"{what} could not be checked ({type(e).__name__})", "ok": False}


def verify_game(app: Referee, game_id: UUID, kept_head: str | None = None, kept_length: int | None = None,
                replay: bool = False, catalogue: bool = False, rows: Any = None) -> dict:
    """Every check of one stored game as one report (never raises, but NotFound for a game with no rows).

    `rows`: the game's rows read in bulk already (service.verification.bulk.GameRows), else each is read here; a game
    whose rows are plain is then checked in one pass (service.verification.fast_verify), any other takes the road below."""
    if rows is not None and kept_head is None and kept_length is None:
        fast = fast_verify.fast_report(app, game_id, rows, replay, catalogue)
        if fast is not None:
            return fast
    reading = read_game(app, game_id, rows.events, rows.snapshots) if rows is not None else read_game(app, game_id)
    if not reading.events and reading.unreadable is None:
        raise NotFound(f"no game with id {game_id}")
    events = reading.events
    created = events[0] if events and isinstance(events[0], Game.Created) else None
    out: dict = {"id": str(game_id), "game": getattr(created, "game", None)}
    attempt_rows = rows.attempts if rows is not None else None
    out["chain"] = _guarded("the chain", lambda: chain_report_of(app, game_id, reading, kept_head, kept_length, attempt_rows),
                            {"length": len(events), "head": "", "broken_at": None, "problem": "the chain could not be checked",
                             "problems": []})
    readable = reading.unreadable is None and created is not None
    if readable:
        out["deal"] = _guarded("the deal", lambda: check_deal(app, game_id, events),
                               {"fair": False, "consistent": False, "stacked": None, "shuffles": []})
        evidence = _guarded("the game's evidence", lambda: check_evidence(app, game_id, events), {"ok": False})
        if evidence is not None:
            out["evidence"] = evidence
    else:
        out["deal"] = {"fair": None, "consistent": None, "stacked": None, "shuffles": [],
                       "status": "not checked (stored events unreadable)"}
    if replay:
        intact = out["chain"].get("ok") is True and reading.aggregate is not None
        out["engine"] = _guarded("the replay", lambda: reverify(app, game_id, reading.aggregate),
                                 {"same": False, "differences": ["the replay could not run"]}) if intact else None
    if catalogue:
        bulk_row = () if rows is None else (rows.catalogue,)  # the row read in bulk, else check_catalogue reads it
        out["catalogue"] = _guarded("the catalogue row", lambda: check_catalogue(app, game_id, events, *bulk_row),
                                    {"problem": None}) \
            if readable else {"ok": None, "problem": "not checked (stored events unreadable)"}
    out["provenance"] = provenance(created) if isinstance(getattr(created, "game", None), str) else []
    out["ok"] = report_ok(out)
    if rows is not None:  # the chain heads the checkpoint check asks for, without reading the rows again
        rows.heads = reading.hashes
    return out
