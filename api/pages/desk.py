"""The referee's desk (`GET /desk`): every game of the store on one page, filtered on the catalogue.

The desk shows public facts only (the game, its options, status and result, the players' names, how many
disputes were filed and how many await a ruling, what the latest verification found, the tournament table a game is
played at, who is to act and their time left, as the tournament page shows them) and, for each game, the
links to its table, replay, audit and disputes: what those pages then show is decided by the token the browser
holds for that game, exactly as when they are opened any other way. So the desk needs no token of its own and
can show no card: it filters on catalogue rows (service.adapters.catalogue_store), which hold no card, and for the
rows of its page asks what the tournament page asks of a table (service.views.desk_rows: at a glance, no card).

Filters are query parameters (a bookmarkable address): `game`, `status`, `player` (part of a name, any case),
`disputes` (`open` or `none`), `integrity` (`tampered` or `clean`), `page`. Bad values are named on the page
(422), which keeps the form as it was.

The one exception to "public facts only" is a tournament's fair-play report (`fairplay_page`, its progress
`fairplay_progress`, its review packet `fairplay_packet` and the packet's seat views `fairplay_seat_view`), which
only the tournament's referee (its director) may open: it is computed from every card of the tournament's finished
games, as a background job (service.fairplay.jobs).
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request

from service.errors import BadInput, ServiceError, TooBusy

from api.current import arbiter, fairplay, tournaments
from api.packet_html import render

from .tournaments import director_or_refuse

desk = Blueprint("desk", __name__, template_folder="../templates")
PAGE = 50
CHOICES = {"disputes": {"": None, "open": True, "none": False}, "integrity": {"": None, "tampered": True, "clean": False}}
STATUSES = {"": None, "in_progress": "in_progress", "finished": "finished"}


def desk_filters(args) -> dict:
    """The catalogue filters a desk address stands for; raises BadInput naming the parameter at fault."""
    facade_args: dict = {"order": "desk"}
    kinds = {k["id"] for k in arbiter().lobby.games()}
    game = args.get("game", "")
    if game and game not in kinds:
        raise BadInput(f"game: no game called {game[:40]!r}; expected one of {', '.join(sorted(kinds))}", field="game")
    facade_args["game"] = game or None
    status = args.get("status", "")
    if status not in STATUSES:
        raise BadInput("status: expected in_progress or finished", field="status")
    facade_args["status"] = STATUSES[status]
    player = args.get("player", "").strip()
    if player:
        facade_args["player"] = player  # its length and characters are the catalogue's to check
    for name, values in CHOICES.items():
        value = args.get(name, "")
        if value not in values:
            raise BadInput(f"{name}: expected one of {', '.join(v for v in values if v)}", field=name)
    facade_args["open_disputes"] = CHOICES["disputes"][args.get("disputes", "")]
    facade_args["tampered"] = CHOICES["integrity"][args.get("integrity", "")]
    page = args.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= 100_000:
        raise BadInput("page: must be a whole number from 1", field="page")
    facade_args["offset"] = (int(page) - 1) * PAGE
    return facade_args


@desk.get("/desk")
def desk_page():
    """All games, open disputes first, with the filters of the address."""
    facade = arbiter()
    error, games, page = None, [], 1
    try:
        filters = desk_filters(request.args)
        page = filters["offset"] // PAGE + 1
        games = facade.lobby.catalogue(limit=PAGE + 1, **filters)  # one more than shown: is there a next page?
    except ServiceError as e:
        error = e
    return render_template("desk.html", games=facade.lobby.at_the_desk(games[:PAGE]), more=len(games) > PAGE, page=page,
                           error=error, args=request.args, kinds=facade.lobby.games()), (error.status if error else 200)


@desk.get("/tournaments/<tournament_id>/fairplay")
def fairplay_page(tournament_id: str):
    """The fair-play report of a tournament's finished games (docs/fairplay.md): the tournament's referee only (the
    director, whose link this browser keeps; the address lies under /tournaments/ so that its cookie comes along).
    It reads every card of those games, so it is never shown to a seat or a spectator, and never cached. The report
    is a background job (service.fairplay.jobs): the page starts or finds it, shows its progress (fairplay.js polls
    `fairplay_progress`; without script, the page refreshes itself) and, once it is done, the report."""
    status, headers = 200, {"Cache-Control": "no-store"}
    try:
        info = tournaments().seatings(tournament_id)  # an unknown tournament is named as such, whoever asks
        token = director_or_refuse(tournament_id)
        try:
            job = fairplay().start(tournament_id, token, address=request.remote_addr)
        except TooBusy as e:  # the page waits its turn: it asks again after Retry-After
            job = {"status": "busy", "error": e.detail, "progress": {"done": 0, "total": None},
                   "retry_after": e.retry_after}
            status = e.status
            headers["Retry-After"] = str(e.retry_after)
    except ServiceError as e:
        return render_template("error.html", error=e, game_id=None), e.status
    info = {k: v for k, v in info.items() if k != "games"}
    return render_template("desk_fairplay.html", t=info, job=job, result=job.get("report")), status, headers


@desk.get("/tournaments/<tournament_id>/fairplay/progress")
def fairplay_progress(tournament_id: str):
    """The report job's status and progress as JSON, for the page's poll (the director only; no report in it: the
    page reloads itself once the job is done). It starts no job: `unknown` when this server process has none (the
    page, reloaded, starts it)."""
    try:
        tournaments().seatings(tournament_id)
        job = fairplay().progress(tournament_id, director_or_refuse(tournament_id))
    except ServiceError as e:
        return jsonify({"status": "refused", "error": e.detail}), e.status, {"Cache-Control": "no-store"}
    body = {k: v for k, v in job.items() if k != "report"}
    return jsonify(body), 200, {"Cache-Control": "no-store"}


@desk.post("/tournaments/<tournament_id>/fairplay/cancel")
def fairplay_cancel(tournament_id: str):
    """Cancel the report job (the director only): the page answers with the job cancelled, and a link that asks for
    the report again. A running job is stopped by its worker within about a second."""
    try:
        info = tournaments().seatings(tournament_id)
        job = fairplay().cancel(tournament_id, director_or_refuse(tournament_id))
    except ServiceError as e:
        return render_template("error.html", error=e, game_id=None), e.status
    info = {k: v for k, v in info.items() if k != "games"}
    return render_template("desk_fairplay.html", t=info, job=job, result=job.get("report")), 200, \
        {"Cache-Control": "no-store"}


@desk.get("/tournaments/<tournament_id>/fairplay/packet")
def fairplay_packet(tournament_id: str):
    """The review packet of the report shown on the fair-play page (docs/fairplay.md "Review packet"), as one HTML
    file to download: blind (players labelled) unless `names=1`. The director only; 409 while the report is not
    made."""
    names = request.args.get("names", "") in ("1", "on", "yes")
    try:
        tournaments().seatings(tournament_id)
        packet = fairplay().packet(tournament_id, director_or_refuse(tournament_id), names=names)
    except ServiceError as e:
        return render_template("error.html", error=e, game_id=None), e.status
    name = f"fairplay-packet-{packet['tournament_id']}-{'names' if names else 'blind'}.html"
    return Response(render(packet, request.host_url), mimetype="text/html",
                    headers={"Cache-Control": "no-store", "Content-Disposition": f'attachment; filename="{name}"'})


@desk.get("/tournaments/<tournament_id>/fairplay/seat-view/<game_id>/<int:seat>/<int:version>")
def fairplay_seat_view(tournament_id: str, game_id: str, seat: int, version: int):
    """A finished game of the tournament at `version` as `seat` saw it then, for the packet's links: the director
    only, although the game is over (a finished game's replay shows every card to everyone, so it cannot show what
    a seat saw); the players named by their seats, never another seat's hidden card."""
    try:
        info = tournaments().seatings(tournament_id)
        view = fairplay().seat_view(tournament_id, director_or_refuse(tournament_id), game_id, seat, version)
    except ServiceError as e:
        return render_template("error.html", error=e, game_id=None), e.status
    info = {k: v for k, v in info.items() if k != "games"}
    return render_template("desk_seat_view.html", t=info, view=view, viewer=view["viewer"], readonly=True), 200, \
        {"Cache-Control": "no-store"}
