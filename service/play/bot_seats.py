"""Bots at live tables: a seat handed to a bot that the server plays, through the facade with the seat's own token.

Whoever holds a seat's token may hand the seat to a bot (so a person can practise against bots in
the browser: create a game, let bots take the other seats, open your own link). The bot then runs
in a thread of this process and does exactly what a remote player would: it reads the seat's view
through the views facade (the token decides what it may see, as for anyone) and, when the view lists
legal moves, plays its choice as a `PlayMove` with `expected_version` through the play facade. It polls every
`POLL_SECONDS`, less often (up to `MAX_POLL_SECONDS`) while nothing changes (moves made in other
server processes are seen through the store), and stops when
the game is over, after `IDLE_SECONDS` without any move, or after `MAX_FAILURES` refusals in a row.

A bot seat lives in the process that seated it: it is not stored with the game, so a restarted
server forgets it (the seat can be handed to a bot again).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from bots import BOT_KINDS, SeatView, make_bot
from domain.games import spec_for

from service.errors import BadInput, Conflict, Forbidden, ServiceError, Unauthorized

from .commands import PlayMove

POLL_SECONDS = 0.25
MAX_POLL_SECONDS = 1.0  # while nothing happens the bot looks less often, up to this
IDLE_SECONDS = 3600.0
MAX_FAILURES = 3
log = logging.getLogger(__name__)


class BotSeats:
    """The bot seats this process plays, one thread each."""

    def __init__(self, play: Any, poll: float | None = None, idle: float | None = None):
        self.play = play  # service.play.facade.PlayFacade: its access, its views, its moves
        self.poll = POLL_SECONDS if poll is None else poll
        self.idle = IDLE_SECONDS if idle is None else idle
        self.running: dict[tuple[str, int], threading.Thread] = {}
        self.lock = threading.Lock()

    def hand_over(self, game_id: Any, token: str | None, kind: Any) -> dict:
        """Let a bot of `kind` play the token's seat from now on; raises BadInput, Forbidden or Conflict."""
        viewer = self.play.access.viewer(game_id, token)
        if token is None:
            raise Unauthorized("a seat's bearer token is required")
        if viewer.role != "seat":
            raise Forbidden("only a seat's own token may hand the seat to a bot")
        if kind not in BOT_KINDS:
            raise BadInput(f"bot: unknown bot {kind!r}: expected one of {', '.join(BOT_KINDS)}", field="bot")
        view = self.play.views.view(game_id, token)
        if view["status"] == "finished":
            raise Conflict("the game is over: no bot can play it")
        key = (view["id"], viewer.seat)
        with self.lock:
            thread = self.running.get(key)
            if thread is not None and thread.is_alive():
                raise Conflict(f"seat {viewer.seat} is already played by a bot")
            bot = make_bot(kind, view["game"], viewer.seat, _rng(view["id"], viewer.seat), spec_for(view["game"]).bot)
            thread = threading.Thread(target=self._play, args=(view["id"], token, bot), daemon=True,
                                      name=f"bot {view['id']}:{viewer.seat}")
            self.running[key] = thread
            thread.start()
        return {"id": view["id"], "seat": viewer.seat, "bot": kind}

    def _play(self, game_id: str, token: str, bot) -> None:
        failures, last_version, last_change, wait = 0, None, time.monotonic(), self.poll
        while failures < MAX_FAILURES and time.monotonic() - last_change < self.idle:
            try:
                view = self.play.views.view(game_id, token)
            except ServiceError as e:
                log.warning("bot at %s stops: %s", game_id, e.detail)
                return
            if view["status"] == "finished":
                return
            if view["version"] != last_version:
                last_version, last_change, wait = view["version"], time.monotonic(), self.poll
            if not view["table"].get("legal_moves"):
                time.sleep(wait)
                wait = min(2 * wait, max(self.poll, MAX_POLL_SECONDS))
                continue
            move = bot.choose(SeatView.from_http(view))
            command = PlayMove(game_id, {k: v for k, v in move.items() if k != "seat"}, expected_version=view["version"])
            try:
                self.play.move(token, command)
                failures = 0
            except Conflict:
                continue  # someone moved first (say, table talk): look again
            except ServiceError as e:
                failures += 1
                log.warning("bot at %s: move refused (%s)", game_id, e.detail)
                time.sleep(self.poll)


def _rng(game_id: str, seat: int):
    import random

    return random.Random(f"arbiter-live-bot|{game_id}|{seat}")
