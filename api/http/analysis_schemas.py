"""marshmallow schemas of the computer analysis routes (docs/analysis.md "Over HTTP"): the request, a job, its lines."""

from __future__ import annotations

from marshmallow import Schema, fields, post_dump, validate

from domain.marks import MARKS
from service.analysis.jobs import DEFAULT_HTTP_SAMPLES, MAX_SAMPLES, SEED

MOVE = "a move as the record writes it (`type`, and `cards` where it has cards)"


class AnalysisRequest(Schema):
    """Whose decisions to analyse, how hard, and from which seed (the same seed gives the same lines)."""

    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=63),
                          metadata={"description": "the seat whose decisions are judged, from its own knowledge only"})
    samples = fields.Integer(load_default=DEFAULT_HTTP_SAMPLES, strict=True,
                             validate=validate.Range(min=1, max=MAX_SAMPLES),
                             metadata={"description": "at most this many sampled deals a move (the engine stops sooner "
                                                      "once the move's 95% interval is narrow enough)"})
    seed = fields.String(load_default="0", validate=validate.Regexp(SEED, error="1 to 64 letters, digits or . _ : -"),
                         metadata={"description": "the analysis' own seed", "example": "0"})


class Progress(Schema):
    done = fields.Integer(required=True, metadata={"description": "decisions judged (or skipped: a single candidate)"})
    total = fields.Integer(required=True, allow_none=True,
                           metadata={"description": "the seat's decisions (null until the job has read the game)"})


class Queue(Schema):
    position = fields.Integer(required=True, allow_none=True,
                              metadata={"description": "the job's place in the deployment's queue (1: taken next); "
                                                       "null once a worker runs it, or it ended"})
    estimate_seconds = fields.Float(required=True, allow_none=True,
                                    metadata={"description": "seconds until it should be done, from the measured cost "
                                                             "a decision of past jobs of this game and the jobs before "
                                                             "it; null once it ended"})


class CandidateMove(Schema):
    move = fields.Dict(required=True, metadata={"description": MOVE})
    value = fields.Float(required=True, metadata={"description": "the estimated outcome (win chance in points, or "
                                                                 "expected score: the line's `unit`)"})
    low = fields.Float(required=True, metadata={"description": "the 95% interval's low end"})
    high = fields.Float(required=True, metadata={"description": "the 95% interval's high end"})
    samples = fields.Integer(required=True)


class AnalysisLine(Schema):
    """One analysed decision (the CLI's `--json` line)."""

    decision = fields.Integer(required=True, metadata={"description": "its ordinal among the seat's decisions"})
    move_index = fields.Integer(required=True, metadata={"description": "its index among the game's moves"})
    version = fields.Integer(metadata={"description": "the game's version of the move made (a replay's permalink)"})
    seat = fields.Integer(required=True)
    unit = fields.String(required=True, metadata={"description": "win (points of win chance) or the game's score"})
    moves = fields.List(fields.Nested(CandidateMove), required=True, metadata={"description": "best first"})
    best = fields.Dict(required=True, metadata={"description": MOVE})
    played = fields.Dict(required=True, metadata={"description": MOVE})
    eval = fields.Float(required=True, metadata={"description": "the best move's value (the evaluation graph)"})
    played_value = fields.Float(required=True)
    loss = fields.Float(required=True, metadata={"description": "the best value less the played move's"})
    loss_low = fields.Float(metadata={"description": "what the move surely lost: the 95% lower bound of the loss "
                                                     "(paired samples), never above `loss` nor below 0; the mark is "
                                                     "earned on it"})
    mark = fields.String(allow_none=True, required=True,
                         validate=validate.OneOf(MARKS),
                         metadata={"description": "the highest threshold `loss_low` reaches (docs/analysis.md "
                                                  "\"Marks\"), or null"})

    @post_dump(pass_original=True)
    def keep_the_rest(self, data, original, **kwargs):
        """A line as the engine made it: a member not declared here is passed on, not dropped."""
        return {**{k: v for k, v in original.items() if k not in data}, **data}


class AnalysisJob(Schema):
    """An analysis job: its request, its state and progress; once `done`, its lines."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the game's version the job analyses"})
    seat = fields.Integer(required=True)
    samples = fields.Integer(required=True)
    seed = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["queued", "running", "done", "failed", "cancelled"]),
                           metadata={"description": "queued (waiting for a worker), running, done, failed, or "
                                                    "cancelled (by whoever started it, or the referee)"})
    progress = fields.Nested(Progress, required=True)
    queue = fields.Nested(Queue, required=True)
    analysed = fields.Integer(required=True, metadata={"description": "lines made (once done)"})
    started = fields.String(required=True, allow_none=True,
                            metadata={"description": "when a worker took it (null while queued)"})
    finished = fields.String(allow_none=True)
    error = fields.String(metadata={"description": "why a failed job failed, or that it was cancelled"})
    accuracy = fields.Float(allow_none=True,
                            metadata={"description": "once done: the seat's accuracy over the game, 0-100 (100: every "
                                                     "analysed move the best; docs/analysis.md \"Accuracy\"); null "
                                                     "when no decision was analysed"})
    lines = fields.List(fields.Nested(AnalysisLine),
                        metadata={"description": "once done: one line per analysed decision, in game order"})
    url = fields.String(metadata={"description": "where to poll the job (GET /api/v1/games/{id}/analysis/{job})"})
