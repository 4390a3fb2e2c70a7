"""The Flask app factory (contract §3: `api.create_app(config)`)."""

from __future__ import annotations

import os

from flask import Flask

from .http import limits, problems
from .http.openapi import ContractPlugin, typed


def create_app(config: dict | None = None) -> Flask:
    """Build the arbiter web app; config keys override the environment (DATABASE_URL, ...)."""
    from service.facade import Arbiter

    app = Flask(__name__)
    app.config.update(
        DATABASE_URL=os.environ.get("ARBITER_DATABASE_URL", "sqlite:///arbiter.db"),
        API_TITLE="arbiter", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=256 * 1024,  # a whole record fits; a huge body is refused (413)
        JSON_SORT_KEYS=False,
        STREAM_SECONDS=60,  # a live stream ends after a minute; browsers reconnect with Last-Event-ID
    )
    app.config.update(config or {})
    # the one composition root: every route, page and command takes its concern's facade from it (api.current)
    arbiter = app.extensions["arbiter"] = Arbiter(
        app.config["DATABASE_URL"], app.config.get("KEY_FILE"), app.config.get("CHECKPOINT_LOG"),
        app.config.get("CHECKPOINT_EVERY"), log_origin=app.config.get("LOG_ORIGIN"), witnesses=app.config.get("WITNESSES"))
    arbiter.evidence.public_key()  # the signing key is loaded, or created on first start (with a message)
    arbiter.tournaments  # built now: the duplicate board's hold on spectators is in place before the first request
    if app.config.get("WATCH_CLOCKS"):  # a serving process flags seats that run out of time (service.play.clocks)
        arbiter.play.watch_clocks()
    arbiter.analysis.configure(  # the background jobs (service.jobs.runner, docs/analysis.md "Jobs")
        app.config.get("ANALYSIS_WORKERS"), app.config.get("ANALYSIS_MAX_JOBS"),
        app.config.get("ANALYSIS_JOBS_PER_CALLER"), app.config.get("ANALYSIS_JOBS_PER_ADDRESS"),
        app.config.get("ANALYSIS_QUEUE"), app.config.get("JOB_LEASE_SECONDS"))
    arbiter.fairplay  # this process runs fair-play report jobs too (service.fairplay.jobs)
    description = "A referee for card battles: moves, views, replays, audits, disputes."
    api = problems.ProblemApi(app, spec_kwargs={"info": {"description": description}, "extra_plugins": [ContractPlugin()]})
    problems.install(app, api)
    limits.install(app)

    from api.http.games import blp

    api.register_blueprint(blp)

    from api.http.evidence import evidence_blp

    api.register_blueprint(evidence_blp)

    from api.http.transparency import log_blp

    api.register_blueprint(log_blp)

    from api.http.stream import stream_blp

    api.register_blueprint(stream_blp)

    from api.http.analysis import analysis_blp

    api.register_blueprint(analysis_blp)

    from api.pages import analysis, audit, bots, disputes, filters, lobby, open_seats, replay, table  # noqa: F401  (routes)
    from api.pages.blueprint import pages

    app.register_blueprint(pages)

    from api.pages.rules import rules

    app.register_blueprint(rules)
    from api.pages.desk import desk

    app.register_blueprint(desk)

    from api.http.bots import bots_blp

    api.register_blueprint(bots_blp)

    from api.pages.tournaments import tournament_pages
    from api.http.tournaments import tournaments_blp
    from api.http.fairplay import fairplay_blp

    if app.config.get("DUTIES"):  # a serving process plays the bot seats and tournaments it holds the lease of (service.duty)
        arbiter.play.duty.start()
        arbiter.jobs.start()  # and takes background jobs from the store's queue (service.jobs.runner)
    api.register_blueprint(tournaments_blp)
    api.register_blueprint(fairplay_blp)
    app.register_blueprint(tournament_pages)

    from api.http.studies import studies_blp
    from api.pages.studies import study_pages

    api.register_blueprint(studies_blp)
    app.register_blueprint(study_pages)
    typed(api.spec)  # every game's moves and legal moves typed in the document (api/http/openapi.py)
    return app
