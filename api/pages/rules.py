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


@rules.app_template_global()
def clause_href(code) -> str | None:
    """The address of a clause id's rule (`/rules/<game>#ER-3.4`), or None for an id no rulebook knows."""
    known = g.setdefault("arbiter_clause_hrefs", {})  # a page names the same clauses many times: look each up once
    if not isinstance(code, str):
        return None
    if code not in known:
        target = shelf().locate(code)
        known[code] = _book_href(*target) if target else None
    return known[code]


@rules.app_template_filter("with_clauses")
def with_clauses(text) -> Markup:
    """A line of narration (text, or markup from `with_cards`) with each clause id a rulebook knows made a link."""
    def link(m) -> str:
        href = clause_href(m.group(1))
        return f'<a class="clause" href="{escape(href)}">{m.group(1)}</a>' if href else m.group(0)

    return Markup(MENTION.sub(link, str(escape(text))))


def clause_url(code) -> str | None:
    """A clause id's rule as an absolute URL (the API's problem details carry it as `rule_url`), or None."""
    target = shelf().locate(code)
    return url_for("rules.rulebook", game=target[0], _anchor=target[1], _external=True) if target else None


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
