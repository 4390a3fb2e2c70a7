"""Open seats on the pages: the referee offers (or withdraws) a seat on the links page; anyone takes an offered seat
from the lobby's list and plays it (its token kept in this browser, as a private link would). The list shows no
token; taking hands out the offered seat's link only, once (service/play/seat_offers.py)."""

from __future__ import annotations

from flask import make_response, redirect, request, url_for

from service.errors import Forbidden

from api.current import arbiter

from . import identities
from .blueprint import held_identities, page_token, pages


def _referee_token(game_id: str) -> str:
    page_token(game_id)  # the identities this browser holds
    referee = next((i for i in held_identities() if i.role == "referee"), None)
    if referee is None:
        raise Forbidden("only the referee offers a seat: this browser holds no referee link of this game")
    return referee.token


def _seat(value: str) -> int | str:
    return int(value) if value.isdigit() and len(value) < 4 else value


@pages.post("/games/<game_id>/offers")
def offer_seat(game_id: str):
    """The links page's form: offer a seat to anyone (`seat`), or take it off offer (`withdraw`)."""
    token = _referee_token(game_id)
    seat = _seat(request.form.get("seat", ""))
    if request.form.get("withdraw"):
        arbiter().play.open_seats.withdraw(game_id, token, seat)
    else:
        arbiter().play.open_seats.offer(game_id, token, seat)
    return redirect(url_for("pages.links", game_id=game_id), 303)


@pages.post("/games/<game_id>/offers/<int:seat>/take")
def take_seat(game_id: str, seat: int):
    """The lobby's "take this seat": the seat's token kept in this browser, then its table."""
    token = arbiter().play.open_seats.take(game_id, seat)
    response = make_response(redirect(url_for("pages.table", game_id=game_id), 303))
    identities.remember(response, game_id, token)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
