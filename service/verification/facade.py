"""Checking stored games, in simple types: one game's whole report (its rows, chain, latest signed checkpoint, deal,
evidence, and with `full` the replay and the catalogue row), the verdict kept on its catalogue row, every game's id."""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any, Callable
from uuid import UUID

from projections.catalogue import integrity_of

from service.access import Access, parse_game_id
from service.adapters.catalogue_store import Catalogue
from service.bounds import position
from service.errors import NotFound
from service.evidence.facade import Evidence
from service.store.application import Store

from .checks import game_ids, reverify
from .driver import verify_game
from .report import report_ok


class VerificationFacade:
    """The checks of a store's games against their rows, the engine, the catalogue and the checkpoint log."""

    def __init__(self, app: Store, evidence: Evidence, catalogue: Callable[[], Catalogue], access: Access | None = None):
        self.app = app
        self.evidence = evidence
        self.catalogue = catalogue  # the catalogue caught up (service.views.lobby.LobbyFacade.caught_up)
        self.access = access or Access(app)

    def checks(self, game_id: Any, token: str | None, kept_head: str | None = None,
               kept_length: int | None = None) -> dict:
        """`verify` as the token's viewer may read it (GET /games/{id}/audit/verify, the audit page): a game whose
        end is still withheld from it (service.access.Access.withheld) shows its deal check as pending, no seed."""
        viewer = self.access.viewer(game_id, token)
        out = self.verify(game_id, kept_head, kept_length)
        deal = out.get("deal")
        if isinstance(deal, dict) and deal.get("seed") and self.access.withheld(game_id, viewer, True):
            out["deal"] = {**deal, "seed": None, "shuffles": [], "fair": None, "consistent": None,
                           "status": "pending: the seed is revealed when every table of this duplicate board is over"}
            if out.get("evidence") is not None:
                out["evidence"] = {"ok": None, "status": out["deal"]["status"]}
        return out

    def verify(self, game_id: Any, kept_head: str | None = None, kept_length: int | None = None, full: bool = False,
               rows: Any = None, log_report: Any = None, marks: list | None = None) -> dict:
        """Check a stored game: its rows and hash chain (optionally against a kept head), its latest signed checkpoint,
        its fair deal and evidence; `full` adds the replay under the current engine and the catalogue row.

        Never raises for a damaged game: `ok` says whether every integrity check passed, `provenance` how the game
        was set up (service.verification.driver). A store that ends before, or differs at, the version a checkpoint
        signed breaks the chain's verdict too; a game the log knows but the store lost is reported as deleted.
        `rows` and `log_report`: the game's rows and the checkpoint log's report read in bulk (service.verification.bulk);
        `marks`: a list the report is added to instead of keeping its verdict on the catalogue row right away, for the
        caller to keep many at once (`mark_verified`).
        """
        gid = parse_game_id(game_id)
        if kept_length is not None:
            position(kept_length, "length")
        try:
            out = verify_game(self.app, gid, kept_head, kept_length, replay=full, catalogue=full, rows=rows)
        except NotFound:
            checkpoint = self.evidence.check_game(gid, None, log_report)
            if checkpoint["finding"] not in ("deleted", "lost"):
                raise
            return deleted_report(gid, checkpoint)
        chain = out["chain"]
        checkpoint = self.evidence.check_game(gid, chain, log_report, getattr(rows, "heads", None),
                                              getattr(rows, "attempts", None))
        if checkpoint["finding"] in ("truncated", "rewritten") and chain.get("ok"):
            broken_at = None if "attempts" in checkpoint else min(chain["length"] + 1, checkpoint["checkpoint"]["version"])
            out["chain"] = {**chain, "ok": False, "broken_at": broken_at, "problem": checkpoint["status"]}
        out["checkpoint"] = checkpoint
        out["ok"] = report_ok(out) and checkpoint["ok"] is not False
        if marks is None:
            self._mark_verified(gid, out)
        else:
            marks.append(out)
        return out

    def _mark_verified(self, gid: UUID, report: dict) -> None:
        """Keep the verdict on the game's catalogue row, so that the desk filters on it without verifying anything.
        A catalogue that cannot take it (a damaged store) leaves the report as it is: the report is the verdict."""
        try:
            mark = integrity_of(report, report["chain"].get("length"), datetime.now(timezone.utc).isoformat())
            self.catalogue().mark(gid, mark)
        except Exception as e:  # noqa: BLE001 - the verification's answer never depends on the catalogue's write
            logging.getLogger("arbiter.catalogue").warning("verification of %s not kept on the catalogue (%s)",
                                                           gid, type(e).__name__)

    def mark_verified(self, reports: list[dict]) -> None:
        """Keep the verdicts of the reports `verify(..., marks=...)` set aside on their catalogue rows, in one
        transaction (one catch-up first); where that fails, game by game as `verify` does."""
        if not reports:
            return
        try:
            at = datetime.now(timezone.utc).isoformat()
            self.catalogue().mark_many([(r["id"], integrity_of(r, r["chain"].get("length"), at)) for r in reports])
        except Exception:  # noqa: BLE001 - each game's own write, and its own warning, below
            for report in reports:
                self._mark_verified(parse_game_id(report["id"]), report)

    def game_ids(self) -> list[str]:
        """Every stored game's id, in creation order, then those the checkpoint log knows and the store lost."""
        stored = [str(g) for g in game_ids(self.app)]
        known = set(stored)
        return stored + [g for g in self.evidence.logged_games() if g not in known]

    def count_events(self) -> int:
        """The number of rows in the store's log (events of games and of refused attempts): what a full pass reads
        (`arbiter verify --all`'s progress bar)."""
        try:
            return int(self.app.recorder.max_notification_id() or 0)
        except Exception:  # noqa: BLE001 - a recorder without a notification log: progress shows games only
            return 0

    def reverify(self, game_id: Any) -> dict:
        """Replay a stored game's moves under the current engine: does its outcome stay the same?"""
        return reverify(self.app, parse_game_id(game_id))


def deleted_report(gid: UUID, checkpoint: dict) -> dict:
    """The verification report of a game the checkpoint log knows and the store no longer holds."""
    signed = checkpoint["checkpoint"]  # None: no line of it is left, a gone line's successor named it
    chain = {"ok": False, "length": 0, "head": "", "broken_at": 1, "problem": checkpoint["status"], "problems": []}
    deal = {"commitment": None, "seed": None, "stacked": None, "seed_given": None, "fixed_outcomes": [], "shuffles": [],
            "fair": None, "consistent": None,
            "status": "not checked: the game is gone" + (f" (it was at version {signed['version']} or later)" if signed
                                                          else " (only a line of the log that is gone signed it)")}
    return {"id": str(gid), "game": None, "ok": False, "chain": chain, "deal": deal, "checkpoint": checkpoint,
            "engine": None, "provenance": []}
