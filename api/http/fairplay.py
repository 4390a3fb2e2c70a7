"""The fair-play report's routes (docs/fairplay.md, docs/api.md): the tournament's director starts (or finds) the
report job of its finished games, polls it and, once done, reads the report in two stages; or cancels it. REFEREE
ONLY: the director's token, as the desk's fair-play page (api/pages/desk.py); the job is service.fairplay.jobs."""

from __future__ import annotations

from flask import request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from api.current import fairplay

from . import fairplay_schemas as f
from . import schemas as s
from .games import bearer

fairplay_blp = Blueprint("fairplay", __name__, url_prefix="/api/v1",
                         description="Fair play: a tournament's report in two stages, for its director only")
POLL = {"Location": {"description": "where to poll the job", "schema": {"type": "string"}}}
RETRY = {"Retry-After": {"description": "seconds to wait before asking again", "schema": {"type": "integer"}}}
ERRORS = {401: "Bad or missing token", 403: "Not this tournament's director", 404: "No such tournament",
          422: "The tournament's game offers no computer analysis (no fair-play report without it)",
          429: "Too many jobs queued or running (for this caller, for its address, or in the deployment's queue)"}


def _errors(*codes):
    def wrap(fn):
        for code in codes:
            fn = fairplay_blp.alt_response(code, schema=s.Problem, description=ERRORS[code],
                                           headers=RETRY if code == 429 else None,
                                           content_type="application/problem+json")(fn)
        return fn
    return wrap


@fairplay_blp.route("/tournaments/<tournament_id>/fairplay")
class Fairplay(MethodView):
    @fairplay_blp.response(202, f.FairplayJob, headers=POLL)
    @_errors(401, 403, 404, 422, 429)
    def post(self, tournament_id):
        """Start the fair-play report of the tournament's finished games (or find it): the screen over every player
        and pair, then the full test of those it refers. Poll `GET` on the same path."""
        job = fairplay().start(tournament_id, bearer(), address=request.remote_addr)
        return job, 202, {"Location": url_for("fairplay.Fairplay", tournament_id=tournament_id)}

    @fairplay_blp.response(200, f.FairplayJob)
    @_errors(401, 403, 404, 422)
    def get(self, tournament_id):
        """The report job of the tournament's finished games now: status, stage and its progress, place in the queue
        and estimate, and once done the report (kept in the store). Starts nothing: `unknown` until asked."""
        return fairplay().progress(tournament_id, bearer())

    @fairplay_blp.response(200, f.FairplayJob)
    @_errors(401, 403, 404, 422)
    def delete(self, tournament_id):
        """Cancel the report job, queued or running; a job already ended is answered as it is."""
        return fairplay().cancel(tournament_id, bearer())
