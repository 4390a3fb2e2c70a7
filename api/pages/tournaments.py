"""The tournament pages: the list and the creation form, a tournament's page (rounds, tables, pairings, games,
standings, clocks where the games carry them), and for the director (whose token this browser keeps in a cookie
of its own, like a game's identities) entering players, editing or deleting the tournament before round 1, starting
rounds (a refusal shown on the page), every game's private links and the bundle."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for

from service.store.server_clock import server_ms

from service.errors import BadInput, Conflict, Forbidden, ServiceError, Unauthorized
from service.tournaments.commands import CreateTournament

from api.current import arbiter, tournaments

from .forms import clock_start, game_options
from .links import join_url
from .room import FILTERS, mmss, room_of

tournament_pages = Blueprint("tournament_pages", __name__)
COOKIE = "arbiter_td_"  # + the tournament id's hex: the director token, for this browser only


@tournament_pages.errorhandler(ServiceError)
def service_error(e: ServiceError):
    return render_template("error.html", error=e, game_id=None), e.status


def _director_token(tournament_id: str) -> str | None:
    token = request.cookies.get(COOKIE + tournament_id.replace("-", ""))
    return token or None


def _is_director(tournament_id: str) -> bool:
    token = _director_token(tournament_id)
    if token is None:
        return False
    try:
        tournaments()._director(tournament_id, token)
    except ServiceError:
        return False
    return True


def _remember(response, tournament_id: str, token: str):
    response.set_cookie(COOKIE + tournament_id.replace("-", ""), token, httponly=True, samesite="Strict",
                        path="/tournaments/", max_age=60 * 60 * 24 * 60)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _players_of(text: str) -> list[dict]:
    """One player a line: `name`, or `name / team`."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, _, team = line.partition("/")
        out.append({"name": name.strip()} | ({"team": team.strip()} if team.strip() else {}))
    return out


def _int_or_none(value: str | None):
    value = (value or "").strip()
    return int(value) if value.isdigit() and len(value) < 7 else (value or None)


def _index_page(**extra) -> str:
    return render_template("tournaments.html", tournaments=tournaments().list(), kinds=arbiter().lobby.games(),
                           formats=tournaments().formats(), **extra)


@tournament_pages.get("/tournaments")
def index():
    """Every tournament, and the form that creates one."""
    return _index_page(deleted=bool(request.args.get("deleted")))


@tournament_pages.post("/tournaments")
def create():
    """Create a tournament from the form: its settings from the tournament spec's fields, the game's options from
    the fields its spec draws (`<game>.<option>`, as the lobby's), the players one a line."""
    form = request.form
    game = form.get("game", "")
    spec: dict = {"name": form.get("name", "").strip() or "Tournament", "game": game,
                  "format": form.get("format", "match"), "players": _players_of(form.get("players", "")),
                  "duplicate": form.get("duplicate") == "on", "auto_rounds": form.get("auto_rounds") == "on",
                  "options": game_options(form, game)}
    for key in ("games_per_table", "rounds"):
        if _int_or_none(form.get(key)) is not None:
            spec[key] = _int_or_none(form.get(key))
    for key, unit in (("delay_moves", ("spectator_delay", "moves")), ("move_seconds", ("time_control", "move_seconds")),
                      ("game_seconds", ("time_control", "game_seconds"))):
        value = _int_or_none(form.get(key))
        if value is not None:
            spec.setdefault(unit[0], {})[unit[1]] = value
    spec.setdefault("time_control", {})["start"] = clock_start(form)  # docs/clocks.md: the first move by default
    try:
        created = tournaments().create(CreateTournament.from_body(spec))
    except ServiceError as e:
        return _index_page(error=e, form=form), e.status
    response = make_response(redirect(url_for("tournament_pages.show", tournament_id=created["id"], created=1), 303))
    return _remember(response, created["id"], created["director_token"])


@tournament_pages.get("/tournaments/<tournament_id>/director/<token>")
def director(tournament_id: str, token: str):
    """The director's private link: keeps the token in this browser and opens the tournament."""
    tournaments()._director(tournament_id, token)
    response = make_response(redirect(url_for("tournament_pages.show", tournament_id=tournament_id)))
    return _remember(response, tournament_id, token)


@tournament_pages.get("/tournaments/<tournament_id>")
def show(tournament_id: str):
    return _show(tournament_id)


def _show(tournament_id: str, error: ServiceError | None = None, refused: ServiceError | None = None,
          review: dict | None = None):
    """The tournament's page; `error`: a director's refused command shown above its controls (and its status);
    `refused`: a director's "start round" refused over open disputes, shown as the step that lists them and asks to
    confirm; `review`: a refused review of flagged pairings, shown beside its form with what the director wrote."""
    view = tournaments().view(tournament_id)
    is_director = _is_director(tournament_id)
    links = None
    if is_director:
        token = _director_token(tournament_id)
        links = {g["game_id"]: {"referee": join_url(g["game_id"], g["referee_token"]),
                                "seats": [{**s, "url": join_url(g["game_id"], s["token"])} for s in g["seats"]]}
                 for g in tournaments().links(tournament_id, token)["games"]}
        director_link = url_for("tournament_pages.director", tournament_id=tournament_id, token=token, _external=True)
    else:
        director_link = None
    show = request.args.get("show", "all")
    response = make_response(render_template("tournament.html", t=view, director=is_director, links=links,
                                             director_link=director_link, just_created=bool(request.args.get("created")),
                                             confirm_round=refused, review=review, formats=tournaments().formats(), error=error,
                                             room=room_of(view, server_ms()), show=show if show in FILTERS else "all",
                                             filters=FILTERS, mmss=mmss,
                                             game_title=next((k["title"] for k in arbiter().lobby.games() if k["id"] == view["game"]),
                                                             view["game"])),
                             error.status if error else
                             200 if refused is None and review is None else 409 if review is None else review["status"])
    if is_director:
        response.headers["Cache-Control"] = "no-store"  # the page holds every game's tokens
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


def director_or_refuse(tournament_id: str) -> str:
    """The director token this browser keeps for the tournament, checked; raises 401/403/404 otherwise."""
    token = _director_token(tournament_id)
    if token is None:
        raise Unauthorized("this browser holds no director link of this tournament (open the director's link first)")
    tournaments()._director(tournament_id, token)
    return token


@tournament_pages.post("/tournaments/<tournament_id>/players")
def enter(tournament_id: str):
    token = director_or_refuse(tournament_id)
    name, team = request.form.get("name", ""), request.form.get("team", "").strip()
    tournaments().enter(tournament_id, token, {"name": name} | ({"team": team} if team else {}))
    return redirect(url_for("tournament_pages.show", tournament_id=tournament_id), 303)


@tournament_pages.post("/tournaments/<tournament_id>/rounds")
def start_round(tournament_id: str):
    """Start the next round; a refusal (too few players for a table, ...) is shown on the tournament's page, whose
    controls (enter a player, edit the settings, delete) can put it right."""
    token = director_or_refuse(tournament_id)
    try:
        tournaments().start_round(tournament_id, token, request.form.get("confirm") == "1", request.form.get("note"))
    except Conflict as e:
        if e.field == "confirm":
            return _show(tournament_id, refused=e)  # the confirmation step: the open disputes, and "start anyway"
        return _show(tournament_id, e)
    except BadInput as e:
        return _show(tournament_id, e)
    return redirect(url_for("tournament_pages.show", tournament_id=tournament_id), 303)


@tournament_pages.post("/tournaments/<tournament_id>/rounds/<int:number>/review")
def review_pairings(tournament_id: str, number: int):
    """The director keeps a round's pairings made on a result a ruling reopened (service/tournaments/rulings.py)."""
    token = director_or_refuse(tournament_id)
    form = request.form
    try:
        tournaments().review_pairings(tournament_id, token, number, form.get("decision", ""), form.get("clause"),
                                      form.get("note"))
    except (BadInput, Conflict) as e:  # the form again, as written, with the reason
        return _show(tournament_id, review={"round": number, "detail": e.detail, "status": e.status,
                                            "clause": form.get("clause", ""), "note": form.get("note", "")})
    return redirect(url_for("tournament_pages.show", tournament_id=tournament_id), 303)


@tournament_pages.post("/tournaments/<tournament_id>/settings")
def edit(tournament_id: str):
    """Change the settings before round 1 (the director's form: name, format, games per table, rounds; an empty
    number field sets it back to its default)."""
    token = director_or_refuse(tournament_id)
    form = request.form
    changes: dict = {"name": form.get("name", "").strip() or "Tournament", "format": form.get("format", "match")}
    for key in ("games_per_table", "rounds"):
        changes[key] = _int_or_none(form.get(key))
    try:
        tournaments().edit(tournament_id, token, changes)
    except (BadInput, Conflict) as e:
        return _show(tournament_id, e)
    return redirect(url_for("tournament_pages.show", tournament_id=tournament_id), 303)


@tournament_pages.post("/tournaments/<tournament_id>/delete")
def delete(tournament_id: str):
    """Delete the tournament before round 1 (the box "delete it for good" must be ticked)."""
    token = director_or_refuse(tournament_id)
    if request.form.get("confirm") != "on":
        return _show(tournament_id, BadInput("confirm: tick the box to delete the tournament", field="confirm"))
    try:
        tournaments().delete(tournament_id, token)
    except Conflict as e:
        return _show(tournament_id, e)
    return redirect(url_for("tournament_pages.index", deleted=1), 303)


@tournament_pages.post("/tournaments/<tournament_id>/boards/<board>/release")
def release_board(tournament_id: str, board: str):
    token = director_or_refuse(tournament_id)
    tournaments().release_board(tournament_id, token, board)
    return redirect(url_for("tournament_pages.show", tournament_id=tournament_id), 303)


@tournament_pages.get("/tournaments/<tournament_id>/bundle.jsonl")
def bundle(tournament_id: str):
    """The whole tournament as JSON Lines (the director's at any time, anyone's once over)."""
    token = _director_token(tournament_id) if _is_director(tournament_id) else None
    try:
        body = "".join(tournaments().bundle(tournament_id, token))
    except Forbidden:
        raise
    return Response(body, mimetype="application/jsonl",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.jsonl"'})
