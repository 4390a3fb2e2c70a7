"""The lobby (`/`): the catalogue of games and the form that creates one; then the private links of the new game,
on a page only the referee's browser opens."""

from __future__ import annotations

from flask import make_response, redirect, render_template, request, url_for

from service.errors import Forbidden, ServiceError

from api.current import arbiter

from . import identities
from .blueprint import held_identities, page_token, pages
from .forms import clock_start, game_options
from .links import join_url
from .qr import qr_svg
from service.play.new_games import CreateGame


def _lobby_page(**extra) -> str:
    games = arbiter().lobby.catalogue(limit=100)
    return render_template("lobby.html", games=games, kinds=arbiter().lobby.games(),
                           open_seats=arbiter().play.open_seats.listed(games), bots=arbiter().play.bots_of(games), **extra)


@pages.get("/")
def lobby():
    """Create a game; the seats offered to anyone; the catalogue of games."""
    return _lobby_page()


@pages.post("/")
def create():
    """Create a game from the lobby form, then list the private links.

    Each game's options come from the fields named ``<game>.<option>`` (templates/_options.html draws
    them from the game's spec): several values make a list, digits an integer, an empty field is left out.
    The clocks start at the game's first move unless the form's "clocks start" says otherwise (docs/clocks.md).
    """
    form = request.form
    game = form.get("game", "")
    names = [n.strip() for n in form.getlist("name") if n.strip()]
    teams = [t.strip() for t in form.getlist("team")][: len(names)]
    players = [{"name": n} | ({"team": t} if any(teams) and t else {}) for n, t in zip(names, teams + [""] * len(names))]
    options = game_options(form, game)
    spec = {"game": game, "options": options, "players": players, "time_control": {"start": clock_start(form)}}
    try:
        created = arbiter().play.create_game(CreateGame.from_body(spec))
    except ServiceError as e:
        return _lobby_page(error=e, form=form), e.status
    # POST/redirect/GET: the links get an address of their own; reloading it creates nothing
    response = make_response(redirect(url_for("pages.links", game_id=created["id"]), 303))
    identities.remember(response, created["id"], created["referee_token"])
    return response


@pages.get("/games/<game_id>/links")
def links(game_id: str):
    """The private links of a game, on a page only the referee's browser opens (the referee's token recomputes them)."""
    facade = arbiter()
    page_token(game_id)  # the switcher's identities
    referee = next((i for i in held_identities() if i.role == "referee"), None)
    if referee is None:
        raise Forbidden("the private links are the referee's: this browser holds no referee link of this game "
                        "(open the referee's link here first)")
    created = facade.play.links(game_id, referee.token)
    seats = [{**s, "url": join_url(game_id, s["token"]) if s["token"] else None} for s in created["seats"]]
    links = {"seats": [{**s, "qr": qr_svg(s["url"], f"QR code of {s['name']}'s link") if s["url"] else None} for s in seats],
             "referee": join_url(game_id, created["referee_token"]),
             "table": url_for("pages.table", game_id=game_id, _external=True)}
    links["table_qr"] = qr_svg(links["table"], "QR code of the spectators' link")
    response = make_response(render_template("created.html", created=created, links=links, view=facade.views.public(game_id),
                                             offered=facade.play.open_seats.offered(game_id, referee.token),
                                             bots=facade.play.bots_at(game_id)))
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"  # the page holds every token of the game
    return response
