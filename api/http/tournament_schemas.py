"""Schemas of the tournament routes (docs/api.md, "Tournaments"); the rules themselves are checked by the service,
which names the field at fault."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from domain.games import first_game


class StrictBoolean(fields.Boolean):
    """true or false only (marshmallow's Boolean also takes 0, 1, "yes", ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class Entrant(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    team = fields.String(allow_none=True, validate=validate.Length(min=1, max=64))


class StartRound(Schema):
    confirm = StrictBoolean(load_default=False, metadata={
        "description": "start although disputes of earlier rounds await a ruling (refused with 409 naming them "
                       "without it); the confirmation is recorded on the tournament"})
    note = fields.String(allow_none=True, validate=validate.Length(max=500),
                         metadata={"description": "the director's note, recorded with the confirmation"})


class ReviewPairings(Schema):
    decision = fields.String(required=True, validate=validate.OneOf(["keep", "repair"]), metadata={
        "description": "keep: the round's pairings stand although a result they were made on was reopened; repair: "
                       "the round (the last, none of its games begun, the reopened games over again) drawn anew, "
                       "its games voided"})
    clause = fields.String(allow_none=True, validate=validate.Length(max=500))
    note = fields.String(allow_none=True, validate=validate.Length(max=500))


class CreateTournament(Schema):
    name = fields.String(validate=validate.Length(min=1, max=80), metadata={"example": "Club night"})
    game = fields.String(required=True, metadata={"example": first_game()})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    players = fields.List(fields.Nested(Entrant), load_default=list, validate=validate.Length(max=64))
    format = fields.String(validate=validate.OneOf(["match", "round-robin", "swiss", "teams"]),
                           metadata={"description": "match: everyone at one table; round-robin and swiss: pairs; "
                                                    "teams: two teams a table, seats rotated each round"})
    games_per_table = fields.Integer(allow_none=True, strict=True,
                                     metadata={"description": "games each table plays per round (default: the rulebook's "
                                                              "match length, e.g. BA-5.2 one deal per player, else 1)"})
    rounds = fields.Integer(allow_none=True, strict=True, metadata={"description": "Swiss rounds, or team rounds"})
    duplicate = StrictBoolean(metadata={"description": "deal each board's seed at every table of a round"})
    auto_rounds = StrictBoolean(metadata={"description": "start each round when the last game of the round before ends "
                                                         "(default false: the director starts every round)"})
    spectator_delay = fields.Dict(allow_none=True, metadata={"description": '{"moves": N} or {"seconds": S}, for every game'})
    time_control = fields.Dict(allow_none=True, metadata={"description": '{"game_seconds": N} and/or {"move_seconds": N}'})


class EditTournament(Schema):
    """The settings to change before round 1 (any of them; null sets one back to its default)."""

    name = fields.String(validate=validate.Length(min=1, max=80))
    game = fields.String()
    options = fields.Dict(keys=fields.String())
    format = fields.String(validate=validate.OneOf(["match", "round-robin", "swiss", "teams"]))
    games_per_table = fields.Integer(allow_none=True, strict=True)
    rounds = fields.Integer(allow_none=True, strict=True)
    duplicate = StrictBoolean()
    auto_rounds = StrictBoolean()
    spectator_delay = fields.Dict(allow_none=True)
    time_control = fields.Dict(allow_none=True)


class Standing(Schema):
    class Meta:
        unknown = INCLUDE

    rank = fields.Integer(required=True)
    player = fields.Integer()
    name = fields.String()
    team = fields.String(allow_none=True)
    played = fields.Integer()
    won = fields.Integer()
    lost = fields.Integer()
    drawn = fields.Integer()
    byes = fields.Integer()
    points = fields.Float()
    score = fields.Integer(allow_none=True)
    buchholz = fields.Float()
    head_to_head = fields.Float()
    matchpoints = fields.Float()
    provisional = fields.List(fields.Integer(allow_none=True), metadata={
        "description": "the rounds of this player's provisional results (a finished game a ruling reopened)"})


class TeamStanding(Schema):
    rank = fields.Integer(required=True)
    team = fields.String()
    members = fields.List(fields.String())
    played = fields.Integer()
    won = fields.Integer()
    lost = fields.Integer()
    drawn = fields.Integer()
    points = fields.Float()
    score = fields.Integer(allow_none=True)


class ProvisionalResult(Schema):
    round = fields.Integer(allow_none=True)
    table = fields.Integer(allow_none=True)
    game_id = fields.String(allow_none=True)
    players = fields.List(fields.String())


class Standings(Schema):
    rank_by = fields.String(metadata={"description": "points, score (BA-5.2) or matchpoints (duplicate)"})
    order = fields.List(fields.String(), metadata={
        "description": "the keys the rows are sorted by, in order (the first is rank_by, then the tie-breaks)"})
    legend = fields.String(metadata={"description": "that order in words, as the page shows it"})
    provisional = fields.List(fields.Nested(ProvisionalResult), metadata={
        "description": "results counted as recorded while their game, reopened by a ruling, is played again"})
    players = fields.List(fields.Nested(Standing))
    teams = fields.List(fields.Nested(TeamStanding))


class Tournament(Schema):
    """A tournament as anyone may see it (no token, no seed of a board still being played)."""

    class Meta:
        unknown = INCLUDE

    id = fields.String(required=True)
    name = fields.String()
    game = fields.String()
    options = fields.Dict()
    format = fields.String()
    duplicate = fields.Boolean()
    games_per_table = fields.Integer(allow_none=True)
    rounds = fields.Raw(metadata={"description": "[{number, pairing, byes, boards, reopened (games a ruling returned "
                                                 "to play), confirmed_open_disputes, tables: [{table, players, games "
                                                 "(each with reopened, provisional)}]}]"})
    rounds_total = fields.Integer(allow_none=True)
    rounds_given = fields.Integer(allow_none=True, metadata={"description": "the rounds the settings name (null: the "
                                                                            "format's own number, rounds_total)"})
    spectator_delay = fields.Dict(allow_none=True)
    time_control = fields.Dict(allow_none=True)
    players = fields.List(fields.Nested(Entrant))
    status = fields.String(metadata={"description": "entering, playing or finished"})
    finished = fields.String(allow_none=True)
    can_start_round = fields.Boolean()
    auto_rounds = fields.Boolean(metadata={"description": "rounds start by themselves (absent: the director starts them)"})
    between_rounds = fields.Boolean(metadata={"description": "the last round is over and the next not started yet"})
    standings = fields.Nested(Standings)
    open_disputes = fields.List(fields.Dict(), metadata={
        "description": "games with disputes awaiting a ruling: [{round, table, game_id, numbers}] (a round started "
                       "over them needs confirm: true)"})
    pairings_to_review = fields.List(fields.Dict(), metadata={
        "description": "Swiss rounds paired on a result a ruling has since reopened: [{round, games: [{round, table, "
                       "game_id, players, status: reopened|ended again}]}], until the director reviews them"})
    pairings_reviewed = fields.List(fields.Dict(), metadata={
        "description": "the director's decisions on flagged pairings: [{round, decision: keep|repair, games, clause, "
                       "note, voided?}]"})
    crosstable = fields.Raw(metadata={"description": "[{player, name, cells, byes}] in standings order: cells[k] the "
                                                     "marks (1, ½, 0, · in play) against the k-th player, null for oneself"})


class TournamentCreated(Schema):
    id = fields.String(required=True)
    director_token = fields.String(required=True, metadata={"description": "shown once: keep it"})
    director_url = fields.String()
    tournament = fields.Nested(Tournament)


class TournamentSummary(Schema):
    id = fields.String()
    name = fields.String()
    game = fields.String()
    format = fields.String()
    players = fields.Integer()
    status = fields.String()


class GameLinks(Schema):
    round = fields.Integer()
    table = fields.Integer()
    index = fields.Integer()
    game_id = fields.String()
    referee_token = fields.String()
    seats = fields.List(fields.Dict())


class TournamentLinks(Schema):
    id = fields.String()
    games = fields.List(fields.Nested(GameLinks))
