"""The services an app serves, as every route and page reaches them: the facades of the app's one composition root
(service.facade.Arbiter, built by the app factory)."""

from __future__ import annotations

from flask import current_app

from service.facade import Arbiter
from service.fairplay.jobs import FairplayJobs
from service.studies.facade import Studies
from service.tournaments.facade import Tournaments


def arbiter() -> Arbiter:
    """The facade this app serves."""
    return current_app.extensions["arbiter"]


def tournaments() -> Tournaments:
    """The tournament section of the facade this app serves."""
    return arbiter().tournaments


def studies() -> Studies:
    """The studies of the facade this app serves (variations and their comments)."""
    return arbiter().studies


def fairplay() -> FairplayJobs:
    """The fair-play reports of tournaments, as background jobs (referees only: service.fairplay.jobs)."""
    return arbiter().fairplay
