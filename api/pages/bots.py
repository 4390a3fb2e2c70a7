"""The created page's "let a bot play" form (issue 16): a bot the server plays takes the seat of a private link
(service.play.bot_seats; the JSON API's route is api/http/bots.py)."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for

from api.current import arbiter

bot_pages = Blueprint("bot_pages", __name__)


@bot_pages.post("/join/<game_id>/<token>/bot")
def seat_bot_page(game_id: str, token: str):
    """The created page's form: a bot takes the seat of this private link; then the spectators' table."""
    arbiter().play.seat_bot(game_id, token, request.form.get("bot", "heuristic"))
    return redirect(url_for("pages.table", game_id=game_id))
