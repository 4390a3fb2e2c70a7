"""The service's front door: `Arbiter` opens a store and composes one facade per concern over it.

    arbiter.play          creating, importing and playing games: commands (service.play.facade)
    arbiter.views         views, logs, the live feed, audits, records (service.views.facade)
    arbiter.lobby         the catalogue, the games offered, health (service.views.lobby)
    arbiter.verification  checks of stored games (service.verification.facade)
    arbiter.evidence      the signing key, receipts, checkpoints, backups (service.evidence.facade)
    arbiter.access        who a token is for a game (service.access)
    arbiter.analysis      computer analysis as background jobs (service.analysis.jobs)

The API, the pages and the command line call the concern they need, with a command object for what changes a game
(service.play.commands). The methods below keep the one-door form of simple types (a move as a dict) that tests,
benchmarks and scripts were written against: each builds the command the way the JSON API does and delegates.
Nothing outside service/ touches an aggregate.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from projections.viewers import Viewer

from .access import Access
from .analysis.jobs import AnalysisJobs
from .adapters.stores import DEFAULT_URL
from .evidence.facade import Evidence
from .evidence.log_service import publish_seconds
from .evidence.publish_duty import PublishDuty
from .play.referee import Referee
from .play.clocks import ClockWatch
from .play.commands import FileDispute, GiveRuling, NameSeat, PlayMove
from .play.facade import PlayFacade
from .verification.facade import VerificationFacade
from .views.facade import ViewsFacade
from .views.lobby import LobbyFacade


class Arbiter:
    """arbiter's use cases over one store, one facade per concern."""

    def __init__(self, database_url: str | None = None, key_file: str | None = None, checkpoint_log: str | None = None,
                 checkpoint_every: int | None = None, public_key: Any = None, log_origin: str | None = None,
                 witnesses: str | None = None):
        """`public_key` (a keys.PublicKey): the key signatures are checked with, where no private key is at hand."""
        url = database_url or os.environ.get("ARBITER_DATABASE_URL") or DEFAULT_URL
        self.app = Referee(url)
        self.evidence = Evidence.configured(self.app, url, key_file, checkpoint_log, checkpoint_every, public_key,
                                            log_origin, witnesses)
        self.access = Access(self.app)
        self.views = ViewsFacade(self.app, self.access)
        self.lobby = LobbyFacade(self.app, self.views)
        self.play = PlayFacade(self.app, self.access, self.views, self.evidence)
        self.play.duty.add(PublishDuty(self.evidence.transparency, publish_seconds()))  # the log's checkpoints
        self.verification = VerificationFacade(self.app, self.evidence, self.lobby.caught_up, self.access)
        self.analysis = AnalysisJobs(self.app, self.access, self.views)

    @property
    def game_over_listeners(self) -> list[Callable]:
        """Called with a game's id right after a move through this process ended it (PlayFacade)."""
        return self.play.game_over_listeners

    # -- the one door, in simple types: each delegates to its concern ----------------------------

    def viewer(self, game_id: Any, token: str | None) -> Viewer:
        return self.access.viewer(game_id, token)

    def create_game(self, spec: Any) -> dict:
        return self.play.create_game(spec)

    def import_record(self, doc: Any) -> dict:
        return self.play.import_record(doc)

    def links(self, game_id: Any, token: str | None) -> dict:
        return self.play.links(game_id, token)

    def move(self, game_id: Any, token: str | None, body: Any) -> dict:
        """A seat's move given as the JSON API's body (PlayMove.from_body), played by PlayFacade.move."""
        return self.play.move(token, PlayMove.from_body(game_id, body))

    def file_dispute(self, game_id: Any, token: str | None, body: Any) -> dict:
        """A dispute given as the JSON API's body (FileDispute.from_body), filed by PlayFacade.file_dispute."""
        return self.play.file_dispute(token, FileDispute.from_body(game_id, body))

    def rule_dispute(self, game_id: Any, token: str | None, number: Any, body: Any) -> dict:
        """A ruling given as the JSON API's body (GiveRuling.from_body), given by PlayFacade.rule."""
        return self.play.rule(token, GiveRuling.from_body(game_id, number, body))

    def name_seat(self, game_id: Any, token: str | None, name: Any) -> dict:
        """A seat's name (NameSeat), given by PlayFacade.name_seat."""
        return self.play.name_seat(token, NameSeat(game_id, name))

    def seat_bot(self, game_id: Any, token: str | None, kind: Any = "heuristic") -> dict:
        return self.play.seat_bot(game_id, token, kind)

    def watch_clocks(self) -> ClockWatch:
        return self.play.watch_clocks()

    def public(self, game_id: Any, token: str | None = None) -> dict:
        return self.views.public(game_id, token)

    def player_names(self, game_id: Any) -> list[str]:
        return self.views.player_names(game_id)

    def view(self, game_id: Any, token: str | None) -> dict:
        return self.views.view(game_id, token)

    def replay(self, game_id: Any, token: str | None, version: Any) -> dict:
        return self.views.replay(game_id, token, version)

    def public_replay(self, game_id: Any, version: Any) -> dict:
        return self.views.public_replay(game_id, version)

    def events(self, game_id: Any, token: str | None, after: int = 0) -> list[dict]:
        return self.views.events(game_id, token, after)

    def replay_log(self, game_id: Any, token: str | None) -> list[dict]:
        return self.views.replay_log(game_id, token)

    def subscribe(self, game_id: Any, token: str | None, after: int, sink: Callable[[list], None]):
        return self.views.subscribe(game_id, token, after, sink)

    def audit(self, game_id: Any, token: str | None) -> dict:
        return self.views.audit(game_id, token)

    def audit_page(self, game_id: Any, token: str | None) -> dict:
        return self.views.audit_page(game_id, token)

    def record(self, game_id: Any, token: str | None) -> dict:
        return self.views.record(game_id, token)

    def catalogue(self, status: str | None = None, game: str | None = None, limit: int = 50, offset: int = 0,
                  **desk: Any) -> list[dict]:
        return self.lobby.catalogue(status, game, limit, offset, **desk)

    def games(self) -> list[dict]:
        return self.lobby.games()

    def health(self) -> dict:
        return self.lobby.health()

    def verify(self, game_id: Any, kept_head: str | None = None, kept_length: int | None = None, full: bool = False,
               rows: Any = None, log_report: Any = None, marks: list | None = None) -> dict:
        return self.verification.verify(game_id, kept_head, kept_length, full, rows, log_report, marks)

    def mark_verified(self, reports: list[dict]) -> None:
        self.verification.mark_verified(reports)

    def game_ids(self) -> list[str]:
        return self.verification.game_ids()

    def reverify(self, game_id: Any) -> dict:
        return self.verification.reverify(game_id)

    def verify_receipt(self, receipt: Any) -> dict:
        return self.evidence.verify_receipt(receipt)

    def public_key(self) -> dict:
        return self.evidence.public_key()

    def checkpoint_log(self) -> dict:
        return self.evidence.log_report()

    def checkpoints(self, after: int = 0, limit: int = 100, game: str | None = None) -> list[dict]:
        return self.evidence.checkpoints(after, limit, game)

    def backup(self, path: str, force: bool = False) -> dict:
        return self.evidence.backup(path, force)
