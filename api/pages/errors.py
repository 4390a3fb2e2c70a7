"""Errors met on the browser pages: an HTML page with the message and a way back (the API keeps problem+json)."""

from __future__ import annotations

from types import SimpleNamespace

from flask import render_template, request


def on_a_page() -> bool:
    """Whether the failing request is a page's (anything outside /api/), which a person reads in a browser."""
    return not request.path.startswith("/api/")


def page_error(status: int, title: str, detail: str, rule: str | None = None):
    """The error page (templates/error.html): title, message, a link back to the game's table and to the lobby."""
    error = SimpleNamespace(status=status, title=title, detail=detail, rule=rule)
    game_id = (request.view_args or {}).get("game_id") if status != 404 else None
    return render_template("error.html", error=error, game_id=game_id), status
