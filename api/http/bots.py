"""Bot seats at live tables (issue 16): `POST /api/v1/games/{id}/bot` and the created page's "let a bot play" form.

Both take a seat's own token and hand that seat to a bot the server plays (service.play.bot_seats), so a
person can practise against bots in the browser.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, request, url_for

from service.errors import BadInput

from api.current import arbiter

from .games import bearer

bots_blp = Blueprint("bots", __name__)


@bots_blp.post("/api/v1/games/<game_id>/bot")
def seat_bot(game_id: str):
    """Hand the bearer's seat to a bot: body `{"bot": "heuristic" | "random"}` (default heuristic) -> 201."""
    body = request.get_json(silent=True)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise BadInput("the body is a JSON object: {\"bot\": \"heuristic\"}", field="bot")
    return jsonify(arbiter().play.seat_bot(game_id, bearer(), body.get("bot", "heuristic"))), 201


@bots_blp.post("/join/<game_id>/<token>/bot")
def seat_bot_page(game_id: str, token: str):
    """The created page's form: a bot takes the seat of this private link; then the spectators' table."""
    arbiter().play.seat_bot(game_id, token, request.form.get("bot", "heuristic"))
    return redirect(url_for("pages.table", game_id=game_id))
