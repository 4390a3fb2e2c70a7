"""The tournament routes: create, edit or delete before round 1, enter players, start rounds, read tables, pairings and standings, the director's
links to every game, and the whole tournament as a JSON Lines bundle (`arbiter replay` verifies it)."""

from __future__ import annotations

from flask import Response, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from service.tournaments.commands import CreateTournament

from api.current import tournaments

from . import tournament_schemas as ts
from .games import bearer, errors_of

tournaments_blp = Blueprint("tournaments", __name__, url_prefix="/api/v1",
                            description="Tournaments: matches, rounds, pairings, standings, bundles")


def _errors(*codes):
    return errors_of(tournaments_blp, *codes)


@tournaments_blp.route("/tournaments")
class TournamentList(MethodView):
    @tournaments_blp.response(200, ts.TournamentSummary(many=True))
    def get(self):
        """Every tournament: id, name, game, format, players and status."""
        return tournaments().list()

    @tournaments_blp.arguments(ts.CreateTournament)
    @tournaments_blp.response(201, ts.TournamentCreated)
    @_errors(422)
    def post(self, spec):
        """Create a tournament; the answer holds the director's token (shown once) and the director's page link."""
        spec["players"] = [{k: v for k, v in p.items() if v is not None} for p in spec.get("players", [])]
        created = tournaments().create(CreateTournament.from_body(spec, within_bounds=True))  # (the body guard's)
        created["director_url"] = url_for("tournament_pages.director", tournament_id=created["id"],
                                          token=created["director_token"], _external=False)
        return created, 201, {"Location": url_for("tournaments.TournamentOne", tournament_id=created["id"])}


@tournaments_blp.route("/tournaments/<tournament_id>")
class TournamentOne(MethodView):
    @tournaments_blp.response(200, ts.Tournament)
    @_errors(404)
    def get(self, tournament_id):
        """The tournament: rounds, tables, pairings, games (dealer, starter and the clause that chose them, clocks
        where the games carry them), board commitments and standings. Due games are created first."""
        return tournaments().view(tournament_id)

    @tournaments_blp.arguments(ts.EditTournament)
    @tournaments_blp.response(200, ts.Tournament)
    @_errors(401, 403, 404, 409, 422)
    def patch(self, changes, tournament_id):
        """Change the settings of a tournament before round 1 (director only): name, game, options, format, games per
        table, rounds, duplicate, auto_rounds, spectator delay, time control; checked again with the players entered."""
        return tournaments().edit(tournament_id, bearer(), changes)

    @tournaments_blp.response(204)
    @_errors(401, 403, 404, 409)
    def delete(self, tournament_id):
        """Delete a tournament before round 1 (director only): it is no longer listed or shown (a `Deleted` event)."""
        tournaments().delete(tournament_id, bearer())
        return None


@tournaments_blp.route("/tournaments/<tournament_id>/players")
class TournamentPlayers(MethodView):
    @tournaments_blp.arguments(ts.Entrant)
    @tournaments_blp.response(201, ts.Tournament)
    @_errors(401, 403, 404, 409, 422)
    def post(self, player, tournament_id):
        """Enter a player (director only; before round 1)."""
        return tournaments().enter(tournament_id, bearer(), {k: v for k, v in player.items() if v is not None}), 201


@tournaments_blp.route("/tournaments/<tournament_id>/rounds")
class TournamentRounds(MethodView):
    @tournaments_blp.arguments(ts.StartRound, required=False)
    @tournaments_blp.response(201, ts.Tournament)
    @_errors(401, 403, 404, 409, 422)
    def post(self, body, tournament_id):
        """Start the next round (director only): its tables are drawn and their first games created. While disputes
        of earlier rounds await a ruling it is refused (409, field `confirm`, naming them) unless `confirm: true`."""
        body = body or {}
        return tournaments().start_round(tournament_id, bearer(), body.get("confirm", False), body.get("note")), 201


@tournaments_blp.route("/tournaments/<tournament_id>/rounds/<int:number>/review")
class TournamentRoundReview(MethodView):
    @tournaments_blp.arguments(ts.ReviewPairings)
    @tournaments_blp.response(200, ts.Tournament)
    @_errors(401, 403, 404, 409, 422)
    def post(self, body, tournament_id, number):
        """The director keeps a Swiss round's pairings made on a result a ruling has since reopened (director only),
        citing a clause or a note; recorded on the tournament."""
        return tournaments().review_pairings(tournament_id, bearer(), number, body["decision"], body.get("clause"),
                                             body.get("note"))


@tournaments_blp.route("/tournaments/<tournament_id>/boards/<board>/release")
class TournamentBoardRelease(MethodView):
    @tournaments_blp.response(200, ts.Tournament)
    @_errors(401, 403, 404, 409, 422)
    def post(self, tournament_id, board):
        """Release a duplicate board (director only): its finished games become public although a table has not
        finished it (an abandoned table). Until then they show nobody but the referee what was hidden in play."""
        return tournaments().release_board(tournament_id, bearer(), board)


@tournaments_blp.route("/tournaments/<tournament_id>/standings")
class TournamentStandings(MethodView):
    @tournaments_blp.response(200, ts.Standings)
    @_errors(404)
    def get(self, tournament_id):
        """The standings (a materialised projection of the tournament's and its games' events)."""
        return tournaments().standings(tournament_id)


@tournaments_blp.route("/tournaments/<tournament_id>/links")
class TournamentLinks(MethodView):
    @tournaments_blp.response(200, ts.TournamentLinks)
    @_errors(401, 403, 404)
    def get(self, tournament_id):
        """Every game's referee token and seat tokens (director only), to hand out each player's link."""
        return tournaments().links(tournament_id, bearer())


@tournaments_blp.route("/tournaments/<tournament_id>/bundle")
class TournamentBundle(MethodView):
    @tournaments_blp.response(200, content_type="application/jsonl",
                              description="JSON Lines: a header (arbiter.tournament/1), then one arbiter.record/1 per game")
    @tournaments_blp.doc(responses={200: {"content": {"application/jsonl": {"schema": {
        "type": "string", "description": "one JSON document a line"}}}}})
    @_errors(401, 403, 404)
    def get(self, tournament_id):
        """The whole tournament as JSON Lines, verified in one call by `arbiter replay X.jsonl`: the director's at
        any time, anyone's once the tournament is over."""
        body = "".join(tournaments().bundle(tournament_id, bearer()))
        return Response(body, mimetype="application/jsonl",
                        headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.jsonl"'})
