"""marshmallow schemas of the study routes (issue 27 parts 3 and 5, docs/studies.md)."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from service.bounds import MAX_POSITION
from service.studies.commands import MAX_SEED
from service.studies.facade import MAX_COMMENT


class OpenStudy(Schema):
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_POSITION),
                             metadata={"description": "the game's store version the study starts from"})
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=64),
                          metadata={"description": "the seat whose knowledge the sandbox is sampled from"})
    seed = fields.String(validate=validate.Length(min=1, max=MAX_SEED), allow_none=True,
                         metadata={"description": "samples the hidden cards and the sandbox's chance (random if left out)"})
    every_seat = fields.Boolean(load_default=False,
                                metadata={"description": "the user plays every seat in turn; else the bots play the others"})


class StudyMove(Schema):
    class Meta:
        unknown = INCLUDE  # a game's own move fields are checked by its decider

    type = fields.String(required=True, validate=validate.Length(min=1, max=32))
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=64))


class PlayStudyMove(Schema):
    move = fields.Nested(StudyMove, required=True)


class StudyComment(Schema):
    version = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_POSITION),
                             metadata={"description": "the study's position: 0 its start, k after its k-th move"})
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_COMMENT),
                         metadata={"description": f"plain text, at most {MAX_COMMENT} characters"})


class Comment(Schema):
    at = fields.Integer()
    author = fields.String()
    text = fields.String()


class Position(Schema):
    at = fields.Integer()
    move = fields.Dict(allow_none=True)
    by = fields.String(allow_none=True, metadata={"description": "user or bot"})
    comments = fields.List(fields.Nested(Comment))
    text = fields.String(metadata={"description": "the move in words, players by name (absent at the start)"})


class StudyView(Schema):
    id = fields.String()
    permalink = fields.String()
    label = fields.String()
    variation = fields.Boolean()
    game_id = fields.String()
    game = fields.String()
    title = fields.String()
    version = fields.Integer()
    seat = fields.Integer()
    players = fields.List(fields.String(), metadata={"description": "the players' names, by seat"})
    seed = fields.String()
    every_seat = fields.Boolean()
    by = fields.String()
    positions = fields.List(fields.Nested(Position))
    to_act = fields.List(fields.Integer())
    over = fields.Boolean()
    result = fields.String(allow_none=True)
    winner = fields.Dict(allow_none=True)
    view = fields.Dict(metadata={"description": "{seat, table}: that seat's projection of the sandbox"})
