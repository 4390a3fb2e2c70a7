"""The dispute log: a seat files against a move or the refusal of its own attempt, the referee rules (and may
rewind)."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for

from projections.narration import narrate_entries

from service.errors import ServiceError

from .blueprint import page_view, pages
from .forms import dispute_command, ruling_command


@pages.get("/games/<game_id>/disputes")
def disputes(game_id: str):
    """The dispute log; a seat files, the referee rules."""
    facade, token, viewer, view = page_view(game_id)
    return render_template("disputes.html", view=view, viewer=viewer, error=None, disputed=disputed_moves(facade, game_id, token, view))


def disputed_moves(facade, game_id: str, token: str | None, view: dict) -> dict:
    """Each dispute's number -> the entry it is against, from the caller's own log (narrated): the move at its
    version, or the refused attempt it names (the referee's, the seat's own); absent when the caller may not see it."""
    entries = narrate_entries(view["game"], facade.views.own_log(game_id, token), [p["name"] for p in view["players"]])
    moves = {e["version"]: e for e in entries if "text" in e}
    refusals = {e["data"].get("attempt"): e for e in entries if e["type"] == "move_rejected"}
    out = {}
    for d in view["disputes"]:
        entry = refusals.get(d["attempt"]) if d.get("attempt") is not None else moves.get(d["version"])
        if entry is not None and not d.get("time_expired"):
            out[d["number"]] = entry
    return out


@pages.post("/games/<game_id>/disputes")
def file_dispute(game_id: str):
    """A seat files a dispute against the move at a version, or against the refusal of its attempt (`attempt`)."""
    facade, token, viewer, _ = page_view(game_id)
    try:
        facade.play.file_dispute(token, dispute_command(game_id, request.form))
    except ServiceError as e:
        view = page_view(game_id)[3]
        return render_template("disputes.html", view=view, viewer=viewer, error=e, form=request.form,
                               disputed=disputed_moves(facade, game_id, token, view)), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)


@pages.post("/games/<game_id>/disputes/<int:number>/ruling")
def rule(game_id: str, number: int):
    """The referee rules on a dispute (and may rewind)."""
    facade, token, viewer, _ = page_view(game_id)
    try:
        facade.play.rule(token, ruling_command(game_id, number, request.form))
    except ServiceError as e:
        view = page_view(game_id)[3]
        return render_template("disputes.html", view=view, viewer=viewer, error=e, form=request.form,
                               disputed=disputed_moves(facade, game_id, token, view)), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)
