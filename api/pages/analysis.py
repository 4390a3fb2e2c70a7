"""The replay page's computer analysis (issue 27, docs/analysis.md "On the replay page"): the page's own same-origin
routes that start a job and poll it, acting as the identity this browser holds for the game (its cookie, as the
replay's positions.json does), through the same door as POST /api/v1/games/{id}/analysis
(service.analysis.jobs.AnalysisJobs), so the rules of who may analyse which seat, and the lines, are the API's.

The answers are the API's documents (api.http.analysis_schemas), and the refusals the API's problem+json, so that
static/analysis.js reads one shape. The body is JSON (a form from another site cannot send it without asking first).
"""

from __future__ import annotations

from flask import jsonify, request, url_for
from marshmallow import ValidationError

from service.errors import ServiceError

from api.current import arbiter
from api.http import analysis_schemas as schemas
from api.http.problems import problem, service_problem

from .blueprint import page_token, pages

REQUEST, JOB = schemas.AnalysisRequest(), schemas.AnalysisJob()


def _answer(job: dict, game_id: str, status: int = 200):
    url = url_for("pages.analysis_job", game_id=game_id, job_id=job["id"])
    response = jsonify(JOB.dump({**job, "url": url}))
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"  # one viewer's, and it changes while the job runs
    if status == 202:
        response.headers["Location"] = url
    return response


@pages.post("/games/<game_id>/replay/analysis")
def start_analysis(game_id: str):
    """Start (or find) the analysis of a seat's decisions as this browser's identity: {seat, samples?, seed?}."""
    body = request.get_json(silent=True) if request.is_json else None
    if not isinstance(body, dict):
        return problem(400, "Bad request", "send the request as a JSON object: {\"seat\": N, \"samples\": K}")
    try:
        wanted = REQUEST.load(body)
    except ValidationError as e:
        field, messages = next(iter(e.normalized_messages().items()))
        message = messages[0] if isinstance(messages, list) and messages else str(messages)
        return problem(422, "Invalid input", f"{field}: {message}", field=field)
    try:
        job = arbiter().analysis.start(game_id, page_token(game_id), address=request.remote_addr, **wanted)
    except ServiceError as e:
        return service_problem(e)
    return _answer(job, game_id, 202)


@pages.get("/games/<game_id>/replay/analysis/<job_id>")
def analysis_job(game_id: str, job_id: str):
    """An analysis job as this browser's identity may read it: status, progress and, once done, its lines."""
    try:
        return _answer(arbiter().analysis.job(game_id, page_token(game_id), job_id), game_id)
    except ServiceError as e:
        return service_problem(e)
