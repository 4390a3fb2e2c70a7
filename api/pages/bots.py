"""The created page's "let a bot play" form (issue 16): a bot the server plays takes the seat of a private link
(service.play.bot_seats; the JSON API's route is api/http/bots.py). A page like the others, on their blueprint: a
refusal (an unknown bot, a seat already played by one) is the error page, not problem+json."""

from __future__ import annotations

from flask import redirect, request, url_for

from api.current import arbiter

from .blueprint import pages


@pages.post("/join/<game_id>/<token>/bot")
def seat_bot_page(game_id: str, token: str):
    """The created page's form: a bot takes the seat of this private link; then the spectators' table."""
    arbiter().play.seat_bot(game_id, token, request.form.get("bot", "heuristic"))
    return redirect(url_for("pages.table", game_id=game_id))
