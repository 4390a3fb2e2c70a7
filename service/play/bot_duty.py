"""Playing the recorded bot seats (service/play/bot_seats.py) of the games whose lease this process holds: the bot
seats' part of the duty loop (service/duty.py).

The loop's first round reads every bot seat ever recorded (their events alone, by topic) and keeps the games where
a bot still plays; from then on it follows the news. A game is looked at only when something happened to it (a
notification of the game or of its bot seats), or when this process has just taken its lease: a host with hundreds
of games with bots reads nothing of a game nobody moves in. Looking at a game: when a bot's seat has legal moves,
the bot chooses and plays it as that seat (`PlayFacade.as_seat`, with `expected_version`), up to MOVES_PER_ROUND
moves, then the next game; a game that is over releases its bots and its lease.

A refused move (the rules said no) counts against the bot; after MAX_FAILURES refusals in a row its seat is
released. A move that lost a race (someone moved first, 409) is no refusal: the bot looks again.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any
from uuid import UUID

from bots import SeatView, make_bot
from domain.bot_seats import GAME_OVER, BotSeats
from domain.games import spec_for

from service.adapters.leases import Leases
from service.errors import Conflict, ServiceError

from .bot_budget import SLOW, BotBudget, Limits
from .commands import PlayMove

MAX_FAILURES = 3
MOVES_PER_ROUND = 50
log = logging.getLogger("arbiter.bots")


def topic_of(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


CREATED, SEATED, RELEASED = (topic_of(c) for c in (BotSeats.Created, BotSeats.Seated, BotSeats.Released))
SEATS_TOPICS = (CREATED, SEATED, RELEASED)


class BotDuty:
    """The bots this process plays: games with bot seats, the leases it holds of them, each seat's bot."""

    topics = SEATS_TOPICS

    def __init__(self, play: Any):
        self.play = play  # service.play.facade.PlayFacade
        self.games: dict[UUID, dict[int, str]] = {}  # games where a bot plays -> {seat: bot kind}
        self.game_of: dict[UUID, UUID] = {}  # every bot seats' aggregate id seen -> its game
        self.known: set[UUID] = set()  # those games
        self.dirty: set[UUID] = set()
        self.bots: dict[tuple[UUID, int], tuple[str, Any]] = {}  # each seat's bot, made once here
        self.failures: dict[tuple[UUID, int], int] = {}
        self.limits = Limits()  # the budget's limits (tests give small ones)
        self.budgets: dict[UUID, BotBudget] = {}  # a game's budget of versions made by bots alone (bot_budget.py)
        self.not_before: dict[UUID, float] = {}  # a slowed game: when its bots may move again (time.monotonic)
        self.moves = 0  # moves played by this process (tests and logs)
        self.conflicts = 0  # moves that lost a race with another writer

    def notice(self, n: Any) -> None:
        if n.topic not in SEATS_TOPICS:
            if n.originator_id in self.games:
                self.dirty.add(n.originator_id)
            return
        event = self.play.app.mapper.to_domain_event(n)  # folded here: no aggregate loaded per event
        if n.topic == CREATED:
            self.game_of[n.originator_id] = UUID(event.game_id)
            self.known.add(UUID(event.game_id))
            return
        gid = self.game_of.get(n.originator_id)
        if gid is None:
            return  # not a game's bot seats (its Created event is always read before)
        seats = self.games.setdefault(gid, {})
        if n.topic == SEATED:
            seats[event.seat] = event.bot
            self.dirty.add(gid)
        else:
            seats.pop(event.seat, None)
            if not seats:
                del self.games[gid]

    def act(self, leases: Leases, claim: bool) -> None:
        if claim:
            missing = set(self.games) - leases.held
            self.dirty |= leases.acquire(missing)  # a lease just taken: look at the game at once
        for gid in [g for g in self.dirty if g in leases.held]:
            self.dirty.discard(gid)
            try:
                self.play_game(gid, leases)
            except Exception:  # noqa: BLE001 - one damaged game never stops the others
                log.exception("bots at game %s could not play", gid)
        for gid in [g for g in leases.held if g in self.known and g not in self.games]:
            leases.release(gid)  # no bot plays there any more

    def play_game(self, gid: UUID, leases: Leases) -> None:
        """Play every bot seat of a game that has a move to make, as long as this process holds its lease."""
        for _ in range(MOVES_PER_ROUND):
            seats = self.play.bot_seats.seats(str(gid))  # the store's word: a seat taken back plays no more
            if not seats:
                self.games.pop(gid, None)
                return
            self.games[gid] = seats
            game = self.play.app.game(gid)
            if game.outcome.is_over:
                for seat in seats:
                    self.play.bot_seats.release(str(gid), seat, GAME_OVER)
                self.games.pop(gid, None)
                self.budgets.pop(gid, None)
                self.not_before.pop(gid, None)
                leases.release(gid)
                return
            if gid not in leases.held:
                return
            if not self._within_budget(gid, game, seats, leases):
                return
            moved = False
            for seat, kind in seats.items():
                view = self.play.as_seat(gid, seat).view()
                if view["table"].get("legal_moves"):
                    self._move(gid, seat, kind, view)
                    moved = True
                    break
            if not moved:
                return
        self.dirty.add(gid)  # more to play: the next round goes on, after the other games

    def _within_budget(self, gid: UUID, game: Any, seats: dict[int, str], leases: Leases) -> bool:
        """Whether the bots of a game may move now (service.play.bot_budget): a table where every seat is a bot and
        that has gone on far longer than any self-played game is slowed to a move a second, then its bots stop (their
        seats released, with the reason); a table with a person at it is never slowed. A slowed game is looked at
        again next round."""
        budget = self.budgets.setdefault(gid, BotBudget(self.limits))
        decision = budget.look(game.version, person_moved=len(seats) < game.setup.n)
        if decision.stops:
            log.warning("bots at game %s stop: %s", gid, decision.reason)
            for seat in seats:
                self.play.bot_seats.release(str(gid), seat, decision.reason)
            self.games.pop(gid, None)
            self.budgets.pop(gid, None)
            leases.release(gid)
            return False
        if decision.action == SLOW:
            now = time.monotonic()
            if now < self.not_before.get(gid, 0.0):
                self.dirty.add(gid)  # nothing else would wake it: look again next round
                return False
            self.not_before[gid] = now + decision.wait
        return True

    def _move(self, gid: UUID, seat: int, kind: str, view: dict) -> None:
        key = (gid, seat)
        kind_and_bot = self.bots.get(key)
        if kind_and_bot is None or kind_and_bot[0] != kind:
            rng = random.Random(f"arbiter-live-bot|{gid}|{seat}")
            kind_and_bot = self.bots[key] = kind, make_bot(kind, view["game"], seat, rng, spec_for(view["game"]).bot)
        move = kind_and_bot[1].choose(SeatView.from_http(view))
        body = {**{k: v for k, v in move.items() if k != "seat"}, "expected_version": view["version"]}
        command = PlayMove.from_body(str(gid), body)  # checked once, bounds too, as on every road but the JSON API
        try:
            self.play.as_seat(gid, seat).move(command)
            self.failures.pop(key, None)
            self.moves += 1
        except Conflict:
            self.conflicts += 1  # someone moved first (say, table talk): look again
        except ServiceError as e:
            self.failures[key] = self.failures.get(key, 0) + 1
            log.warning("bot at %s seat %d: move refused (%s)", gid, seat, e.detail)
            if self.failures[key] >= MAX_FAILURES:
                self.play.bot_seats.release(str(gid), seat, f"its moves were refused {MAX_FAILURES} times in a row")
                self.failures.pop(key, None)
