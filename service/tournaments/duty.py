"""Tournaments' part of the duty loop (service/duty.py): whichever server process holds a tournament's lease creates
its games when they fall due (a table's next game, the next round of an `auto_rounds` tournament, the end).

`Tournaments.advance` does what is due and only that, in the process that holds the lease (any process takes it when
it is free): a game's end seen by two hosts starts one next round, and a host that saw the end and died before
creating it leaves the work to the next holder, which looks at every tournament it takes the lease of. The loop's
first round reads the tournaments' own events (by topic) and keeps those not finished, with their games; from then
on a tournament is looked at when one of its games ends (its `SeedRevealed` event), or when this process has just
taken its lease; a move that ends nothing costs the tournament nothing.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from domain.game import Game
from domain.tournament.aggregate import Tournament

from service.adapters.leases import Leases

log = logging.getLogger("arbiter.tournaments")


def topic_of(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


GAME_STARTED, FINISHED, DELETED = (topic_of(Tournament.GameStarted), topic_of(Tournament.Finished),
                                   topic_of(Tournament.Deleted))
ENDED = (FINISHED, DELETED)  # nothing more to create there: finished, or deleted before round 1
CREATED = topic_of(Tournament.Created)
TOPICS = (CREATED, topic_of(Tournament.RoundStarted), GAME_STARTED, *ENDED)
GAME_ENDED = topic_of(Game.SeedRevealed)  # a game's last event: the seed is revealed once it is over


class TournamentDuty:
    """The tournaments not yet over, their games, and which of them to look at next."""

    topics = TOPICS

    def __init__(self, tournaments: Any):
        self.tournaments = tournaments  # service.tournaments.facade.Tournaments
        self.live: set[UUID] = set()
        self.tournament_of: dict[UUID, UUID] = {}  # a live tournament's game -> the tournament
        self.dirty: set[UUID] = set()
        self.over: set[UUID] = set()  # finished since the last round: their leases are given back

    def notice(self, n: Any) -> None:
        tid = n.originator_id
        if n.topic in ENDED:
            self.live.discard(tid)
            self.over.add(tid)
            self.tournament_of = {g: t for g, t in self.tournament_of.items() if t != tid}
        elif n.topic in TOPICS:
            if n.topic == GAME_STARTED:
                event = self.tournaments.app.mapper.to_domain_event(n)
                self.tournament_of[UUID(event.game_id)] = tid
            self.live.add(tid)
            self.dirty.add(tid)
        elif n.topic == GAME_ENDED and tid in self.tournament_of:
            self.dirty.add(self.tournament_of[tid])  # a move that does not end a game creates nothing

    def act(self, leases: Leases, claim: bool) -> None:
        if claim:
            self.dirty |= leases.acquire(self.live - leases.held)  # a lease just taken: what is due there now?
        for tid in [t for t in self.dirty if t in leases.held]:
            self.dirty.discard(tid)
            try:
                self.tournaments.advance(tid)
            except Exception:  # noqa: BLE001 - one damaged tournament never stops the others
                log.exception("tournament %s could not advance", tid)
        for tid in self.over & leases.held:
            leases.release(tid)  # over: nothing more to create
        self.over.clear()
