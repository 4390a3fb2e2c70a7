"""The identities a browser holds for a game, and which one a page acts as.

Each private link `/join/<game>/<token>` adds its token to the game's cookie `arbiter-<game id hex>`
(HttpOnly, SameSite=Strict; tokens newest first, space separated), so one browser can hold the
referee and several seats of a game at once (a referee trying out two seats). A page acts as the
identity `?as=` names (`0`, `1`, ... a seat; `referee`; `spectator`), else as the newest one. While a
browser holds more than one, every link and form of a page keeps its `as` (see `keep_identity`), so
two tabs can play two seats side by side; the table's switcher lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import g, request

from service.access import parse_game_id
from service.errors import Forbidden, ServiceError

MAX_HELD = 10  # the referee and up to nine seats fit a cookie (each token is ~66 bytes)
SPECTATOR_KEY = "spectator"


@dataclass(frozen=True)
class Identity:
    """One identity of a game in this browser: its `key` (for `?as=`), a label to show, its token and viewer."""

    key: str
    label: str
    token: str | None
    role: str


def cookie_name(game_id) -> str:
    """The cookie that holds a game's tokens."""
    return f"arbiter-{parse_game_id(game_id).hex}"


def held_tokens(game_id) -> list[str]:
    """The tokens this browser holds for a game, newest first (unverified)."""
    return [t for t in request.cookies.get(cookie_name(game_id), "").split() if t][:MAX_HELD]


def remember(response, game_id, token: str) -> None:
    """Add a token to the game's cookie (newest first) on `response`."""
    tokens = [token] + [t for t in held_tokens(game_id) if t != token]
    response.set_cookie(cookie_name(game_id), " ".join(tokens[:MAX_HELD]), httponly=True, samesite="Strict",
                        max_age=30 * 24 * 3600, secure=request.is_secure)


def forget(response, game_id) -> None:
    """Drop every token of a game from this browser."""
    response.delete_cookie(cookie_name(game_id))


def held(facade, game_id) -> list[Identity]:
    """The identities this browser holds for a game (tokens the game no longer knows are left out), newest first."""
    names = None
    out: list[Identity] = []
    for token in held_tokens(game_id):
        try:
            viewer = facade.access.viewer(game_id, token)
        except ServiceError:
            continue
        key = "referee" if viewer.role == "referee" else str(viewer.seat)
        if any(i.key == key for i in out):
            continue
        if names is None:
            names = facade.views.player_names(game_id)
        label = "Referee" if viewer.role == "referee" else f"{names[viewer.seat]} (seat {viewer.seat})"
        out.append(Identity(key, label, token, viewer.role))
    return out


def current(facade, game_id) -> str | None:
    """The token this request acts with (None: a spectator), chosen by `?as=` among the held identities; raises
    Forbidden when `as` names one this browser does not hold. Keeps the choice for `keep_identity`."""
    identities = held(facade, game_id)
    wanted = request.args.get("as")
    if wanted == SPECTATOR_KEY or not identities and wanted is None:
        chosen = None
    elif wanted is None:
        chosen = identities[0]
    else:
        chosen = next((i for i in identities if i.key == wanted), None)
        if chosen is None:
            who = "the referee" if wanted == "referee" else f"seat {wanted}"
            raise Forbidden(f"this browser holds no private link of {who} for this game: open that link first")
    g.arbiter_identities = identities
    g.arbiter_game = str(game_id)
    g.arbiter_as = chosen.key if chosen else SPECTATOR_KEY
    return chosen.token if chosen else None


def keep_identity(endpoint: str, values: dict) -> None:
    """url_for defaults of the pages: a link to the same game keeps the page's `as` while the browser holds
    several identities of it (one identity, or none, needs no `as`: addresses stay plain)."""
    identities = g.get("arbiter_identities") or []
    if endpoint in ("pages.join", "pages.leave", "pages.static") or "as" in values:
        return
    if str(values.get("game_id")) == g.get("arbiter_game") and (len(identities) > 1 or
                                                               (identities and g.arbiter_as == SPECTATOR_KEY)):
        values["as"] = g.arbiter_as
