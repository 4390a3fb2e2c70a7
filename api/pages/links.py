"""The browser addresses of a game that API answers carry: each seat's and the referee's private link, the table.

A private link `/join/<game>/<token>` (api.pages.table) keeps its token in this browser and opens the
table as that seat or the referee; the table's own address is the spectators'. They are absolute
URLs of the server that answered, so that a client can hand them on as they are.
"""

from __future__ import annotations

from flask import url_for


def with_links(created: dict) -> dict:
    """A creation answer ({id, seats: [{seat, token, ...}], referee_token, ...}) with its browser addresses added:
    `join_url` per seat, `referee_join_url`, `table_url` (the spectators')."""
    game_id = created["id"]
    seats = [{**s, "join_url": join_url(game_id, s["token"])} for s in created["seats"]]
    return {**created, "seats": seats, "referee_join_url": join_url(game_id, created["referee_token"]),
            "table_url": url_for("pages.table", game_id=game_id, _external=True)}


def join_url(game_id: str, token: str) -> str:
    """The private link that opens a game's table as the holder of `token`."""
    return url_for("pages.join", game_id=game_id, token=token, _external=True)
