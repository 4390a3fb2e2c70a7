"""The created page's "let a bot play" form (issue 16): a bot the server plays takes the seat of a private link
(service.play.bot_seats; the JSON API's route is api/http/bots.py), and the form that takes a seat back from its bot:
the referee's for any bot seat (the links page, the table), a seat's own for itself (the table). Pages like the
others, on their blueprint: a refusal (an unknown bot, a seat no bot plays) is the error page, not problem+json."""

from __future__ import annotations

from flask import redirect, request, url_for

from api.current import arbiter

from .blueprint import page_token, pages


@pages.post("/join/<game_id>/<token>/bot")
def seat_bot_page(game_id: str, token: str):
    """The created page's form: a bot takes the seat of this private link; then the spectators' table."""
    arbiter().play.seat_bot(game_id, token, request.form.get("bot", "heuristic"))
    return redirect(url_for("pages.table", game_id=game_id))


@pages.post("/games/<game_id>/bots/<int:seat>/release")
def take_back_bot_page(game_id: str, seat: int):
    """The referee (any bot seat) or the seat itself takes the seat back from its bot, as this browser's identity for
    the game; then back to the page the form was on (the links page or the table)."""
    arbiter().play.unseat_bot(game_id, page_token(game_id), seat)
    back = "pages.links" if request.form.get("back") == "links" else "pages.table"
    return redirect(url_for(back, game_id=game_id), 303)
