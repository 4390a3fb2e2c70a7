"""The Flask app factory (contract §3: `api.create_app(config)`)."""

from __future__ import annotations

import os

from flask import Flask, jsonify


def create_app(config: dict | None = None) -> Flask:
    """Build the arbiter web app; config keys override the environment (DATABASE_URL, ...)."""
    app = Flask(__name__)
    app.config["DATABASE_URL"] = os.environ.get("ARBITER_DATABASE_URL", "sqlite:///arbiter.db")
    app.config.update(config or {})

    @app.get("/api/v1/health")
    def health():
        from domain import ENGINE_VERSION
        from domain.games import DECIDERS

        return jsonify({"status": "ok", "engine_version": ENGINE_VERSION, "games": sorted(DECIDERS)})

    return app
