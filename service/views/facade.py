"""What a caller may see of a game, in simple types: views now and at a version, the event log, the replay's move
list, the live feed, the audit and the record; spectators of a delayed game see it as their delay allows. Whether a
viewer sees a finished game as finished is the access's one answer (`Access.withheld`: a duplicate board still
played elsewhere keeps its finished games as in play for all but the referee); every read below asks it."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Any, Callable
from uuid import UUID

from domain.disputes import open_count
from domain.game import Game
from projections.event_log import own_numbers, own_refusals
from projections.narration import narrate_entries
from projections.positions import positions as compact_positions
from projections.table_story import news, story
from projections.viewers import REFEREE, SPECTATOR, Viewer
from projections.views import disclosure_ledger, event_log, view, view_at

from service.access import Access, parse_game_id
from service.bounds import position
from service.errors import Forbidden, NotFound
from service.store.application import Store
from service.store.server_clock import server_ms
from service.verification.checks import check_evidence

from .feed import Feed, as_entries
from .positions import views_by_version
from .spectator_delay import Cut, spectator_cut


class ViewsFacade:
    """Views, logs, audits and records of a store's games, each as the token's viewer may see it."""

    def __init__(self, app: Store, access: Access):
        self.app = app
        self.access = access
        self.feed: Feed | None = None  # the process's follower of the notification log, started by the first subscriber
        self._feed_guard = threading.Lock()

    def spectator_cut(self, gid: UUID) -> Cut | None:
        """Where a spectator of this game stands (service.views.spectator_delay), or None when spectators are not delayed."""
        delay = getattr(self.access.created(gid), "spectator_delay", None)
        if not delay:
            return None
        return spectator_cut(self.app.stored_events(gid), delay, server_ms())

    # -- views -------------------------------------------------------------------------------

    def public(self, game_id: Any, token: str | None = None) -> dict:
        """The public summary and spectator view, to whoever may watch the game: anyone, unless a hold keeps it from
        spectators (403: a duplicate board still played elsewhere), then the holders of its own tokens."""
        self.access.viewer(game_id, token)
        return self._spectators_view(parse_game_id(game_id))

    def _spectators_view(self, gid: UUID) -> dict:
        """The spectator's view, unchecked: for `public` (checked) and `at_a_glance` (which keeps no card of it)."""
        cut = self.spectator_cut(gid)
        if cut is not None:
            game = self.app.game(gid, cut.version)
            return _delayed(view(game, SPECTATOR, withheld=self._withheld(gid, SPECTATOR, game)), cut)
        game = self.app.game(gid)
        return view(game, SPECTATOR, withheld=self._withheld(gid, SPECTATOR, game))

    def at_a_glance(self, game_id: Any) -> dict:
        """A game's status at a glance, which names no card (everyone's, held or not: the tournament page): the
        clocks, the seats to act (those whose clock runs, or that may make the first move) and how many disputes
        await a ruling: on the game now, as the catalogue counts them (domain.disputes), not on a delayed view."""
        gid = parse_game_id(game_id)
        public, filed = self._spectators_view(gid), self.app.game(gid).disputes
        clock = public.get("clock")
        out: dict = {"open_disputes": open_count(filed), "disputes": len(filed)}
        if clock is not None:
            out["clock"] = clock
            if public.get("status") != "finished":
                out["to_act"] = [c["seat"] for c in clock.get("seats") or () if c.get("running")] or list(
                    clock.get("waiting_for") or ())  # clocks waiting for the first move: the seats that may make it
        return out

    def _withheld(self, gid: UUID, viewer: Viewer, game: Game | None = None) -> bool:
        """Whether this game, if it has ended, is still shown to `viewer` as in play (service.access.Access.withheld)."""
        game = self.app.game(gid) if game is None else game
        return self.access.withheld(gid, viewer, game.seed_revealed or game.outcome.is_over)

    def player_names(self, game_id: Any) -> list[str]:
        """The players' names in seat order (public)."""
        return [p["name"] for p in self.app.game(parse_game_id(game_id)).players]

    def view(self, game_id: Any, token: str | None) -> dict:
        """What a seat or the referee may see now (a seat's view lists its legal moves)."""
        viewer = self.access.known(game_id, token)
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        return view(game, viewer, withheld=self._withheld(gid, viewer, game))

    def replay(self, game_id: Any, token: str | None, version: Any) -> dict:
        """The caller's view as it was at `version`; without a token, the public replay of a game that is over
        (a game in progress needs a token: 401; a held game refuses spectators first: 403)."""
        if token is None and self.app.game(parse_game_id(game_id)).outcome.is_over:
            return self.public_replay(game_id, version)
        if token is None:
            self.access.viewer(game_id, None)  # a held game is refused to spectators (403) before the token's 401
        viewer = self.access.known(game_id, token)
        position(version, "version")
        gid = parse_game_id(game_id)
        return view_at(self.app, gid, version, viewer, withheld=self._withheld(gid, viewer))

    def public_replay(self, game_id: Any, version: Any) -> dict:
        """The spectator's view as it was at `version` (403 while a hold keeps the game from spectators)."""
        self.access.viewer(game_id, None)
        position(version, "version")
        gid = parse_game_id(game_id)
        cut = self.spectator_cut(gid)
        if cut is not None and version > cut.version:
            raise NotFound(f"game {gid}: version {version} is not shown to spectators yet (they follow this game "
                           f"{_delay_words(cut.delay)} behind)", field="version")
        return view_at(self.app, gid, version, SPECTATOR, withheld=self._withheld(gid, SPECTATOR))

    def positions(self, game_id: Any, token: str | None) -> dict:
        """Every version's view as `replay` gives it to the caller, in one compact document (projections.positions):
        the same access (no token: the public positions of a game that is over) and the same redaction."""
        if token is None and self.app.game(parse_game_id(game_id)).outcome.is_over:
            return self.public_positions(game_id)
        if token is None:
            self.access.viewer(game_id, None)
        viewer = self.access.known(game_id, token)
        gid = parse_game_id(game_id)
        return compact_positions(views_by_version(self.app, gid, viewer, self._withheld(gid, viewer)))

    def public_positions(self, game_id: Any) -> dict:
        """Every version's spectator view as `public_replay` gives it (a delayed spectator's up to its cut)."""
        self.access.viewer(game_id, None)
        gid = parse_game_id(game_id)
        cut = self.spectator_cut(gid)
        upto = cut.version if cut is not None else None
        return compact_positions(views_by_version(self.app, gid, SPECTATOR, self._withheld(gid, SPECTATOR), upto))

    # -- the event log -----------------------------------------------------------------------

    def events(self, game_id: Any, token: str | None, after: int = 0) -> list[dict]:
        """The event log after version `after`, as the caller may see it."""
        viewer = self.access.viewer(game_id, token)
        position(after, "after")
        gid = parse_game_id(game_id)
        if viewer == SPECTATOR:
            cut = self.spectator_cut(gid)
            if cut is not None:
                return self.log_tail(gid, viewer, after, upto=cut.version) if after < cut.version else []
        ended = after > 0 and self.app.game(gid).seed_revealed
        return self.log_tail(gid, viewer, after, ended=ended)

    def log_tail(self, gid: UUID, viewer: Viewer, after: int, upto: int | None = None, ended: bool = False) -> list[dict]:
        """The log entries after `after` (up to `upto`), reading only those rows (and the Created event once)."""
        return self.log_of(gid, viewer, self.app.read_events(gid, gt=max(after, 1), lte=upto), after, ended)

    def log_of(self, gid: UUID, viewer: Viewer, tail: list, after: int, ended: bool) -> list[dict]:
        """The log entries of `tail` (a game's events after version 1) after `after`, as `viewer` may see them."""
        ended = ended or any(isinstance(e, Game.SeedRevealed) for e in tail)
        withheld = self.access.withheld(gid, viewer, ended)
        disclosed = viewer.is_referee or (ended and not withheld)
        attempts = self.app.stored_attempts(gid) if disclosed else ()
        return event_log([self.access.created(gid), *tail], viewer, after=after, ended=ended, attempts=attempts,
                         withheld=withheld)

    def replay_log(self, game_id: Any, token: str | None) -> list[dict]:
        """The whole event log as the caller may see it (exactly `events`), each game event told in words (`text`):
        the replay page's move list; a seat's own disputes of a refusal carry that refusal's number for it."""
        entries, viewer = self.events(game_id, token), self.access.viewer(game_id, token)
        if viewer.seat is not None and any(e["type"] == "dispute_filed" and e["data"].get("attempt") for e in entries):
            entries = own_numbers(entries, self.app.stored_attempts(parse_game_id(game_id)), viewer.seat)
        game = self.app.game(parse_game_id(game_id))
        return narrate_entries(game.game, entries, [p.get("name", f"Seat {i}") for i, p in enumerate(game.players)])

    def own_log(self, game_id: Any, token: str | None) -> list[dict]:
        """The event log as the caller may see it (`events`), a seat's own refused attempts in place (what its 422
        answers told it already; the referee's log and everyone's after the end hold them all)."""
        entries = self.events(game_id, token)
        viewer = self.access.viewer(game_id, token)
        if viewer.seat is not None and not any(e["type"] == "seed_revealed" and e["data"]["seed"] for e in entries):
            attempts = self.app.stored_attempts(parse_game_id(game_id))
            entries = sorted(own_numbers(entries, attempts, viewer.seat) + own_refusals(attempts, viewer.seat),
                             key=lambda e: (e["version"], e["type"] == "move_rejected"))
        return entries

    def table_story(self, game_id: Any, token: str | None, view: dict) -> dict:
        """The table's account for the caller, from its own event log (as `events`; a seat's own refused attempts
        added, as its 422 answers told them): `talk` (the last 8 messages), `story` (projections.table_story, each game
        event told in words) and `news` (every ruling since the caller was last at the table). `view` is the caller's
        view now (its disputes and players)."""
        entries = self.own_log(game_id, token)
        viewer = self.access.viewer(game_id, token)
        told = narrate_entries(view["game"], story(entries), [p["name"] for p in view["players"]])
        return {"talk": [e for e in entries if e["type"] == "said"][-8:], "story": told,
                "news": news(entries, view.get("disputes") or [], viewer.seat)}

    def subscribe(self, game_id: Any, token: str | None, after: int, sink: Callable[[list], None]):
        """Live entries of a game as the caller may see them (service.views.feed): returns the subscription and the
        backlog after `after` as (version, type, JSON) entries; each later one goes to `sink` (called from the
        feed's thread: it must not block) in version order, without a gap or a duplicate. Close it when done."""
        viewer = self.access.viewer(game_id, token)
        position(after, "after")
        gid = parse_game_id(game_id)
        if self.feed is None:
            with self._feed_guard:
                if self.feed is None:
                    self.feed = Feed(self.app, holds_now=self.access.holds_now)
        created = next(iter(self.app.events.get(gid, lte=1)))
        subscription = self.feed.subscribe(gid, viewer, after, sink, created, self.app.game(gid).seed_revealed)
        try:
            backlog = subscription.start(as_entries(self.events(game_id, token, after)))
        except BaseException:
            subscription.close()
            raise
        return subscription, backlog

    def tell(self, gid: UUID, viewers: Any, kind: str, data: dict) -> int:
        """A viewer's own news (no event of the game: an analysis' progress) to the live subscriptions of `viewers`
        of this game alone (service.views.feed.Feed.tell); nothing when nobody follows the process's feed."""
        return self.feed.tell(gid, viewers, kind, data) if self.feed is not None else 0

    # -- the audit and the record ------------------------------------------------------------

    def audit(self, game_id: Any, token: str | None) -> dict:
        """The hash-chained audit log: the referee's, or anyone's once the game is over."""
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        viewer = self.access.viewer(game_id, token)
        if viewer.role != "referee" and not game.outcome.is_over:
            raise Forbidden("the audit log is the referee's until the game is over")
        if self._withheld(gid, viewer, game):
            raise Forbidden(WITHHELD.format(what="the audit log"))
        return self._audit_of(gid, game, viewer, partial=False)

    def audit_page(self, game_id: Any, token: str | None) -> dict:
        """The audit as a page shows it to this caller: the whole audit to whoever may read it (the referee; anyone
        once over), else (`partial`: true) what this caller may see of it now: the event log as on GET /events (no
        refused attempt, no card it may not see), the disclosures to everyone and to itself, disputes and rewinds."""
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        viewer = self.access.viewer(game_id, token)
        partial = not (viewer.is_referee or game.outcome.is_over) or self._withheld(gid, viewer, game)
        cut = self.spectator_cut(gid) if viewer == SPECTATOR and partial else None
        if cut is not None:
            audit = self._audit_of(gid, self.app.game(gid, cut.version), viewer, partial, cut.events)
            return {**audit, "partial": partial, "spectator_delay": cut.as_dict()}
        return {**self._audit_of(gid, game, viewer, partial), "partial": partial}

    def _audit_of(self, gid: UUID, game: Game, viewer: Viewer, partial: bool, stored: list | None = None) -> dict:
        """The audit of a loaded game: whole (the referee's log, refused attempts included), or `partial` as `viewer`
        may see it now; every game event narrated in words."""
        stored = self.app.stored_events(gid) if stored is None else stored
        if partial:
            entries = event_log(stored, viewer, withheld=self._withheld(gid, viewer, game))
            disclosures = [d for d in disclosure_ledger(stored, withheld=self._withheld(gid, viewer, game))
                           if d["to"] == "all" or (viewer.seat is not None and viewer.seat in d["to"])]
        else:
            entries = event_log(stored, REFEREE, attempts=self.app.stored_attempts(gid))
            disclosures = disclosure_ledger(stored)
        names = [p.get("name", f"Seat {i}") for i, p in enumerate(game.players)]
        return {"id": str(gid), "chain_head": game.chain_head, "length": game.version,
                "engine_version": game.engine_version, "entries": narrate_entries(game.game, entries, names),
                "disclosures": disclosures, "disputes": game.disputes, "rewinds": game.rewinds}

    def record(self, game_id: Any, token: str | None) -> dict:
        """The game as an `arbiter.record/1` document: the referee's, or anyone's once over."""
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        viewer = self.access.viewer(game_id, token)
        if viewer.role != "referee" and not game.outcome.is_over:
            raise Forbidden("the record is the referee's until the game is over")
        if self._withheld(gid, viewer, game):
            raise Forbidden(WITHHELD.format(what="the record"))
        doc = game.to_record()
        evidence = check_evidence(self.app, gid)
        if evidence is not None and evidence.get("ok") is not None:
            doc["evidence"] = evidence  # an addition to arbiter.record/1: the game's own honesty check, once over
        return doc


WITHHELD = ("{what} is the referee's until every table of this game's board is over (duplicate play: the same deal is "
            "still being played at another table)")


def _delayed(view: dict, cut: Cut) -> dict:
    """A delayed spectator's view: the game as at the cut; its clock stands still at that moment."""
    view["spectator_delay"], view["delayed"] = cut.as_dict(), True
    view["clock"] = {**view["clock"], "as_of": _iso_ms(cut.as_of_ms), "frozen": True}
    return view


def _delay_words(delay: dict) -> str:
    (key, n), = delay.items()
    return f"{n} {key[:-1] if n == 1 else key}"


def _iso_ms(at_ms: int) -> str:
    return datetime.fromtimestamp(at_ms / 1000, tz=timezone.utc).isoformat()
