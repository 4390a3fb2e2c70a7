"""The service's one front door and composition root: `Arbiter` opens a store and builds each concern's facade once.

    arbiter.play          creating, importing and playing games: commands (service.play.facade)
    arbiter.views         views, logs, the live feed, audits, records (service.views.facade)
    arbiter.lobby         the catalogue, the games offered, health (service.views.lobby)
    arbiter.verification  checks of stored games (service.verification.facade)
    arbiter.evidence      the signing key, receipts, checkpoints, backups (service.evidence.facade)
    arbiter.access        who a token is for a game (service.access)
    arbiter.analysis      computer analysis as background jobs (service.analysis.jobs)
    arbiter.tournaments   tournaments and their rounds (service.tournaments.facade)
    arbiter.studies       "what if" studies of a game (service.studies.facade)
    arbiter.fairplay      fair-play reports of tournaments, as background jobs (service.fairplay.jobs)

The app factory (api/app.py), the command line (api/cli) and the tests take the facade of their concern from here,
and call it with a command object for what changes something (service.play.commands, service.tournaments.commands,
service.studies.commands), built once where the request arrived. Nothing outside service/ touches the application
object or an aggregate: what the command line needs of the store (`database_url`, `close`) is here.

Tournaments, studies and fair play are built on first use, once: a process that runs none (an import, a
verification, a bench) pays nothing for them, and the app factory asks for them at start, so that the duplicate
board's hold on spectators is in place before the first request.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any

from .access import Access
from .adapters.stores import DEFAULT_URL
from .analysis.jobs import AnalysisJobs
from .evidence.facade import Evidence
from .evidence.log_service import publish_seconds
from .evidence.publish_duty import Cover, PublishDuty
from .fairplay.jobs import FairplayJobs
from .jobs.runner import JobRunner
from .play.referee import Referee
from .play.facade import PlayFacade
from .studies.facade import Studies
from .tournaments.facade import Tournaments
from .verification.facade import VerificationFacade
from .views.facade import ViewsFacade
from .views.lobby import LobbyFacade


class Arbiter:
    """arbiter's use cases over one store, one facade per concern, each built once."""

    def __init__(self, database_url: str | None = None, key_file: str | None = None, checkpoint_log: str | None = None,
                 checkpoint_every: int | None = None, public_key: Any = None, log_origin: str | None = None,
                 witnesses: str | None = None):
        """`public_key` (a keys.PublicKey): the key signatures are checked with, where no private key is at hand."""
        self.database_url = database_url or os.environ.get("ARBITER_DATABASE_URL") or DEFAULT_URL
        # the store: the service's own (its facades hold it); tests and benches may inspect it, api/ never does
        self.app = app = Referee(self.database_url)
        self.evidence = Evidence.configured(app, self.database_url, key_file, checkpoint_log, checkpoint_every,
                                            public_key, log_origin, witnesses)
        self.access = Access(app)
        self.views = ViewsFacade(app, self.access)
        self.lobby = LobbyFacade(app, self.views)
        self.play = PlayFacade(app, self.access, self.views, self.evidence)
        # the log's checkpoints: what moved covered, then published, at least twice per maximum merge delay
        self.play.duty.add(PublishDuty(self.evidence.transparency, min(publish_seconds(), self.evidence.mmd / 2),
                                       Cover(self.evidence)))
        self.verification = VerificationFacade(app, self.evidence, self.lobby.caught_up, self.access)
        self.jobs = JobRunner(self.database_url)  # the deployment's background jobs, run from this process too
        self.analysis = AnalysisJobs(app, self.access, self.views, self.jobs)

    @cached_property
    def tournaments(self) -> Tournaments:
        """Tournaments over this store: their games are the play facade's, their holds the access layer's."""
        return Tournaments(self.app, self.play, self.views, self.access)

    @cached_property
    def studies(self) -> Studies:
        """Studies of this store's games."""
        return Studies(self.app, self.access)

    @cached_property
    def fairplay(self) -> FairplayJobs:
        """Fair-play reports of this store's tournaments, on the same job runner as computer analysis."""
        return FairplayJobs(self.tournaments, self.jobs)

    def stop_serving(self) -> None:
        """A serving process's clean shutdown, the store still open: the duty loop's last round (what this process
        acknowledged is covered and published: the promises it handed out are kept) and its leases given back, then
        the running jobs given back to the queue (service.duty.Duty.stop, service.jobs.runner)."""
        self.play.duty.stop()
        self.jobs.close()

    def close(self) -> None:
        """Close the store's connections (the duty loop stops when it sees this; the jobs' runner gives its running
        jobs back to the queue and closes its own connection)."""
        self.jobs.close(store=True)
        self.app.close()
