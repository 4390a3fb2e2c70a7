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
    node = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_POSITION),
                          metadata={"description": "the node commented on (0 the study's start)"})
    version = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_POSITION),
                             metadata={"description": "the node, under its first name (in a study of one line, "
                                                      "node k is the position after its k-th move); `node` wins"})
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_COMMENT),
                         metadata={"description": f"plain text, at most {MAX_COMMENT} characters"})


class Comment(Schema):
    at = fields.Integer(metadata={"description": "the node it is on"})
    author = fields.String()
    text = fields.String()


class Node(Schema):
    id = fields.Integer(metadata={"description": "the node's number: 0 the start, then in the order they were added"})
    parent = fields.Integer(allow_none=True, metadata={"description": "the node this move was played at (none: the start)"})
    ply = fields.Integer(metadata={"description": "moves from the start"})
    move = fields.Dict(allow_none=True, metadata={"description": "the move (a bot's: its type and seat only, in a "
                                                                  "study of one seat)"})
    by = fields.String(allow_none=True, metadata={"description": "user or bot"})
    text = fields.String(allow_none=True, metadata={"description": "the move in words; a bot's as the study's seat "
                                                                   "saw it"})
    children = fields.List(fields.Integer(), metadata={"description": "the first continues the line, the others "
                                                                       "are its branches"})
    comments = fields.List(fields.Nested(Comment))


class Position(Schema):
    at = fields.Integer(metadata={"description": "the node"})
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
    teams = fields.List(fields.String(allow_none=True), metadata={"description": "the players' teams, by seat"})
    options = fields.Dict(metadata={"description": "the game's options (its edition, ...)"})
    seed = fields.String()
    every_seat = fields.Boolean()
    by = fields.String()
    node = fields.Integer(metadata={"description": "the node shown (its view, its legal moves)"})
    node_permalink = fields.String(metadata={"description": "the page that opens the study at this node"})
    nodes = fields.List(fields.Nested(Node), metadata={"description": "the whole tree, by node number"})
    path = fields.List(fields.Integer(), metadata={"description": "the nodes from the start to the one shown"})
    line = fields.List(fields.Integer(), metadata={"description": "the line through the node shown, to its end"})
    positions = fields.List(fields.Nested(Position), metadata={"description": "the nodes of `line`"})
    may_comment = fields.Boolean(metadata={"description": "whether this caller may comment (a seat or the referee)"})
    to_act = fields.List(fields.Integer())
    over = fields.Boolean()
    result = fields.String(allow_none=True)
    winner = fields.Dict(allow_none=True)
    view = fields.Dict(metadata={"description": "{seat, table}: that seat's projection of the sandbox"})
