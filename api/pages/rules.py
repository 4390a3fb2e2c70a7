"""The rulebooks on the web: `/rules` (the games and their rulebooks) and `/rules/<game>` (one rulebook, an anchor
per clause id), and the link every clause id shown anywhere gets (`clause_href`, used by macros.html's `clause`
and by the API's problem details).

Each game's rulebook is the one its package ships (`domain/<game module>/rulebook.md`, in the wheel too), unless
a directory of `<game>.md` files overrides them: the app config `RULES_DIR`, else `$ARBITER_RULES_DIR`
(api.pages.rulebooks). A missing rulebook is a 404 HTML page that says where arbiter looked.
"""

from __future__ import annotations

from flask import Blueprint, current_app, g, render_template, request, url_for
from markupsafe import Markup, escape

from api.current import arbiter

from .errors import page_error
from .rulebooks import MENTION, RulebookMissing, Shelf, rules_dir

rules = Blueprint("rules", __name__, template_folder="../templates")


def shelf() -> Shelf:
    """The app's rulebooks (one Shelf per app and directory, kept in app.extensions; directory None: the packaged ones)."""
    directory = rules_dir(current_app.config)
    kept = current_app.extensions.get("arbiter_rulebooks")
    if kept is None or kept.directory != directory:
        kept = current_app.extensions["arbiter_rulebooks"] = Shelf(directory)
    return kept


def _book_href(game: str, anchor: str) -> str:
    return url_for("rules.rulebook", game=game, _anchor=anchor)


def read_under(game: str, options: dict) -> None:
    """This page is one game's, played under `options`: its clause links open that game's rulebook in the edition the
    game is played in (`/rules/<game>?edition=<edition>#<clause>`), so a refusal's clause reads as it applied."""
    g.arbiter_rules_under = (game, options)


def edition_of(game: str, options: dict | None) -> str | None:
    """The edition of `game`'s rulebook that a game under `options` is played in: the option value its book marks as
    an edition (a choice option's value that begins a clause, "classic: ..."), or None (no book, or a book of one
    edition)."""
    book = shelf().books().get(game)
    if book is None or not book.editions or not options:
        return None
    return next((str(v) for v in options.values() if isinstance(v, (str, int)) and str(v) in book.editions), None)


@rules.app_template_global()
def clause_href(code) -> str | None:
    """The address of a clause id's rule (`/rules/<game>#ER-3.4`; on a page of a game, `read_under`, that game's
    clauses in its edition: `/rules/<game>?edition=classic#ER-3.4`), or None for an id no rulebook knows."""
    known = g.setdefault("arbiter_clause_hrefs", {})  # a page names the same clauses many times: look each up once
    if not isinstance(code, str):
        return None
    game, options = g.get("arbiter_rules_under") or (None, None)
    if (code, game) not in known:
        target = shelf().locate(code)
        edition = edition_of(game, options) if target and target[0] == game else None
        known[code, game] = (url_for("rules.rulebook", game=target[0], edition=edition, _anchor=target[1])
                             if target else None)
    return known[code, game]


@rules.app_template_filter("with_clauses")
def with_clauses(text) -> Markup:
    """A line of narration (text, or markup from `with_cards`) with each clause id a rulebook knows made a link."""
    def link(m) -> str:
        href = clause_href(m.group(1))
        return f'<a class="clause" href="{escape(href)}">{m.group(1)}</a>' if href else m.group(0)

    return Markup(MENTION.sub(link, str(escape(text))))


def clause_url(code, game: str | None = None, options: dict | None = None) -> str | None:
    """A clause id's rule as an absolute URL (the API's problem details carry it as `rule_url`), or None; with the
    `game` and `options` it was applied under, in that game's edition (as `clause_href` on its pages)."""
    target = shelf().locate(code)
    edition = edition_of(game, options) if target and target[0] == game else None
    if target is None:
        return None
    return url_for("rules.rulebook", game=target[0], edition=edition, _anchor=target[1], _external=True)


@rules.get("/rules")
def index():
    """The games arbiter referees, each with a link to its rulebook (or a note that it is not installed)."""
    books = shelf().books()
    games = [{**g, "installed": g["id"] in books, "clauses": len(books[g["id"]].clauses) if g["id"] in books else 0}
             for g in arbiter().lobby.games()]
    return render_template("rules_index.html", games=games, directory=shelf().looks_in(), found=shelf().found())


@rules.get("/rules/<game>")
def rulebook(game: str):
    """One game's rulebook, every clause id an anchor (id = the clause id); rulings marked."""
    known = {g["id"]: g["title"] for g in arbiter().lobby.games()}
    if game not in known and game not in shelf().books():
        return page_error(404, "No such game", f"arbiter referees no game {game!r}: the games are "
                          f"{', '.join(sorted(known))} (see /rules)")
    edition = request.args.get("edition") or None
    try:
        html = shelf().html(game, _book_href, edition)
    except RulebookMissing as e:
        return page_error(404, "Rulebook not installed", str(e))
    book = shelf().book(game)
    return render_template("rulebook.html", book=book, title=known.get(game, book.title), body=Markup(html),
                           edition=edition if edition in book.editions else None)
