"""The checks of a stored game, one at a time, for callers that want one answer (a receipt's chain, a view's
evidence, a test's deal): each runs the same check object the driver runs (service.verification.driver), over the
game's rows decoded by the detailed decoder or over events already loaded.

Every check works for any game: it reads the game's decider from the registry and never asks which game it is.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.utils import get_topic

from domain.game import Game
from domain.games import decider_for

from service.errors import NotFound

from .chain_check import chain_report
from .deal_check import DealCheck
from .decoded import DecodedGame
from .engine_check import reverify
from .evidence_check import EvidenceCheck
from .redecision import cut, redecide
from .stored_rows import read_game

__all__ = ["check_chain", "check_deal", "check_evidence", "game_ids", "reverify"]


def check_chain(app, game_id: UUID, kept_head: str | None = None, kept_length: int | None = None) -> dict:
    """Verify a game's stored hash chain (optionally against a head a player or referee kept), its rows and snapshots.

    Every stored row is decoded and checked on its own (service.verification.stored_rows): a row that no longer
    decodes, a field missing or of the wrong type, an event that cannot be applied, a snapshot that differs from
    its events — each is listed in `problems` at its version. `broken_at` and `problem` give the first
    break of the hash chain, else the first damage found. Raises NotFound only for a game with no rows.
    """
    decoded = read_game(app, game_id)
    if not decoded.rows and decoded.unreadable is None:
        raise NotFound(f"no game with id {game_id}")
    return chain_report(app, game_id, decoded, kept_head, kept_length)


def _decoded(app, game_id: UUID, events: list | None) -> DecodedGame:
    events = app.stored_events(game_id) if events is None else events
    if not events:
        raise NotFound(f"no game with id {game_id}")
    return DecodedGame.of_events(events)


def check_deal(app, game_id: UUID, events: list | None = None) -> dict:
    """The fair-deal check (contract §4, service.verification.deal_check) of a stored game (`events`: its events
    loaded already)."""
    decoded = _decoded(app, game_id, events)
    deal = DealCheck(decoded)
    if deal.start():
        decider = decider_for(deal.created.game)
        redecide(decider, deal.created, cut(decider, decoded.rows), deal.revealed, deal)
    return deal.report()


def check_evidence(app, game_id: UUID, events: list | None = None) -> dict | None:
    """The game's own evidence check where its spec declares one (service.verification.evidence_check): None for
    games without one, `ok` None until the seed is revealed (`events`: its events loaded already)."""
    decoded = _decoded(app, game_id, events)
    evidence = EvidenceCheck(decoded)
    if not evidence.start():
        return evidence.report()
    cutting = cut(evidence.decider, decoded.rows)
    return evidence.report(cutting.decoded, cutting.decode_error)


def game_ids(app) -> list[UUID]:
    """Every stored game's id, in creation order (from the notification log's Created events)."""
    topic = get_topic(Game.Created)
    ids, start = [], 0
    while True:
        batch = app.recorder.select_notifications(start=start, limit=500, topics=[topic], inclusive_of_start=False)
        if not batch:
            return ids
        ids.extend(n.originator_id for n in batch)
        start = batch[-1].id
