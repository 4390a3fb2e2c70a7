"""The lobby (`/`): the catalogue of games and the form that creates one; then the private links of the new game,
on a page only the referee's browser opens."""

from __future__ import annotations

from flask import make_response, redirect, render_template, request, url_for

from service.errors import Forbidden, ServiceError

from api.current import arbiter

from . import identities
from .blueprint import held_identities, page_token, pages
from .forms import game_options
from .links import join_url


@pages.get("/")
def lobby():
    """Create a game; the catalogue of games."""
    return render_template("lobby.html", games=arbiter().lobby.catalogue(limit=100), kinds=arbiter().lobby.games())


@pages.post("/")
def create():
    """Create a game from the lobby form, then list the private links.

    Each game's options come from the fields named ``<game>.<option>`` (templates/_options.html draws
    them from the game's spec): several values make a list, digits an integer, an empty field is left out.
    """
    form = request.form
    game = form.get("game", "")
    names = [n.strip() for n in form.getlist("name") if n.strip()]
    teams = [t.strip() for t in form.getlist("team")][: len(names)]
    players = [{"name": n} | ({"team": t} if any(teams) and t else {}) for n, t in zip(names, teams + [""] * len(names))]
    options = game_options(form, game)
    spec = {"game": game, "options": options, "players": players}
    try:
        created = arbiter().play.create_game(spec)
    except ServiceError as e:
        return render_template("lobby.html", games=arbiter().lobby.catalogue(limit=100), kinds=arbiter().lobby.games(), error=e,
                               form=form), e.status
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
    links = {"seats": [{**s, "url": join_url(game_id, s["token"]) if s["token"] else None} for s in created["seats"]],
             "referee": join_url(game_id, created["referee_token"]),
             "table": url_for("pages.table", game_id=game_id, _external=True)}
    response = make_response(render_template("created.html", created=created, links=links, view=facade.views.public(game_id)))
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"  # the page holds every token of the game
    return response
