"""The replay page's computer analysis (issue 27, docs/analysis.md "On the replay page"): the page's own same-origin
routes that start a job and poll it, acting as the identity this browser holds for the game (its cookie, as the
replay's positions.json does), through the same door as POST /api/v1/games/{id}/analysis
(service.analysis.jobs.AnalysisJobs), so the rules of who may analyse which seat, and the lines, are the API's.

Who asks, for the limits and the cancel: the identity's token; a browser without one (a spectator) is told apart
from the other browsers of its address by an id of its own, kept in the cookie `arbiter-asker` (random, HttpOnly,
SameSite=Strict; set on its first analysis), so that the visitors of one address do not share one slot.

The answers are the API's documents (api.http.analysis_schemas), and the refusals the API's problem+json, so that
static/analysis.js reads one shape. The body is JSON (a form from another site cannot send it without asking first).
"""

from __future__ import annotations

import secrets

from flask import jsonify, request, url_for
from marshmallow import ValidationError

from service.errors import ServiceError

from api.current import arbiter
from api.http import analysis_schemas as schemas
from api.http.problems import problem, service_problem

from .blueprint import page_token, pages

REQUEST, JOB = schemas.AnalysisRequest(), schemas.AnalysisJob()
ASKER = "arbiter-asker"


def _asker() -> tuple[str, bool]:
    """This browser's own anonymous id, and whether it is new (to be set on the answer)."""
    held = request.cookies.get(ASKER, "")
    if 16 <= len(held) <= 64 and held.replace("-", "").replace("_", "").isalnum():
        return held, False
    return secrets.token_urlsafe(18), True


def _keep(response, asker: str, new: bool):
    if new:
        response.set_cookie(ASKER, asker, httponly=True, samesite="Strict", max_age=365 * 24 * 3600,
                            secure=request.is_secure)
    return response


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
    asker, new = _asker()
    try:
        job = arbiter().analysis.start(game_id, page_token(game_id), address=request.remote_addr, anonymous=asker,
                                       **wanted)
    except ServiceError as e:
        return _keep(service_problem(e), asker, new)
    return _keep(_answer(job, game_id, 202), asker, new)


@pages.get("/games/<game_id>/replay/analysis/<job_id>")
def analysis_job(game_id: str, job_id: str):
    """An analysis job as this browser's identity may read it: status, progress and, once done, its lines."""
    try:
        return _answer(arbiter().analysis.job(game_id, page_token(game_id), job_id), game_id)
    except ServiceError as e:
        return service_problem(e)


@pages.post("/games/<game_id>/replay/analysis/<job_id>/cancel")
def cancel_analysis(game_id: str, job_id: str):
    """Cancel an analysis job as this browser's identity: whoever started it (this token, or this browser) or the
    referee."""
    asker, _ = _asker()
    try:
        job = arbiter().analysis.cancel(game_id, page_token(game_id), job_id, address=request.remote_addr,
                                        anonymous=asker)
    except ServiceError as e:
        return service_problem(e)
    return _answer(job, game_id)
