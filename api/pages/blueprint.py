"""The pages' blueprint and what every page shares: the token a page acts with, the viewer and view it draws,
the identities for the switcher, and an error met on a page drawn as a page.

A seat's or the referee's private link `/join/<game>/<token>` stores the token in
an HttpOnly, SameSite=Strict cookie for that game and redirects to the table, so
pages render each viewer's own view on the server. No token: a spectator. A browser
may hold several identities of a game and pick one per page (api.pages.identities).

The pages know no game. Each game's part of a page is the template partial its spec names
(api.pages.game_partials; `games/_generic.html` for a game without one), told which part to draw by
`part` ("turn", "table", "controls"), and optionally a script `static/games/<game id>.js`
(loaded when it exists, see api.pages.filters `game_script`). The lobby draws each game's options from its spec
(`templates/_options.html`). The contract a partial fulfils is in docs/architecture.md.

The routes live in one module per page (lobby, table, audit, disputes, replay, bots), each on this blueprint, so their
endpoints are `pages.*`; the app factory imports them all before registering it.
"""

from __future__ import annotations

from flask import Blueprint, g, render_template, request
from jinja2 import ChoiceLoader

from service.errors import ServiceError

from api.current import arbiter

from . import identities
from .rules import read_under
from .game_partials import GamePartials, game_partial

pages = Blueprint("pages", __name__, template_folder="../templates", static_folder="../static",
                  static_url_path="/static")
pages.jinja_loader = ChoiceLoader([pages.jinja_loader, GamePartials()])  # each game's partial, where its spec says
pages.add_app_template_global(game_partial)


def page_token(game_id) -> str | None:
    """The token this page acts with (the identity `?as=` picks among those this browser holds), or None."""
    return identities.current(arbiter(), game_id)


pages.url_defaults(identities.keep_identity)


@pages.app_template_global()
def held_identities() -> list:
    """The identities this browser holds for the page's game (api.pages.identities), for the switcher."""
    return g.get("arbiter_identities") or []


@pages.app_template_global()
def acting_as() -> str | None:
    """The key of the identity the page acts as (`0`, `referee`, `spectator`), once chosen."""
    return g.get("arbiter_as")


def _render_error(e: ServiceError):
    return render_template("error.html", error=e, game_id=(request.view_args or {}).get("game_id")), e.status


@pages.errorhandler(ServiceError)
def service_error(e: ServiceError):
    return _render_error(e)


def page_view(game_id: str):
    """The facade, the page's token, its viewer and the view it draws (a seat's or the referee's; else the public one)."""
    facade = arbiter()
    token = page_token(game_id)
    viewer = facade.access.viewer(game_id, token)
    view = facade.views.view(game_id, token) if token else facade.views.public(game_id)
    read_under(view["game"], view["options"])  # its clause links open the rulebook in the game's edition
    return facade, token, viewer, view

