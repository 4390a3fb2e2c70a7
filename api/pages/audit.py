"""The audit page: the chain's status, the fair deal, every event, refused attempts, disclosures and rewinds."""

from __future__ import annotations

from flask import render_template, request

from api.current import arbiter

from .blueprint import page_token, pages
from .rules import read_under


@pages.get("/games/<game_id>/audit")
def audit(game_id: str):
    """The audit page: chain status, fair deal, every event, rejected attempts, disclosures, rewinds (a seat or a
    spectator sees, while the game runs, what it may see of them)."""
    facade = arbiter()
    token = page_token(game_id)
    log = facade.views.audit_page(game_id, token)
    checks = facade.verification.checks(game_id, token)
    view = facade.views.public(game_id, token)
    read_under(view["game"], view["options"])
    return render_template("audit.html", log=log, checks=checks, view=view, viewer=facade.access.viewer(game_id, token),
                           key=facade.evidence.public_key(), **entry_filter(log["entries"], view, request.args))


def entry_filter(entries: list[dict], view: dict, args) -> dict:
    """The audit's filter (query parameters `who`: an actor such as `seat:1` or `referee`; `kind`: an entry type):
    the entries it keeps, and the choices the form offers (those present in the log)."""
    who, kind = args.get("who", ""), args.get("kind", "")
    actors = {e["actor"] for e in entries if e.get("actor")}
    seats = [(f"seat:{p['seat']}", p["name"]) for p in view["players"] if f"seat:{p['seat']}" in actors]
    others = [(a, a) for a in sorted(actors) if not a.startswith("seat:")]
    shown = [e for e in entries if (not who or e.get("actor") == who) and (not kind or e["type"] == kind)]
    return {"entries": shown, "filter": {"who": who, "kind": kind, "actors": seats + others,
                                         "kinds": sorted({e["type"] for e in entries})}}
