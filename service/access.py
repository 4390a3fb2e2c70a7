"""Who a token is for a game: a seat, the referee or (no token) a spectator; every concern's facade asks here.

A token is `<game id hex>.<secret>` and is bound to its game: it is good only where its prefix names the game, so a
token presented to another game is recognised (403) rather than merely unknown (401), and another game's id in front
of this game's secret is no token of this game (401); only the secret's SHA-256 is stored. A game's token hashes and
its Created event never change: they are read once per process.

The one place that decides who may watch a game and what of its end a viewer sees. A hold (`holds`: a duplicate
board still played at another table, service.tournaments.embargo) keeps a game from its spectators altogether: a
read without a token of a held game is refused (403, `viewer`), whatever it reads, for every card played there is a
card of a deal another table still plays. Its own seats and its referee (and so the director, who holds every
referee token) read it as before; a finished game's end (every card, its seed, its audit and record) is everyone's
once it is over, but a held game's seats see it as they saw it in play (`end_shown`) until the hold lets it go.
Many games and viewers at once (the live feed's batch of events) ask `holds_now`: each game asked of the holds once,
every viewer's answer derived from it (`withheld_when`), never a question per viewer or subscriber.
"""

from __future__ import annotations

import hmac
from typing import Any, Callable
from uuid import UUID

from domain.game import Game
from projections.viewers import REFEREE, SPECTATOR, Viewer

from .errors import Forbidden, NotFound, Unauthorized
from .store.application import Store
from .store.tokens import token_hash

MAX_TOKEN = 200
HELD = ("this game is a duplicate board still being played at another table: it can be watched once every table has "
        "finished it (its own seats and its referee read it as before)")


def parse_game_id(game_id: Any) -> UUID:
    """A game id from a path; raises NotFound for anything that is not one."""
    try:
        return UUID(str(game_id))
    except ValueError:
        raise NotFound(f"no game with id {str(game_id)[:60]!r}") from None


def permitted_seats(game: Game, check: Callable[[int], Any]) -> list[int]:
    """The seats of `game` for which `check(seat)` raises no Forbidden: what a page may offer a caller."""
    offered = []
    for seat in range(game.setup.n):
        try:
            check(seat)
        except Forbidden:
            continue
        offered.append(seat)
    return offered


def withheld_when(held: bool, viewer: Viewer, ended: bool) -> bool:
    """Whether a game that has `ended` is still shown to `viewer` as in play, given whether a hold keeps it (`held`):
    for everyone but the referee while it is held. `Access.withheld` asks the holds; the live feed asks them once
    per game and batch (`Access.holds_now`) and derives every viewer's answer here."""
    return ended and held and not viewer.is_referee


class Access:
    """The tokens of a store's games checked against what each game stored at its creation."""

    def __init__(self, app: Store):
        self.app = app
        self._hashes: dict[UUID, tuple[str, list[str]]] = {}
        self._first_events: dict[UUID, Game.Created] = {}  # each game's first event (it never changes), kept per process
        self.holds: list[Callable[[UUID], bool]] = []  # whether a game is held: no spectator, its end kept from its seats

    def end_shown(self, game_id: Any, viewer: Viewer, ended: bool) -> bool:
        """Whether `viewer` sees a game that has `ended` as a finished game is seen (every card, the seed, the audit,
        the record): the referee always; anyone else unless a hold (a duplicate board still being played at another
        table) keeps the game as in play for it. Every read of a game asks here."""
        if not ended or viewer.is_referee:
            return ended
        return not self.held(game_id)

    def watchable(self, game_id: Any) -> bool:
        """Whether spectators may watch this game: no hold keeps it from them (a duplicate board played elsewhere)."""
        return not self.held(game_id)

    def withheld(self, game_id: Any, viewer: Viewer, ended: bool) -> bool:
        """Whether a game that has `ended` is still shown to `viewer` as in play (the converse of `end_shown`)."""
        if not ended or viewer.is_referee:
            return False
        return withheld_when(self.held(game_id), viewer, ended)

    def held(self, game_id: Any) -> bool:
        """Whether a hold keeps this game from its spectators, and its end from its seats, now."""
        gid = parse_game_id(game_id)
        return any(hold(gid) for hold in self.holds)

    def holds_now(self) -> Callable[[UUID], bool]:
        """`held` for many games and viewers at once, each game asked of the holds once: a hold that reads the
        tournaments (service.tournaments.embargo.BoardEmbargo.now) catches up once for all of them. The live feed
        takes one per batch of events and derives every viewer's answer from it (`withheld_when`), so the cost of a
        batch is one question per game, never one per viewer or subscriber."""
        now = [getattr(hold, "now", lambda hold=hold: hold)() for hold in self.holds]
        answers: dict[UUID, bool] = {}

        def held(gid: UUID) -> bool:
            known = answers.get(gid)
            if known is None:
                known = answers[gid] = any(hold(gid) for hold in now)
            return known

        return held

    def created(self, gid: UUID) -> Game.Created:
        """A game's Created event (read once per process: stored events never change); raises NotFound."""
        created = self._first_events.get(gid)
        if created is None:
            created = next(iter(self.app.read_events(gid, lte=1)), None)
            if not isinstance(created, Game.Created):  # none, or another stream's id (a game's attempts)
                raise NotFound(f"no game with id {gid}")
            self._first_events[gid] = created
        return created

    def _token_hashes(self, gid: UUID) -> tuple[str, list[str]]:
        """A game's stored token hashes (from the Created event alone: a game damaged further on can still be verified)."""
        hashes = self._hashes.get(gid)
        if hashes is None:
            created = self.created(gid)
            hashes = self._hashes[gid] = (created.referee_token_hash, list(created.seat_token_hashes))
        return hashes

    def viewer(self, game_id: Any, token: str | None) -> Viewer:
        """Who a token is for this game: a seat, the referee, or (no token) a spectator, refused (403) while a hold
        keeps the game from spectators (the one check every spectator's read makes)."""
        gid = parse_game_id(game_id)
        referee_hash, seat_hashes = self._token_hashes(gid)
        if token is None:
            if not self.watchable(gid):
                raise Forbidden(HELD)
            return SPECTATOR
        if not isinstance(token, str) or len(token) > MAX_TOKEN or "." not in token:
            raise Unauthorized("the bearer token is malformed")
        prefix, secret = token.split(".", 1)
        digest = token_hash(secret)
        if not hmac.compare_digest(prefix.encode(), gid.hex.encode()):  # a token is bound to the game it names
            if self._token_of_another_game(prefix, digest):
                raise Forbidden("this token belongs to another game")
            raise Unauthorized("the bearer token is not valid for this game: it names another game")
        if hmac.compare_digest(digest, referee_hash):
            return REFEREE
        for seat, stored in enumerate(seat_hashes):
            if hmac.compare_digest(digest, stored):
                return Viewer.of_seat(seat)
        raise Unauthorized("the bearer token is not valid for this game")

    def _token_of_another_game(self, prefix: str, digest: str) -> bool:
        try:
            other = self.app.game(UUID(hex=prefix))
        except (ValueError, NotFound):
            return False
        hashes = [other.referee_token_hash, *other.seat_token_hashes]
        return any(hmac.compare_digest(digest, h) for h in hashes)

    def known(self, game_id: Any, token: str | None) -> Viewer:
        """The viewer of a token that must be given (a game with no such id is 404 before a missing token's 401)."""
        if token is None:
            self.app.game(parse_game_id(game_id))
            raise Unauthorized("a bearer token is required")
        return self.viewer(game_id, token)

    def seat(self, game_id: Any, token: str | None) -> tuple[UUID, int]:
        """The game and the seat a seat's token acts for; raises 401/403/404."""
        viewer = self.known(game_id, token)
        if viewer.role != "seat":
            raise Forbidden("only a seat token may do this")
        return parse_game_id(game_id), viewer.seat

    def referee(self, game_id: Any, token: str | None) -> UUID:
        """The game whose referee token this is; raises 401/403/404."""
        viewer = self.known(game_id, token)
        if viewer.role != "referee":
            raise Forbidden("only the referee token may do this")
        return parse_game_id(game_id)
