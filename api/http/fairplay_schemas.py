"""marshmallow schemas of the fair-play report's routes (docs/fairplay.md "Two stages", docs/api.md): the report job
of a tournament's finished games, its stage and progress, and once done the report: per player (and pair), the
screen's statistics, whether it referred them, and for the referred the full test's and whether a panel is asked.
Counts and p-values only: no move, no card."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .analysis_schemas import Queue

STATUS = ("queued", "running", "done", "failed", "cancelled", "empty", "unknown")


class StageProgress(Schema):
    done = fields.Integer(required=True, metadata={"description": "the stage's units done (the screen: scaled to the "
                                                                  "games' moves; the full test: decisions judged)"})
    total = fields.Integer(required=True, allow_none=True, metadata={"description": "the stage's units (null until "
                                                                                    "the job has read the games)"})


class Stage(Schema):
    """One stage's rank test of a player (or pair)."""

    decisions = fields.Integer(required=True, metadata={"description": "decisions judged in this stage"})
    rank_mean = fields.Float(required=True, allow_none=True,
                             metadata={"description": "the mean share of the played moves (honest play: 0.5)"})
    z = fields.Float(required=True, allow_none=True,
                     metadata={"description": "the statistic, in standard deviations (null: nothing tested)"})
    p_value = fields.Float(required=True, metadata={"description": "one-sided p-value of the rank test"})
    threshold = fields.Float(required=True, metadata={"description": "the screen: refers at or below it; the full "
                                                                     "test: asks a fair-play panel at or below it"})
    threshold_z = fields.Float(required=True, allow_none=True, metadata={"description": "the threshold as z"})
    passed = fields.Boolean(required=True, metadata={"description": "p-value at or below the threshold"})


class FullStage(Stage):
    """Stage two of a player: the rank test with the informative decisions' counts (a pair's has the rank test only)."""

    informative = fields.Integer(metadata={"description": "decisions where seeing every card changed the best move"})
    matched_perfect = fields.Integer(metadata={"description": "of those, the all-cards best played"})
    matched_own = fields.Integer(metadata={"description": "of those, the own-information best played"})
    sign_p = fields.Float(metadata={"description": "the sign test between the two (shown, never used to flag)"})


class Line(Schema):
    games = fields.Integer(required=True)
    screen = fields.Nested(Stage, required=True, metadata={"description": "stage one, run for everyone"})
    referred = fields.Boolean(required=True, metadata={"description": "the screen referred it to stage two"})
    full = fields.Nested(FullStage, required=True, allow_none=True,
                         metadata={"description": "stage two, for the referred only (null otherwise)"})
    panel = fields.Boolean(required=True, metadata={"description": "stage two asks a fair-play panel to review the "
                                                                   "games (never a verdict)"})
    reason = fields.String(required=True, metadata={"description": "the line in words"})


class PlayerLine(Line):
    player = fields.String(required=True)


class PairLine(Line):
    pair = fields.List(fields.String(), required=True, validate=validate.Length(equal=2))


class Thresholds(Schema):
    refer = fields.Float(required=True, metadata={"description": "the screen refers at or below this p-value"})
    refer_z = fields.Float(required=True, allow_none=True)
    panel = fields.Float(required=True, metadata={"description": "the full test asks a panel at or below this"})
    panel_z = fields.Float(required=True, allow_none=True)


class Report(Schema):
    games = fields.Integer(required=True, metadata={"description": "finished games screened"})
    settings = fields.Dict(required=True, metadata={"description": "both stages' precision, the seed, `refer`"})
    thresholds = fields.Nested(Thresholds, required=True)
    players = fields.List(fields.Nested(PlayerLine), required=True)
    pair_test = fields.Boolean(required=True, metadata={"description": "whether the games have a pair test (three or "
                                                                       "more seats)"})
    pairs = fields.List(fields.Nested(PairLine), required=True, metadata={"description": "every pair who sat together"})
    screen_judge = fields.String(metadata={"description": "how the screen judged a candidate move, in words: the "
                                                          "game's glance, or its rollouts (absent from older reports)"})
    calibrated = fields.Dict(keys=fields.String(), values=fields.String(),
                             metadata={"description": "by game title: how often the screen refers an honest player, "
                                                      "as measured over simulated honest players, in words, or that "
                                                      "it is not calibrated (absent from older reports)"})


class FairplayJob(Schema):
    """The report job of the tournament's finished games now."""

    status = fields.String(required=True, validate=validate.OneOf(STATUS),
                           metadata={"description": "`empty`: no game finished; `unknown`: nobody asked yet"})
    games = fields.Integer(required=True)
    stage = fields.String(required=True, allow_none=True, validate=validate.OneOf(("screen", "full")),
                          metadata={"description": "stage one (the screen) or two (the full test of the referred)"})
    progress = fields.Nested(StageProgress, required=True)
    queue = fields.Nested(Queue)
    error = fields.String()
    report = fields.Nested(Report, metadata={"description": "once done"})
