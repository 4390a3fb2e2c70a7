"""The study page (issue 27 parts 3 and 5, docs/studies.md): /studies/<id>, a variation's moves and comments, the
seat's view of the sandbox, a form to play a move and one to comment. It acts as the identity this browser holds for
the study's game (api.pages.identities: the private links' cookie), else as a spectator. Opening a study from a game:
POST /games/<id>/studies (a form on any page may point there)."""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for

from domain import json_limits
from service.errors import BadInput, ServiceError
from service.studies.commands import StartStudy

from api.current import arbiter, studies

from . import identities

study_pages = Blueprint("study_pages", __name__)


@study_pages.errorhandler(ServiceError)
def service_error(e: ServiceError):
    return render_template("error.html", error=e, game_id=None), e.status


def _token(study_id: str) -> str | None:
    return identities.current(arbiter(), studies().game_of(study_id))


@study_pages.get("/studies/<study_id>")
def study(study_id: str):
    shown = studies().read(study_id, _token(study_id))
    return render_template("study.html", s=shown, entries=[json.dumps(m, sort_keys=True)
                                                          for m in shown["view"]["table"].get("legal_moves") or []])


@study_pages.post("/studies/<study_id>/move")
def move(study_id: str):
    text = request.form.get("move", "")
    try:
        raw = json_limits.loads(text)
    except ValueError:  # not JSON, or outside the JSON bounds (json_limits.LimitError)
        raise BadInput("move: write the move as JSON, e.g. {\"type\": \"pass\"}", field="move") from None
    studies().play(study_id, _token(study_id), raw)
    return redirect(url_for("study_pages.study", study_id=study_id), 303)


@study_pages.post("/studies/<study_id>/comment")
def comment(study_id: str):
    at = request.form.get("version", "")
    if not at.isdigit():
        raise BadInput("version: choose a position of the study", field="version")
    studies().comment(study_id, _token(study_id), int(at), request.form.get("text", ""))
    return redirect(url_for("study_pages.study", study_id=study_id), 303)


@study_pages.get("/games/<game_id>/studies/new")
def new_study(game_id: str):
    """The form that opens a study (the replay can link here with ?version=&seat=)."""
    facade = arbiter()
    token = identities.current(facade, game_id)
    public = facade.views.public(game_id, token)
    return render_template("study_new.html", game_id=game_id, public=public, version=request.args.get("version", ""),
                           seat=request.args.get("seat", ""))


@study_pages.post("/games/<game_id>/studies")
def open_study(game_id: str):
    version, seat = request.form.get("version", ""), request.form.get("seat", "")
    if not version.isdigit() or not seat.isdigit():
        raise BadInput("version and seat: whole numbers", field="version")
    body = {"version": int(version), "seat": int(seat), "seed": request.form.get("seed") or None,
            "every_seat": request.form.get("every_seat") == "on"}
    shown = studies().open(identities.current(arbiter(), game_id), StartStudy.from_body(game_id, body))
    return redirect(url_for("study_pages.study", study_id=shown["id"]), 303)
