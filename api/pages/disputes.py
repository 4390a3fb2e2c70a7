"""The dispute log: a seat files against a move or the refusal of its own attempt, the referee rules (and may
rewind)."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for

from projections.narration import narrate_entries
from projections.table_story import seat_attempts

from service.errors import BadInput, ServiceError

from .blueprint import page_view, pages
from .forms import dispute_command, numeric, ruling_command


@pages.get("/games/<game_id>/disputes")
def disputes(game_id: str):
    """The dispute log; a seat files, the referee rules."""
    facade, token, viewer, view = page_view(game_id)
    return render_template("disputes.html", view=view, viewer=viewer, error=None, **account(facade, game_id, token, view))


def account(facade, game_id: str, token: str | None, view: dict) -> dict:
    """What the page tells of each dispute, from the caller's own log (narrated; a seat's own refusals in it):
    `disputed` (number -> the entry it is against: the move at its version, or the refused attempt it names, absent
    when the caller may not see it) and `attempts` (a refusal's game-wide number -> its number for its seat, as the
    table numbers them, for the refusals the caller may see)."""
    entries = narrate_entries(view["game"], facade.views.own_log(game_id, token), [p["name"] for p in view["players"]])
    moves = {e["version"]: e for e in entries if "text" in e}
    refusals = {e["data"].get("attempt"): e for e in entries if e["type"] == "move_rejected"}
    disputed = {}
    for d in view["disputes"]:
        entry = refusals.get(d["attempt"]) if d.get("attempt") is not None else moves.get(d["version"])
        if entry is not None and not d.get("time_expired"):
            disputed[d["number"]] = entry
    return {"disputed": disputed, "attempts": seat_attempts(entries)}


def own_attempt(facade, game_id: str, token: str | None, seat: int, form) -> dict:
    """The form with a seat's `attempt` (its own number, as its table showed it) made the game-wide number a dispute
    names; raises BadInput for a number the seat's refusals do not have."""
    given = numeric(form.get("attempt", ""))
    if not isinstance(given, int):
        return form
    actor = f"seat:{seat}"
    mine = {e["data"]["seat_attempt"]: e["data"]["attempt"] for e in facade.views.own_log(game_id, token)
            if e["type"] == "move_rejected" and e["actor"] == actor}
    if given not in mine:
        raise BadInput(f"attempt: you made no refused attempt numbered {given}", field="attempt")
    return {**form.to_dict(), "attempt": str(mine[given])}


@pages.post("/games/<game_id>/disputes")
def file_dispute(game_id: str):
    """A seat files a dispute against the move at a version, or against the refusal of its attempt (`attempt`: its
    own number, as the table numbers its refusals)."""
    facade, token, viewer, _ = page_view(game_id)
    try:
        form = own_attempt(facade, game_id, token, viewer.seat, request.form) if viewer.seat is not None else request.form
        facade.play.file_dispute(token, dispute_command(game_id, form))
    except ServiceError as e:
        view = page_view(game_id)[3]
        return render_template("disputes.html", view=view, viewer=viewer, error=e, form=request.form,
                               **account(facade, game_id, token, view)), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)


@pages.post("/games/<game_id>/disputes/<int:number>/ruling")
def rule(game_id: str, number: int):
    """The referee rules on a dispute (and may rewind). A refused ruling comes back with the page: that dispute's form
    keeps what the referee entered (decision, remedy, note) and names the refusal beside it (`ruled`: its number)."""
    facade, token, viewer, _ = page_view(game_id)
    try:
        facade.play.rule(token, ruling_command(game_id, number, request.form))
    except ServiceError as e:
        view = page_view(game_id)[3]
        return render_template("disputes.html", view=view, viewer=viewer, error=e, form=request.form, ruled=number,
                               **account(facade, game_id, token, view)), e.status
    return redirect(url_for("pages.disputes", game_id=game_id), 303)
