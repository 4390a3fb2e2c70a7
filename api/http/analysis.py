"""The computer analysis routes (docs/analysis.md "Over HTTP"): start a job, poll it; the job logic is the service's
(service.analysis.jobs), its progress also goes out on the game's stream (`analysis_progress`)."""

from __future__ import annotations

from flask import request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from api.current import arbiter

from . import analysis_schemas as a
from . import schemas as s
from .games import bearer

analysis_blp = Blueprint("analysis", __name__, url_prefix="/api/v1",
                         description="Computer analysis of a seat's decisions, honest about hidden cards")
POLL = {"Location": {"description": "where to poll the job", "schema": {"type": "string"}}}
RETRY = {"Retry-After": {"description": "seconds to wait before asking again", "schema": {"type": "integer"}}}
ERRORS = {401: "Bad or missing token", 404: "No such game (or job)",
          403: "Outside what this caller may analyse: another seat's decisions, a game not over yet (seats and "
               "spectators), a token of another game",
          422: "Invalid input (seat, samples, seed), or a game that offers no computer analysis",
          429: "Too many jobs queued or running (for this caller, for its address, or in the deployment's queue)"}


def _errors(*codes):
    def wrap(f):
        for code in codes:
            f = analysis_blp.alt_response(code, schema=s.Problem, description=ERRORS[code], headers=RETRY if code == 429
                                          else None, content_type="application/problem+json")(f)
        return f
    return wrap


@analysis_blp.route("/games/<game_id>/analysis")
class Analyses(MethodView):
    @analysis_blp.arguments(a.AnalysisRequest())
    @analysis_blp.response(202, a.AnalysisJob, headers=POLL)
    @_errors(401, 403, 404, 422, 429)
    def post(self, body, game_id):
        """Start the computer analysis of a seat's decisions (or find the same request's job): poll `url`; the
        caller's stream of the game also tells its progress (`analysis_progress` messages)."""
        job = arbiter().analysis.start(game_id, bearer(), address=request.remote_addr, **body)
        url = url_for("analysis.AnalysisJob", game_id=game_id, job_id=job["id"])
        return {**job, "url": url}, 202, {"Location": url}


@analysis_blp.route("/games/<game_id>/analysis/<job_id>")
class AnalysisJob(MethodView):
    @analysis_blp.response(200, a.AnalysisJob)
    @_errors(401, 403, 404)
    def get(self, game_id, job_id):
        """An analysis job: status, progress (decisions done / total), its place in the queue and an estimate of its
        seconds, and once done its lines (kept in the store: the same answer from any server of the deployment)."""
        return arbiter().analysis.job(game_id, bearer(), job_id)

    @analysis_blp.response(200, a.AnalysisJob)
    @_errors(401, 403, 404)
    def delete(self, game_id, job_id):
        """Cancel an analysis job, queued or running: whoever started it (the same token) or the game's referee. A
        running job is stopped by its worker within about a second; a job already ended is answered as it is."""
        return arbiter().analysis.cancel(game_id, bearer(), job_id, address=request.remote_addr)
