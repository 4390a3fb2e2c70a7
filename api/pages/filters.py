"""What the pages' templates call: card filters (a card code as rank, suit symbol, colour and spoken name), the
server's time, a game's own script, the icon, and an audit actor's name.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from flask import Response, url_for
from markupsafe import Markup, escape

from domain.clocks import STARTS
from domain.wording import count, one_in

from service.store.server_clock import server_ms

from .blueprint import pages

CLOCK_START_TEXT = {"first_move": "at the first move", "created": "when the game is created"}
SUIT = {"C": ("♣", "black", "clubs"), "D": ("♦", "red", "diamonds"), "H": ("♥", "red", "hearts"), "S": ("♠", "black", "spades")}
RANK = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")
STATIC = Path(__file__).resolve().parents[1] / "static"
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        '<rect x="5" y="2" width="22" height="28" rx="4" fill="#fff" stroke="#1f5f3f" stroke-width="2"/>'
        '<path d="M16 7c3 4 7 6 7 10a4 4 0 0 1-6 3l1 4h-4l1-4a4 4 0 0 1-6-3c0-4 4-6 7-10z" fill="#1f5f3f"/></svg>')


@pages.app_template_filter("count")
def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """"1 game", "2 games" (domain.wording.count) for the pages' texts."""
    return count(n, noun, plural)


@pages.app_template_filter("one_in")
def one_in_of(p: float) -> str:
    """A threshold as odds, "1 in 1,000" (domain.wording.one_in), for the fair-play page."""
    return one_in(p)


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


@pages.app_template_filter("with_card_faces")
def with_card_faces(text: str) -> Markup:
    """A line of narration with each card code drawn as a small face (the `card` macro's markup, its spoken name
    for screen readers): the replay's move list says each move once, its cards in the line."""
    def card(m: re.Match) -> str:
        p = card_parts(m.group(0))
        suit = f'<span class="suit" aria-hidden="true">{p["symbol"]}&#xFE0E;</span>' if p["symbol"] else ""
        return (f'<span class="card {p["colour"]}" role="img" aria-label="{p["label"]}" title="{p["label"]}" '
                f'data-card="{p["text"]}"><span class="rank" aria-hidden="true">{p["rank"]}</span>{suit}</span>')

    return Markup(CARD_CODE.sub(card, str(escape(text))))


@pages.app_template_filter("card_suit")
def card_suit(letter: str) -> str:
    """A suit letter as its symbol and name, e.g. ``♠ spades``."""
    symbol, _, name = SUIT.get(letter, ("", "", letter))
    return f"{symbol} {name}".strip()


@pages.app_template_global()
def clock_starts() -> list[tuple[str, str]]:
    """The choices of a new game's "clocks start" select (domain.clocks.STARTS), the default (first_move) first."""
    return [(start, CLOCK_START_TEXT[start]) for start in sorted(STARTS, key=lambda s: s != "first_move")]


@pages.app_template_global()
def server_now() -> str:
    """The server's time now (ISO 8601, UTC): the clocks' panel runs running clocks on from it (docs/clocks.md)."""
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


@pages.app_template_filter("actor")
def actor_name(actor, view) -> str:
    """An audit actor (`seat:1`, `referee`, `engine`) as a person reads it: the seat's player name."""
    if isinstance(actor, str) and actor.startswith("seat:") and actor[5:].isdigit():
        seat = int(actor[5:])
        players = view.get("players") or []
        return players[seat]["name"] if seat < len(players) else f"seat {seat}"
    return {"referee": "Referee", "engine": "arbiter", None: ""}.get(actor, str(actor))
