"""The study page (issue 27 parts 3 and 5, issue 36 part 7, docs/studies.md): /studies/<id> and a node's permalink
/studies/<id>/nodes/<n>. The node's position is drawn with the table's own panel (templates/_panel.html: the game's
partial, its hand and controls, the same table.js), beside it the tree of variations, the node's comments and the
analysis's candidates when an analysis of that position exists. A move from the controls is played at the node: a
refusal comes back in place with its clause, as at the table; an accepted one opens the node it reached. It acts as
the identity this browser holds for the study's game (api.pages.identities: the private links' cookie), else as a
spectator (who may play variations but sees no comment form). Opening a study from a game: POST /games/<id>/studies."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from service.errors import BadInput, ServiceError
from service.studies.commands import StartStudy

from api.current import arbiter, studies

from . import identities
from .forms import move_body
from .rules import read_under
from .study_candidates import candidates
from .study_tree import tree_rows
from .table import REFUSAL_IN_HEADER

study_pages = Blueprint("study_pages", __name__)
study_pages.add_app_template_global(tree_rows)


@study_pages.errorhandler(ServiceError)
def service_error(e: ServiceError):
    return render_template("error.html", error=e, game_id=None), e.status


def _token(study_id: str) -> str | None:
    return identities.current(arbiter(), studies().game_of(study_id))


def board_view(s: dict) -> dict:
    """The study's node as the table's panel reads a game's view (templates/_panel.html)."""
    players = [{"seat": i, "name": name, "team": team} for i, (name, team) in enumerate(zip(s["players"], s["teams"]))]
    return {"id": s["game_id"], "game": s["game"], "title": s["title"], "version": s["version"],
            "options": s["options"], "players": players, "status": "finished" if s["over"] else "playing",
            "result": s["result"], "winner": s["winner"], "table": s["view"]["table"], "disputes": []}


def _page(s: dict, token: str | None, partial: bool = False, error: ServiceError | None = None,
          comment_error: ServiceError | None = None, draft: str = ""):
    read_under(s["game"], s["options"])  # its clause links open the rulebook in the game's edition
    template = "_study_panel.html" if partial else "study.html"
    return render_template(template, s=s, view=board_view(s), viewer={"role": "seat", "seat": s["view"]["seat"]},
                           error=error, comment_error=comment_error, draft=draft, study=True,
                           act_url=url_for("study_pages.move_at", study_id=s["id"], node=s["node"]),
                           candidates=candidates(s, token))


def _answer(study_id: str, token: str | None, done, node: int | None, refused_key: str):
    """A form's answer: the study at the node reached (a page, or table.js's panel with X-Arbiter-Location), or the
    same node with the refusal in place (its status, or 200 and X-Arbiter-Status for table.js)."""
    partial = bool(request.headers.get("X-Arbiter-Partial"))
    try:
        shown = done()
    except ServiceError as e:
        if e.status in (401, 403, 404) and refused_key == "error":
            raise
        shown = studies().read(study_id, token, node)
        page = _page(shown, token, partial, draft=request.form.get("text", ""), **{refused_key: e})
        if request.headers.get(REFUSAL_IN_HEADER):
            return page, 200, {"X-Arbiter-Status": str(e.status)}
        return page, e.status
    where = url_for("study_pages.study_at", study_id=shown["id"], node=shown["node"])
    if not partial:
        return redirect(where, 303)
    return _page(shown, token, True), 200, {"X-Arbiter-Location": where}


@study_pages.get("/studies/<study_id>")
def study(study_id: str):
    """The study at the end of its main line."""
    token = _token(study_id)
    return _page(studies().read(study_id, token), token)


@study_pages.get("/studies/<study_id>/nodes/<int:node>")
def study_at(study_id: str, node: int):
    """A node's permalink: the study opened at that node."""
    token = _token(study_id)
    return _page(studies().read(study_id, token, node), token)


def _play(study_id: str, node: int | None):
    token = _token(study_id)

    def done():
        body = move_body(request.form)
        if body is None:
            raise BadInput("move: write the move as JSON, e.g. {\"type\": \"pass\"}", field="move")
        return studies().play(study_id, token, body, node)

    return _answer(study_id, token, done, node, "error")


@study_pages.post("/studies/<study_id>/move")
def move(study_id: str):
    """A move at the end of the main line (the form of studies before the tree)."""
    return _play(study_id, None)


@study_pages.post("/studies/<study_id>/nodes/<int:node>/move")
def move_at(study_id: str, node: int):
    """A move from the board's controls at a node: the node's own child when it has that move, else a new branch."""
    return _play(study_id, node)


def _comment(study_id: str, at: str):
    token = _token(study_id)
    node = int(at) if at.isdigit() and len(at) < 7 else None

    def done():
        if node is None:
            raise BadInput("node: choose a position of the study", field="node")
        return studies().comment(study_id, token, node, request.form.get("text", ""))

    return _answer(study_id, token, done, node, "comment_error")


@study_pages.post("/studies/<study_id>/comment")
def comment(study_id: str):
    """A comment on the node named by the form's `node` (or `version`, its first name)."""
    return _comment(study_id, request.form.get("node", request.form.get("version", "")))


@study_pages.post("/studies/<study_id>/nodes/<int:node>/comment")
def comment_at(study_id: str, node: int):
    """A comment on a node, from the form beside its board."""
    return _comment(study_id, str(node))


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
