"""The browser pages: lobby, table, replay, audit and disputes, on the same facade as the API.

A seat's or the referee's private link `/join/<game>/<token>` stores the token in
an HttpOnly, SameSite=Strict cookie for that game and redirects to the table, so
pages render each viewer's own view on the server. No token: a spectator. A browser
may hold several identities of a game and pick one per page (api.identities).

The pages know no game. Each game's part of a page is the template partial its spec names
(api.game_partials; `games/_generic.html` for a game without one), told which part to draw by
`part` ("turn", "table", "controls"), and optionally a script `static/games/<game id>.js`
(loaded when it exists, see `game_script`). The lobby draws each game's options from its spec
(`templates/_options.html`). The contract a partial fulfils is in docs/architecture.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup, escape

from flask import Blueprint, Response, current_app, g, make_response, redirect, render_template, request, url_for
from jinja2 import ChoiceLoader

from domain import json_limits

from service.errors import BadInput, Forbidden, ServiceError

from . import identities
from .game_partials import GamePartials, game_partial
from .links import join_url
from .routes import arbiter
from .stream import resume_point, sse_response

pages = Blueprint("pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static")
pages.jinja_loader = ChoiceLoader([pages.jinja_loader, GamePartials()])  # each game's partial, where its spec says
pages.add_app_template_global(game_partial)
SUIT = {"C": ("♣", "black", "clubs"), "D": ("♦", "red", "diamonds"), "H": ("♥", "red", "hearts"), "S": ("♠", "black", "spades")}
RANK = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")
STATIC = Path(__file__).resolve().parent / "static"
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        '<rect x="5" y="2" width="22" height="28" rx="4" fill="#fff" stroke="#1f5f3f" stroke-width="2"/>'
        '<path d="M16 7c3 4 7 6 7 10a4 4 0 0 1-6 3l1 4h-4l1-4a4 4 0 0 1-6-3c0-4 4-6 7-10z" fill="#1f5f3f"/></svg>')


@pages.app_template_filter("card")
def card_parts(card: str) -> dict:
    """Rank, suit symbol, colour and a spoken name of a card string; a string that is no card is shown as it is."""
    card = str(card)
    if card == "JK":
        return {"text": card, "rank": "Joker", "symbol": "★", "colour": "joker", "label": "joker"}
    if len(card) != 2 or card[1] not in SUIT:
        return {"text": card, "rank": card, "symbol": "", "colour": "black", "label": card}
    rank, suit = card[0], card[1]
    symbol, colour, name = SUIT[suit]
    return {"text": card, "rank": "10" if rank == "T" else rank, "symbol": symbol, "colour": colour,
            "label": f"{RANK.get(rank, rank)} of {name}"}


@pages.app_template_filter("with_cards")
def with_cards(text: str) -> Markup:
    """A line of narration with each card code written as a player reads it (``TH`` -> ``10♥``, in its colour)."""
    def card(m: re.Match) -> str:
        p = card_parts(m.group(0))
        return f'<span class="card-inline {p["colour"]}" title="{p["label"]}">{p["rank"]}{p["symbol"]}</span>'

    return Markup(CARD_CODE.sub(card, str(escape(text))))


@pages.app_template_filter("card_suit")
def card_suit(letter: str) -> str:
    """A suit letter as its symbol and name, e.g. ``♠ spades``."""
    symbol, _, name = SUIT.get(letter, ("", "", letter))
    return f"{symbol} {name}".strip()


@pages.app_template_global()
def server_now() -> str:
    """The server's time now (ISO 8601, UTC): the clocks' panel runs running clocks on from it (docs/clocks.md)."""
    from datetime import datetime, timezone

    from service.facade import server_ms

    return datetime.fromtimestamp(server_ms() / 1000, tz=timezone.utc).isoformat()


@pages.app_template_global()
def game_script(game: str) -> str | None:
    """The URL of a game's own script `static/games/<game>.js`, or None when it has none."""
    if not isinstance(game, str) or not GAME_ID.fullmatch(game) or not (STATIC / "games" / f"{game}.js").is_file():
        return None
    return url_for("pages.static", filename=f"games/{game}.js")


@pages.app_template_global()
def icon_url() -> str:
    """The page icon as a data: URL (base.html links it; no request)."""
    return "data:image/svg+xml," + quote(ICON)


@pages.get("/favicon.ico")
def favicon():
    """The icon for browsers that ask /favicon.ico whatever the page links."""
    return Response(ICON, mimetype="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


def page_token(game_id) -> str | None:
    """The token this page acts with (the identity `?as=` picks among those this browser holds), or None."""
    return identities.current(arbiter(), game_id)


pages.url_defaults(identities.keep_identity)


@pages.app_template_global()
def held_identities() -> list:
    """The identities this browser holds for the page's game (api.identities), for the switcher."""
    return g.get("arbiter_identities") or []


@pages.app_template_global()
def acting_as() -> str | None:
    """The key of the identity the page acts as (`0`, `referee`, `spectator`), once chosen."""
    return g.get("arbiter_as")


@pages.app_template_filter("actor")
def actor_name(actor, view) -> str:
    """An audit actor (`seat:1`, `referee`, `engine`) as a person reads it: the seat's player name."""
    if isinstance(actor, str) and actor.startswith("seat:") and actor[5:].isdigit():
        seat = int(actor[5:])
        players = view.get("players") or []
        return players[seat]["name"] if seat < len(players) else f"seat {seat}"
    return {"referee": "Referee", "engine": "arbiter", None: ""}.get(actor, str(actor))


def _render_error(e: ServiceError):
    return render_template("error.html", error=e, game_id=(request.view_args or {}).get("game_id")), e.status


@pages.errorhandler(ServiceError)
def service_error(e: ServiceError):
    return _render_error(e)


@pages.get("/")
def lobby():
    """Create a game; the catalogue of games."""
    return render_template("lobby.html", games=arbiter().catalogue(limit=100), kinds=arbiter().games())


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
    options: dict = {}
    for field in form:
        if not field.startswith(f"{game}."):
            continue
        values = [_scalar(v) for v in form.getlist(field) if v.strip()]
        name = field.split(".", 1)[1]
        if name.endswith("[]"):
            options[name[:-2]] = values
        elif values:
            options[name] = values[0]
    spec = {"game": game, "options": options, "players": players}
    try:
        created = arbiter().create_game(spec)
    except ServiceError as e:
        return render_template("lobby.html", games=arbiter().catalogue(limit=100), kinds=arbiter().games(), error=e,
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
    created = facade.links(game_id, referee.token)
    links = {"seats": [{**s, "url": join_url(game_id, s["token"]) if s["token"] else None} for s in created["seats"]],
             "referee": join_url(game_id, created["referee_token"]),
             "table": url_for("pages.table", game_id=game_id, _external=True)}
    response = make_response(render_template("created.html", created=created, links=links, view=facade.public(game_id)))
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"  # the page holds every token of the game
    return response


def _scalar(value: str):
    value = value.strip()
    if value == "true":  # a ticked checkbox of a game's options (an option of kind bool)
        return True
    return int(value) if value.isdigit() and len(value) < 7 else value


@pages.get("/join/<game_id>/<token>")
def join(game_id: str, token: str):
    """Keep a private link's token in a cookie for this game and open the table."""
    viewer = arbiter().viewer(game_id, token)
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


def _view(game_id: str):
    facade = arbiter()
    token = page_token(game_id)
    viewer = facade.viewer(game_id, token)
    view = facade.view(game_id, token) if token else facade.public(game_id)
    return facade, token, viewer, view


def _talk(facade, game_id: str, token: str | None, upto: int | None = None) -> list[dict]:
    """The last table talk (public to all), newest last."""
    said = [e for e in facade.events(game_id, token) if e["type"] == "said" and (upto is None or e["version"] <= upto)]
    return said[-8:]


@pages.get("/games/<game_id>")
def table(game_id: str):
    """The table: a seat's own view with its controls, the referee's, or a spectator's."""
    facade, token, viewer, view = _view(game_id)
    return render_template("table.html", view=view, viewer=viewer, error=None, talk=_talk(facade, game_id, token))


@pages.get("/games/<game_id>/panel")
def panel(game_id: str):
    """The table's live part (swapped in by table.js on every event)."""
    facade, token, viewer, view = _view(game_id)
    return render_template("_panel.html", view=view, viewer=viewer, error=None, talk=_talk(facade, game_id, token))


def move_body(form) -> dict:
    """The JSON body of POST /api/v1/games/{id}/moves that a table form stands for.

    - `move`: a whole move as a JSON object (a button of `legal_move_buttons`), sent as it is;
    - else `type`, `cards` (the ticked card boxes; an empty list too when `type` is one of the
      space-separated `card_moves`), `text` for a `say`, and each non-empty `move.<field>` as
      `<field>` (digits as an integer);
    - `expected_version` with either.
    """
    if form.get("move"):
        try:
            body = json_limits.loads(form["move"])
        except ValueError:  # json_limits.LimitError: not JSON, too deep, a number out of range
            body = None
        if not isinstance(body, dict):
            raise BadInput("move: must be a JSON object with a type", field="move")
    else:
        body = {"type": form.get("type", "")}
        # the game's partial names the move types that carry cards (an empty choice is then an empty list)
        if form.getlist("cards") or body["type"] in form.get("card_moves", "").split():
            body["cards"] = form.getlist("cards")
        if body["type"] == "say":
            body["text"] = form.get("text", "")
        for field, value in form.items():  # the game's own move fields (target, amount, source, ...)
            if field.startswith("move.") and field.endswith("[]"):  # a list, as strings in form order
                body[field[5:-2]] = [v.strip() for v in form.getlist(field)]
            elif field.startswith("move.") and value.strip():
                name, _, sub = field[5:].partition(".")
                if sub:  # move.<field>.<key>: an object field (e.g. a lowering's card and rank)
                    body.setdefault(name, {})[sub] = value.strip()
                else:
                    body[name] = _scalar(value)
    if form.get("expected_version"):
        version = form["expected_version"]
        body["expected_version"] = int(version) if version.isdigit() and len(version) <= 16 else version
    return body


@pages.post("/games/<game_id>/act")
def act(game_id: str):
    """A seat's move from the table's controls; an illegal one is shown next to them with its clause."""
    facade, token, viewer, _ = _view(game_id)
    error, receipt = None, None
    try:
        receipt = facade.move(game_id, token, move_body(request.form)).get("receipt")
    except ServiceError as e:
        error = e
    view = facade.view(game_id, token) if token else facade.public(game_id)
    template = "_panel.html" if request.headers.get("X-Arbiter-Partial") else "table.html"
    return render_template(template, view=view, viewer=viewer, error=error, talk=_talk(facade, game_id, token),
                           receipt=receipt), (error.status if error else 200)


@pages.post("/games/<game_id>/name")
def rename(game_id: str):
    """A seat gives the name it plays under; every table shows it from the next event on."""
    facade, token, viewer, view = _view(game_id)
    facade.name_seat(game_id, token, request.form.get("name", ""))  # an error is the error page, with a way back
    return redirect(url_for("pages.table", game_id=game_id), 303)


@pages.get("/games/<game_id>/live")
def live(game_id: str):
    """Server-sent events for the table page (the cookie's viewer)."""
    facade = arbiter()
    token = page_token(game_id)
    facade.viewer(game_id, token)
    return sse_response(facade, game_id, token, resume_point(), float(current_app.config.get("STREAM_SECONDS", 300)),
                        named=False)


@pages.get("/games/<game_id>/audit")
def audit(game_id: str):
    """The audit page: chain status, fair deal, every event, rejected attempts, disclosures, rewinds (a seat or a
    spectator sees, while the game runs, what it may see of them)."""
    facade = arbiter()
    token = page_token(game_id)
    log = facade.audit_page(game_id, token)
    checks = facade.verify(game_id)
    return render_template("audit.html", log=log, checks=checks, view=facade.public(game_id), viewer=facade.viewer(game_id, token),
                           key=facade.public_key())


@pages.get("/games/<game_id>/disputes")
def disputes(game_id: str):
    """The dispute log; a seat files, the referee rules."""
    _, _, viewer, view = _view(game_id)
    return render_template("disputes.html", view=view, viewer=viewer, error=None)


@pages.post("/games/<game_id>/disputes")
def file_dispute(game_id: str):
    """A seat files a dispute against the move at a version, or against the refusal of its attempt (`attempt`)."""
    facade, token, viewer, _ = _view(game_id)
    body = {"claim": request.form.get("claim", "")}
    for field in ("version", "attempt"):
        value = request.form.get(field, "").strip()
        if value:
            body[field] = int(value) if value.isdigit() else value
    try:
        facade.file_dispute(game_id, token, body)
    except ServiceError as e:
        return render_template("disputes.html", view=_view(game_id)[3], viewer=viewer, error=e, form=request.form), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)


@pages.post("/games/<game_id>/disputes/<int:number>/ruling")
def rule(game_id: str, number: int):
    """The referee rules on a dispute (and may rewind)."""
    facade, token, viewer, _ = _view(game_id)
    form = request.form
    try:
        facade.rule_dispute(game_id, token, number, {"decision": form.get("decision"), "remedy": form.get("remedy", "none"),
                                                     "note": form.get("note", "")})
    except ServiceError as e:
        return render_template("disputes.html", view=_view(game_id)[3], viewer=viewer, error=e, form=request.form), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)


from . import replay_page  # noqa: E402,F401  (the replay viewer's routes, on this blueprint)
