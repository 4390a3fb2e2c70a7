"""One stored game's integrity report: one driver runs every check over the game's decoded rows, in one pass.

The rows come from one of two row decoders with one interface (service.verification.decoded): the plain decoder
(service.verification.plain_rows) for the common game read in bulk, the detailed decoder
(service.verification.stored_rows) for every other game and for a game checked on its own. The driver then runs
the checks, each written once:

- the chain (service.verification.chain_check): the hash chain, every damage the decoder found (a row that does not
  decode or fit its class, an event that cannot be applied, a snapshot that is not the game), the refused attempts;
- the re-decision pass (service.verification.redecision), one pass over the game's decisions that serves the fair
  deal (deal_check: each random step against the revealed seed), the game's own evidence (evidence_check: from the
  same decoded events) and, for a plain game, the engine (engine_check.EngineLine) and its snapshots
  (snapshot_line.SnapshotLine; the detailed decoder compares snapshots as it folds the game);
- optionally the engine (engine_check: the line the pass followed, or a replay of the game's record) and the
  catalogue row (catalogue_check);
- provenance, and the verdict (service.verification.report).

Each check is guarded: a check that fails on damaged data reports that, and the next check still runs. The plain
decoder vouches only for games every check finds intact; anything else it meets (a row that is not plain, a check
that fails, the engine parting from the store) raises NotPlain, and the game is decoded again by the detailed
decoder, whose report names the problem. So a report never depends on which decoder read the game
(tests/unit/test_verify_decoders_agree.py holds the two to that over every registered game and option).

Integrity (`ok`) and provenance are separate answers. `ok` is false when a stored row is damaged, the chain breaks,
the stored shuffles disagree with the revealed seed, the game's evidence fails, the current engine would decide the
game differently, or the catalogue row does not match the game. `provenance` lists how the game came to be, which
is no fault: a stacked deck, shuffles fixed by a record, a seed or dealer chosen by the creator (an imported record
shows its own).
"""

from __future__ import annotations

from typing import Any, Callable
from uuid import UUID

from domain.games import decider_for

from service.errors import NotFound

from .catalogue_check import check_catalogue
from .chain_check import chain_report
from .deal_check import FALLBACK as DEAL_FALLBACK, DealCheck
from .decoded import DecodedGame, NotPlain
from .engine_check import EngineLine, reverify
from .evidence_check import EvidenceCheck
from .plain_rows import PLAIN
from .redecision import cut, redecide
from .report import provenance, report_ok
from .snapshot_line import SnapshotLine
from .stored_rows import DETAILED

_CHAIN_FALLBACK = {"head": "", "broken_at": None, "problem": "the chain could not be checked", "problems": []}


def verify_game(app: Any, game_id: UUID, kept_head: str | None = None, kept_length: int | None = None,
                replay: bool = False, catalogue: bool = False, rows: Any = None) -> dict:
    """Every check of one stored game as one report (never raises, but NotFound for a game with no rows).

    `replay` adds the engine's check, `catalogue` the catalogue row's. `rows`: the game's rows read in bulk already
    (service.verification.bulk.GameRows), else each is read here; a game read in bulk and checked against no kept head
    is offered to the plain decoder first (`plain_report`)."""
    if rows is not None and kept_head is None and kept_length is None:
        report = plain_report(app, game_id, rows, replay, catalogue)
        if report is not None:
            return report
    return _report(app, game_id, DETAILED.decode(app, game_id, rows), kept_head, kept_length, replay, catalogue, rows)


def plain_report(app: Any, game_id: UUID, rows: Any, replay: bool, catalogue: bool) -> dict | None:
    """verify_game's report of a game the plain decoder takes and every check finds intact, else None."""
    try:
        return _report(app, game_id, PLAIN.decode(app, game_id, rows), None, None, replay, catalogue, rows)
    except Exception:  # NotPlain, or data the plain decoder does not vouch for: the detailed decoder's turn
        return None


def detailed_report(app: Any, game_id: UUID, rows: Any, replay: bool, catalogue: bool) -> dict:
    """verify_game's report through the detailed decoder, whichever game it is (`rows` as for plain_report)."""
    return _report(app, game_id, DETAILED.decode(app, game_id, rows), None, None, replay, catalogue, rows)


def _report(app: Any, game_id: UUID, decoded: DecodedGame, kept_head: str | None, kept_length: int | None,
            replay: bool, catalogue: bool, rows: Any) -> dict:
    if not decoded.rows and decoded.unreadable is None:
        raise NotFound(f"no game with id {game_id}")
    guarded = _strict if decoded.plain else _guarded
    created = decoded.created
    out: dict = {"id": str(game_id), "game": getattr(created, "game", None)}
    attempt_rows = rows.attempts if rows is not None else None
    out["chain"] = guarded("the chain", lambda: chain_report(app, game_id, decoded, kept_head, kept_length, attempt_rows),
                           {"length": len(decoded.rows), **_CHAIN_FALLBACK})
    if decoded.plain and out["chain"]["ok"] is not True:
        raise NotPlain
    readable = decoded.unreadable is None and created is not None
    line = None
    if readable:
        line, deal, evidence = _checks_in_one_pass(decoded, guarded)
        out["deal"] = deal
        if evidence is not None:
            out["evidence"] = evidence
    else:
        out["deal"] = {"fair": None, "consistent": None, "stacked": None, "shuffles": [],
                       "status": "not checked (stored events unreadable)"}
    if line is not None and not replay and line.departed:
        raise NotPlain
    if replay:
        if line is not None:
            out["engine"] = line.report(game_id)
        else:
            intact = out["chain"].get("ok") is True and decoded.aggregate is not None
            out["engine"] = guarded("the replay", lambda: reverify(app, game_id, decoded.aggregate),
                                    {"same": False, "differences": ["the replay could not run"]}) if intact else None
    if catalogue:
        bulk_row = () if rows is None else (rows.catalogue,)  # the row read in bulk, else check_catalogue reads it
        out["catalogue"] = guarded("the catalogue row", lambda: check_catalogue(app, game_id, decoded, *bulk_row),
                                   {"problem": None}) \
            if readable else {"ok": None, "problem": "not checked (stored events unreadable)"}
    out["provenance"] = provenance(created) if isinstance(getattr(created, "game", None), str) else []
    out["ok"] = report_ok(out)
    if rows is not None:  # the chain heads the checkpoint check asks for, without reading the rows again
        rows.heads = decoded.hashes
    return out


def _checks_in_one_pass(decoded: DecodedGame, guarded: Callable) -> tuple[Any, dict, dict | None]:
    """The deal's and the evidence's reports from one cut of the rows and one re-decision, and (for a plain game) the
    engine's line (EngineLine) that followed the same pass."""
    rows = decoded.rows
    deal = guarded("the deal", lambda: _started(DealCheck(decoded)), DEAL_FALLBACK)
    evidence = guarded("the game's evidence", lambda: _started(EvidenceCheck(decoded)), {"ok": False})
    dealing = isinstance(deal, DealCheck) and not deal.done
    proving = isinstance(evidence, EvidenceCheck) and evidence.start()
    line = None
    if dealing or proving or decoded.plain:
        try:
            decider = decider_for(decoded.created.game)
            cutting = cut(decider, rows)
        except Exception as e:
            if decoded.plain:
                raise
            cutting, decider = e, None
        lines: tuple = ()
        if decoded.plain:
            line = EngineLine(decider, decoded.created, deal.revealed, len(cutting.decisions))
            lines = (line, SnapshotLine(decoded.created, decider, decoded.hashes, decoded.snapshots)) \
                if decoded.snapshots else (line,)
        if dealing or lines:
            deal = guarded("the deal", lambda: _redecided(deal, decider, decoded.created, cutting, lines), DEAL_FALLBACK)
        if proving:
            evidence = guarded("the game's evidence", lambda: _proved(evidence, cutting), {"ok": False})
    if isinstance(deal, DealCheck):
        deal = guarded("the deal", deal.report, DEAL_FALLBACK)
    if isinstance(evidence, EvidenceCheck):
        evidence = guarded("the game's evidence", evidence.report, {"ok": False})
    return line, deal, evidence


def _started(check: Any) -> Any:
    check.start()
    return check


def _redecided(deal: DealCheck, decider: Any, created: Any, cutting: Any, lines: tuple) -> DealCheck:
    if isinstance(cutting, Exception):
        raise cutting
    redecide(decider, created, cutting, deal.revealed, deal if not deal.done else None, lines)
    for line in lines:
        if isinstance(line, SnapshotLine):
            line.finish()
    return deal


def _proved(evidence: EvidenceCheck, cutting: Any) -> dict | None:
    if isinstance(cutting, Exception):
        raise cutting
    return evidence.report(cutting.decoded, cutting.decode_error)


def _guarded(what: str, check: Callable[[], Any], fallback: dict) -> Any:
    try:
        return check()
    except NotFound:
        raise
    except Exception as e:  # damaged data a check could not digest: its own finding, and the next check still runs
        return {**fallback, "status": f"{what} could not be checked ({type(e).__name__})", "ok": False}


def _strict(what: str, check: Callable[[], Any], fallback: dict) -> Any:
    """A plain game's checks are not guarded: whatever fails is the detailed decoder's to report."""
    return check()
