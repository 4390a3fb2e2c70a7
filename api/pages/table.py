"""The table: a seat's own view with its controls, the referee's or a spectator's; the private links that open it,
its live part, a move from its controls, a seat's name, and its live updates."""

from __future__ import annotations

from flask import current_app, make_response, redirect, render_template, request, url_for

from service.errors import ServiceError
from service.play.commands import NameSeat

from api.current import arbiter
from api.http.stream import resume_point, sse_response

from . import identities
from .blueprint import page_token, page_view, pages
from .forms import move_command


# A request header of table.js: answer a refused move's panel with 200 and its status in `X-Arbiter-Status` (the
# panel shows the refusal; a 422 would be logged by the browser as "Failed to load resource" on every refusal).
# Without it (a plain form post, any other client) a refusal is answered with its own status.
REFUSAL_IN_HEADER = "X-Arbiter-Refusal-In-Header"


@pages.get("/join/<game_id>/<token>")
def join(game_id: str, token: str):
    """Keep a private link's token in a cookie for this game and open the table."""
    viewer = arbiter().access.viewer(game_id, token)
    others = [t for t in identities.held_tokens(game_id) if t != token]
    key = "referee" if viewer.role == "referee" else str(viewer.seat)
    # a browser that already holds another identity of the game opens this one by name (its other tabs keep theirs)
    response = make_response(redirect(url_for("pages.table", game_id=game_id, **({"as": key} if others else {}))))
    identities.remember(response, game_id, token)
    response.headers["Referrer-Policy"] = "no-referrer"
    current_app.logger.debug("joined as %s", viewer.role)
    return response


@pages.get("/leave/<game_id>")
def leave(game_id: str):
    """Forget this game's tokens: watch as a spectator."""
    response = make_response(redirect(url_for("pages.table", game_id=game_id)))
    identities.forget(response, game_id)
    return response


def told(facade, game_id: str, token: str | None, view: dict) -> dict:
    """What the table tells besides the view: its story and news (ViewsFacade.table_story) and `bots`, the seats bots
    play now ({seat: bot kind}: public, as a player at a club sees who sits at the table)."""
    return {**facade.views.table_story(game_id, token, view), "bots": facade.play.bots_at(game_id)}


@pages.get("/games/<game_id>")
def table(game_id: str):
    """The table: a seat's own view with its controls, the referee's, or a spectator's."""
    facade, token, viewer, view = page_view(game_id)
    return render_template("table.html", view=view, viewer=viewer, error=None, **told(facade, game_id, token, view))


@pages.get("/games/<game_id>/panel")
def panel(game_id: str):
    """The table's live part (swapped in by table.js on every event)."""
    facade, token, viewer, view = page_view(game_id)
    return render_template("_panel.html", view=view, viewer=viewer, error=None, **told(facade, game_id, token, view))


@pages.post("/games/<game_id>/act")
def act(game_id: str):
    """A seat's move from the table's controls; an illegal one is shown next to them with its clause."""
    facade, token, viewer, _ = page_view(game_id)
    error, receipt = None, None
    try:
        receipt = facade.play.move(token, move_command(game_id, request.form)).get("receipt")
    except ServiceError as e:
        error = e
        if getattr(e, "promise", None):  # a kept refusal: the log's promise to publish it, kept with the receipts
            receipt = {"attempt": e.attempt, "promise": e.promise}
    view = facade.views.view(game_id, token) if token else facade.views.public(game_id)
    template = "_panel.html" if request.headers.get("X-Arbiter-Partial") else "table.html"
    page = render_template(template, view=view, viewer=viewer, error=error, receipt=receipt,
                           **told(facade, game_id, token, view))
    status = error.status if error else 200
    if request.headers.get(REFUSAL_IN_HEADER):  # table.js: a browser logs every 4xx it fetches as a console error
        return page, 200, {"X-Arbiter-Status": str(status)}
    return page, status


@pages.post("/games/<game_id>/name")
def rename(game_id: str):
    """A seat gives the name it plays under; every table shows it from the next event on."""
    facade, token, viewer, view = page_view(game_id)
    named = NameSeat.from_body(game_id, {"name": request.form.get("name", "")})
    facade.play.name_seat(token, named)  # an error is the error page, with a way back
    return redirect(url_for("pages.table", game_id=game_id), 303)


@pages.get("/games/<game_id>/live")
def live(game_id: str):
    """Server-sent events for the table page (the cookie's viewer)."""
    facade = arbiter()
    token = page_token(game_id)
    facade.access.viewer(game_id, token)
    return sse_response(facade, game_id, token, resume_point(), float(current_app.config.get("STREAM_SECONDS", 300)),
                        named=False)
