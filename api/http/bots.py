"""Bot seats at live tables (issue 16): `POST /api/v1/games/{id}/bot` (the created page's "let a bot play" form is
api/pages/bots.py).

It takes a seat's own token and hands that seat to a bot the server plays (service.play.bot_seats), so a
person can practise against bots in the browser; `DELETE` with the same token takes the seat back, and so does the
referee's token with `?seat=N`. The route is on flask-smorest, so it is in the
OpenAPI document like every other route under /api/v1.
"""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api.current import arbiter

from . import schemas as s
from .games import bearer, errors_of

bots_blp = Blueprint("bots", __name__, url_prefix="/api/v1", description="Bot seats: a seat handed to a bot the server plays")


@bots_blp.route("/games/<game_id>/bot")
class SeatBot(MethodView):
    @bots_blp.arguments(s.BotRequest())
    @bots_blp.response(201, s.BotSeat)
    @errors_of(bots_blp, 401, 403, 404, 409, 422)
    def post(self, body, game_id):
        """Hand the bearer's seat to a bot the server plays from now on, through the seat's own token.

        `{"bot": "heuristic" | "random"}` (default heuristic; no body at all seats the heuristic bot). 401 without a
        token, 403 for any token but a seat's own (the referee's included), 422 an unknown bot, 409 a seat already
        played by a bot or a finished game. The seat is recorded in the store and played by whichever server process
        holds the game's lease: a restarted server, or another host, goes on playing it."""
        return arbiter().play.seat_bot(game_id, bearer(), body.get("bot", "heuristic")), 201

    @bots_blp.arguments(s.BotTakeBack(), location="query")
    @bots_blp.response(200, s.BotReleased)
    @errors_of(bots_blp, 401, 403, 404, 422)
    def delete(self, query, game_id):
        """Take a seat back from its bot: the bearer's own seat (the seat's token), or with the referee's token the
        seat `?seat=N` names, for its player. The bot makes no move after this answer reaches the duty loop (within a
        fraction of a second). 404 when no bot plays the seat, 422 a referee naming no seat of the game."""
        return arbiter().play.unseat_bot(game_id, bearer(), query.get("seat"))
