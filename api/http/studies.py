"""The study routes (issue 27 parts 3 and 5, docs/studies.md): open a "what if" study at a version of a game, read
it by its permalink, play its variation, comment on its positions. Thin: service.studies decides."""

from __future__ import annotations

from flask import url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from service.studies.commands import StartStudy

from api.current import studies

from . import study_schemas as ss
from .games import bearer, errors_of

studies_blp = Blueprint("studies", __name__, url_prefix="/api/v1",
                        description="Studies: variations from a seat's knowledge, in a sandbox, with comments")


def _errors(*codes):
    return errors_of(studies_blp, *codes)


@studies_blp.route("/games/<game_id>/studies")
class GameStudies(MethodView):
    @studies_blp.arguments(ss.OpenStudy)
    @studies_blp.response(201, ss.StudyView)
    @_errors(401, 403, 404, 422)
    def post(self, body, game_id):
        """Open a study at `version` for `seat`: a sandbox sampled from what that seat knew (never the real hidden
        cards), where the bots play the other seats (or the user every seat, with `every_seat`). A seat for its own
        seat once the game is over; a spectator once it is over; the referee always."""
        shown = studies().open(bearer(), StartStudy.from_body(game_id, body))
        return shown, 201, {"Location": url_for("studies.StudyOne", study_id=shown["id"])}


@studies_blp.route("/studies/<study_id>")
class StudyOne(MethodView):
    @studies_blp.response(200, ss.StudyView)
    @_errors(401, 403, 404)
    def get(self, study_id):
        """The study: its positions (moves, who made them, comments) and the seat's view of the sandbox now."""
        return studies().read(study_id, bearer())


@studies_blp.route("/studies/<study_id>/nodes/<int:node>")
class StudyNode(MethodView):
    @studies_blp.response(200, ss.StudyView)
    @_errors(401, 403, 404, 422)
    def get(self, study_id, node):
        """The study at one node of its tree: its view, its legal moves, and the whole tree."""
        return studies().read(study_id, bearer(), node)


@studies_blp.route("/studies/<study_id>/nodes/<int:node>/moves")
class StudyNodeMoves(MethodView):
    @studies_blp.arguments(ss.PlayStudyMove)
    @studies_blp.response(200, ss.StudyView)
    @_errors(401, 403, 404, 409, 422)
    def post(self, body, study_id, node):
        """Play a move at a node (the game's decider judges it), then the bots' answers: a move the node has
        already leads to that child, another starts a new branch there. The answer is the study at the node
        reached."""
        return studies().play(study_id, bearer(), body["move"], node)


@studies_blp.route("/studies/<study_id>/moves")
class StudyMoves(MethodView):
    @studies_blp.arguments(ss.PlayStudyMove)
    @studies_blp.response(200, ss.StudyView)
    @_errors(401, 403, 404, 409, 422)
    def post(self, body, study_id):
        """Play a move at the end of the main line (the game's decider judges it), then the bots' answers."""
        return studies().play(study_id, bearer(), body["move"])


@studies_blp.route("/studies/<study_id>/comments")
class StudyComments(MethodView):
    @studies_blp.arguments(ss.StudyComment)
    @studies_blp.response(201, ss.StudyView)
    @_errors(401, 403, 404, 422)
    def post(self, body, study_id):
        """Comment on a node of the study (a seat's token once the game is over, or the referee's)."""
        return studies().comment(study_id, bearer(), body.get("node", body.get("version")), body["text"]), 201
