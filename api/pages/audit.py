"""The audit page: the chain's status, the fair deal, every event, refused attempts, disclosures and rewinds."""

from __future__ import annotations

from flask import render_template

from api.current import arbiter

from .blueprint import page_token, pages


@pages.get("/games/<game_id>/audit")
def audit(game_id: str):
    """The audit page: chain status, fair deal, every event, rejected attempts, disclosures, rewinds (a seat or a
    spectator sees, while the game runs, what it may see of them)."""
    facade = arbiter()
    token = page_token(game_id)
    log = facade.views.audit_page(game_id, token)
    checks = facade.verification.verify(game_id)
    return render_template("audit.html", log=log, checks=checks, view=facade.views.public(game_id),
                           viewer=facade.access.viewer(game_id, token),
                           key=facade.evidence.public_key())
