"""arbiter's entry points: the HTTP API (app factory) and the command line."""

from .app import create_app

__all__ = ["create_app"]
