"""The dispute log: a seat files against a move or the refusal of its own attempt, the referee rules (and may
rewind)."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for

from service.errors import ServiceError

from .blueprint import page_view, pages
from .forms import dispute_command, ruling_command


@pages.get("/games/<game_id>/disputes")
def disputes(game_id: str):
    """The dispute log; a seat files, the referee rules."""
    _, _, viewer, view = page_view(game_id)
    return render_template("disputes.html", view=view, viewer=viewer, error=None)


@pages.post("/games/<game_id>/disputes")
def file_dispute(game_id: str):
    """A seat files a dispute against the move at a version, or against the refusal of its attempt (`attempt`)."""
    facade, token, viewer, _ = page_view(game_id)
    try:
        facade.play.file_dispute(token, dispute_command(game_id, request.form))
    except ServiceError as e:
        return render_template("disputes.html", view=page_view(game_id)[3], viewer=viewer, error=e, form=request.form), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)


@pages.post("/games/<game_id>/disputes/<int:number>/ruling")
def rule(game_id: str, number: int):
    """The referee rules on a dispute (and may rewind)."""
    facade, token, viewer, _ = page_view(game_id)
    try:
        facade.play.rule(token, ruling_command(game_id, number, request.form))
    except ServiceError as e:
        return render_template("disputes.html", view=page_view(game_id)[3], viewer=viewer, error=e, form=request.form), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)
