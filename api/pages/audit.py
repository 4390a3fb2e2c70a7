"""The audit page: the chain's status, the fair deal, every event, refused attempts, disclosures and rewinds."""

from __future__ import annotations

from flask import render_template, request, url_for

from api.current import arbiter

from .blueprint import page_token, pages
from .rules import read_under


PAGE = 200  # entries a page: a 1,100-event game's whole log on one page took seconds to draw (issue 35)


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
    shown = entry_filter(log["entries"], view, request.args)
    return render_template("audit.html", log=log, checks=checks, view=view, viewer=facade.access.viewer(game_id, token),
                           key=facade.evidence.public_key(), replay_url=url_for("pages.replay", game_id=view["id"]),
                           **shown, **page_of(shown["entries"], log["disclosures"], request.args))


def entry_filter(entries: list[dict], view: dict, args) -> dict:
    """The audit's filter (query parameters `who`: an actor such as `seat:1` or `referee`; `kind`: an entry type):
    the entries it keeps, and the choices the form offers (those present in the log)."""
    who, kind = args.get("who", ""), args.get("kind", "")
    actors = {e["actor"] for e in entries if e.get("actor")}
    seats = [(f"seat:{p['seat']}", p["name"]) for p in view["players"] if f"seat:{p['seat']}" in actors]
    others = [(a, a) for a in sorted(actors) if not a.startswith("seat:")]
    shown = [e for e in entries if (not who or e.get("actor") == who) and (not kind or e["type"] == kind)]
    return {"entries": shown, "filter": {"who": who, "kind": kind, "actors": seats + others,
                                         "args": {k: v for k, v in (("who", who), ("kind", kind)) if v},
                                         "kinds": sorted({e["type"] for e in entries})}}


def page_of(entries: list[dict], disclosures: list[dict], args) -> dict:
    """One page of the entries the filter kept (query parameter `page`, from 1; PAGE a page), the pages to go to
    (first and last version of each), and the disclosure ledger of the events on this page only: the ledger follows
    the filter and the page."""
    pages = [entries[i:i + PAGE] for i in range(0, len(entries), PAGE)] or [[]]
    number = args.get("page", "1")
    number = min(max(int(number), 1), len(pages)) if number.isdigit() and len(number) < 7 else 1
    here = pages[number - 1]
    versions = {e["version"] for e in here}
    return {"page": {"number": number, "of": len(pages), "size": PAGE,
                     "ranges": [(p[0]["version"], p[-1]["version"]) if p else (0, 0) for p in pages]},
            "page_entries": here, "disclosures": [d for d in disclosures if d["version"] in versions]}
