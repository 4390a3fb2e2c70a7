"""The rulebooks read, indexed by clause id and rendered to HTML for /rules/<game>.

Each game's rulebook ships inside its own package, ``domain/<game module>/rulebook.md`` (found through the game
registry, domain.games, and read with importlib.resources: an installed wheel carries them). A directory of
``<game>.md`` files, the app config ``RULES_DIR`` or ``$ARBITER_RULES_DIR``, overrides them.

A clause is a list item that begins with its id (``- ER-3.4 ...``); a section is a heading that begins with
one (``## ER-3 A battle``). Each gets exactly one anchor: its id is the element's ``id``. Which game a clause
id belongs to is read from the files (the book that defines it), never from a table here. A ruling is marked
where the text says ``R:`` / ``R,`` and on every clause of a section whose heading names rulings.

The markdown goes through markdown-it-py with raw HTML off: a file's own ``<tags>`` are shown as text. The
only HTML added is built here, from escaped ids. Each numbered h2 is a part of the contents (`sections`); a list item that
begins with a value of one of the game's choice options ("classic: ...") is that edition's own text, hidden when
the page shows another edition. A section whose heading ends with such a value in brackets ("## ER-5 Hand limit
(revised only)", "(revised)") is that edition's as a whole: each of its clauses that names no edition of its own is
that edition's too, and its heading is hidden with them unless the section holds a clause of the edition shown
(ER-5.3 "classic: ... no player is ever eliminated" keeps ER-5's heading on the classic page).

Over 300 lines: reading a book (the parse) and rendering it (the shelf's decorations) share the token walk and the
clause patterns; split, each half would import the other's internals.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import escape

from domain.games import DECIDERS, SPECS, module_name, spec_for

CLAUSE_ID = re.compile(r"[A-Z]{2,4}-\d+(?:\.\d+)*")
LEADING_ID = re.compile(rf"^({CLAUSE_ID.pattern})(?=[\s:,;)]|$)")
MENTION = re.compile(rf"(?<![\w-])({CLAUSE_ID.pattern})(?![\w-]|\.\d)")
RULING = re.compile(r"(?<![\w-])R(?=[:,](?:\s|$))")
EDITION = re.compile(r"^([a-z][a-z0-9_-]*):\s")
SECTION_EDITION = re.compile(r"\(([a-z][a-z0-9_-]*)(?: only)?\)\s*$")  # "## ER-5 Hand limit (revised only)"
RULING_SECTION = re.compile(r"\bRulings?\b", re.IGNORECASE)
ENV_DIR = "ARBITER_RULES_DIR"
RULEBOOK = "rulebook.md"  # a game's rulebook in its package: domain/<game module>/rulebook.md


def packaged_rulebook(game: str) -> Path:
    """Where the installed package keeps a game's rulebook: the resource its spec declares (for the games of
    arbiter, ``domain/<game module>/rulebook.md``); for a game that declares none, or no game, where one would be
    (``domain/<game module>/rulebook.md``), which the "not installed" page names."""
    declared = spec_for(game).rulebook_file() if game in SPECS else None
    return declared or resources.files("domain") / module_name(game) / RULEBOOK  # type: ignore[return-value]


class RulebookMissing(LookupError):
    """No rulebook file for a game (or no rules directory): says where it was looked for."""

    def __init__(self, game: str, path: Path, directory_exists: bool):
        self.game, self.path, self.directory_exists = game, path, directory_exists
        where = f"{path}" if directory_exists else f"{path} (the directory {path.parent} does not exist)"
        super().__init__(f"the rulebook of {game} is not installed: arbiter looks for {where}; "
                         f"set {ENV_DIR} (or the app config RULES_DIR) to the directory holding <game>.md")


@dataclass
class Rulebook:
    """One game's rulebook: its title, the ids it defines (in file order), the ids it mentions, its tokens."""

    game: str
    path: Path
    title: str
    clauses: list[str]  # every defined id (sections and clauses), in file order
    mentioned: set[str]
    tokens: list[Token] = field(repr=False)
    rulings: set[str] = field(default_factory=set)
    sections: list[tuple[str, str]] = field(default_factory=list)  # (id, heading) of each numbered h2: the contents
    editions: list[str] = field(default_factory=list)  # the option values that begin a list item ("classic: ...")
    # a section of one edition (its heading's bracket): id -> (its edition, the editions its own clauses name)
    edition_sections: dict[str, tuple[str, set[str]]] = field(default_factory=dict)

    def shows_section(self, anchor, edition: str) -> bool:
        """Whether the page of one `edition` shows a section's heading: not one of another edition's sections, unless
        that section holds a clause of this edition."""
        mine, inside = self.edition_sections.get(anchor, (edition, set()))
        return mine == edition or edition in inside


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False})  # raw HTML in a file is text, never markup


def _html(content: str) -> Token:
    token = Token("html_inline", "", 0)
    token.content = content
    return token


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def parse(game: str, path: Path, text: str) -> Rulebook:
    """A rulebook's clauses and sections from its markdown (nothing rendered yet); anchors are set on the tokens."""
    tokens = _parser().parse(text)
    title, clauses, mentioned, rulings = game, [], set(), set()
    sections, editions, values = [], [], _edition_values(game)
    section_is_rulings, section_edition, edition_sections = False, None, {}
    for i, token in enumerate(tokens):
        if token.type != "inline":
            mentioned.update(MENTION.findall(token.content))
            continue
        mentioned.update(MENTION.findall(token.content))
        opener = tokens[i - 1] if i else None
        if opener is not None and opener.type == "heading_open":
            if opener.tag == "h1" and title == game:
                title = token.content
            match = LEADING_ID.match(token.content)
            section_is_rulings = bool(RULING_SECTION.search(token.content)) if opener.tag == "h2" else section_is_rulings
            if match:
                opener.attrSet("id", match.group(1))
                opener.attrJoin("class", "clause-section")
                clauses.append(match.group(1))
            if opener.tag == "h2" and match:  # a heading without an id has no anchor to go to (only ids get one)
                sections.append((match.group(1), token.content))
            if opener.tag == "h2":
                marked = SECTION_EDITION.search(token.content)
                section_edition = marked.group(1) if marked and marked.group(1) in values and match else None
                if section_edition:
                    opener.attrSet("data-edition", section_edition)
                    opener.attrJoin("class", "edition")
                    edition_sections[match.group(1)] = (section_edition, set())
                    editions += [section_edition] if section_edition not in editions else []
            continue
        item = tokens[i - 2] if i >= 2 else None
        if opener is None or opener.type != "paragraph_open" or item is None or item.type != "list_item_open":
            continue
        lead = LEADING_ID.match(token.content)
        edition = EDITION.match(token.content[lead.end():].lstrip() if lead else token.content)
        if edition and edition.group(1) in values:  # "- classic: ..." inside a clause: one edition's text
            item.attrSet("data-edition", edition.group(1))
            item.attrJoin("class", "edition")
            editions += [edition.group(1)] if edition.group(1) not in editions else []
        match = LEADING_ID.match(token.content)
        if not match:
            continue
        code = match.group(1)
        if section_edition and not (edition and edition.group(1) in values):  # the section's edition is the clause's
            item.attrSet("data-edition", section_edition)
            item.attrJoin("class", "edition")
        elif section_edition:
            edition_sections[sections[-1][0]][1].add(edition.group(1))
        item.attrSet("id", code)
        item.attrJoin("class", "clause")
        clauses.append(code)
        if section_is_rulings or RULING.search(_item_text(tokens, i)):
            item.attrJoin("class", "ruling")
            rulings.add(code)
    return Rulebook(game, path, title, clauses, mentioned - set(clauses), tokens, rulings, sections, editions,
                    edition_sections)


def _edition_values(game: str) -> set[str]:
    """The values of the game's choice options (its editions, for one): a list item that begins with one of them and
    a colon is that value's own text."""
    spec = SPECS.get(game)
    return {str(c.value) for o in (spec.options if spec else ()) if o.kind == "choice" for c in o.choices}


def _item_text(tokens: list[Token], start: int) -> str:
    """The text of a list item's paragraphs (from its first inline token to the item's end)."""
    depth, parts = 0, []
    for token in tokens[start:]:
        if token.type == "list_item_open":
            depth += 1
        elif token.type == "list_item_close":
            if depth == 0:
                break
            depth -= 1
        elif token.type == "inline":
            parts.append(token.content)
    return " ".join(parts)


class Shelf:
    """Every rulebook, re-read when a file changes; resolves clause ids to (game, anchor).

    ``directory`` None: each registered game's rulebook in its package (``packaged_rulebook``); else the
    ``<game>.md`` files of that directory."""

    def __init__(self, directory: Path | None = None):
        self.directory = directory
        self._stamp: tuple | None = None
        self._books: dict[str, Rulebook] = {}
        self._html: dict[tuple[str, str | None], str] = {}

    def where(self, game: str) -> Path:
        """The file a game's rulebook is read from (whether it is there or not)."""
        return packaged_rulebook(game) if self.directory is None else self.directory / f"{game}.md"

    def looks_in(self) -> str:
        """Where the rulebooks are looked for, as a page says it: the directory, or the packages' files."""
        if self.directory is None:
            return str(resources.files("domain") / "<game module>" / RULEBOOK)
        return str(self.directory)

    def found(self) -> bool:
        """Whether there is anywhere to read rulebooks from: the directory exists, or (packaged) any game has one."""
        return bool(self.books()) if self.directory is None else self.directory.is_dir()

    def _files(self) -> dict[str, Path]:
        if self.directory is None:
            return {game: path for game in DECIDERS if (path := packaged_rulebook(game)).is_file()}
        files = sorted(self.directory.glob("*.md")) if self.directory.is_dir() else []
        return {f.stem: f for f in files}

    def _refresh(self) -> None:
        files = self._files()
        stamp = tuple((game, str(f), *_stat(f)) for game, f in files.items())
        if stamp == self._stamp:
            return
        self._books = {game: parse(game, f, f.read_text(encoding="utf-8")) for game, f in files.items()}
        self._html.clear()
        self._stamp = stamp

    def books(self) -> dict[str, Rulebook]:
        """The rulebooks found, by game id (a registered game's, or the file's name without .md)."""
        self._refresh()
        return self._books

    def book(self, game: str) -> Rulebook:
        """One game's rulebook; raises RulebookMissing naming the path looked at."""
        book = self.books().get(game)
        if book is None:
            path = self.where(game)
            raise RulebookMissing(game, path, path.parent.is_dir())
        return book

    def locate(self, code) -> tuple[str, str] | None:
        """(game, anchor) of a clause id: the book defining it; an id a book only mentions (`ER-3.0`) goes to the
        nearest section of that book that is defined (`ER-3`); None for anything else."""
        if not isinstance(code, str) or not CLAUSE_ID.fullmatch(code):
            return None
        books = self.books()
        for game, book in books.items():
            if code in book.clauses:
                return game, code
        for game, book in books.items():
            if code in book.mentioned:
                parent = code
                while "." in parent:
                    parent = parent.rsplit(".", 1)[0]
                    if parent in book.clauses:
                        return game, parent
        return None

    def html(self, game: str, href: Callable[[str, str], str], edition: str | None = None) -> str:
        """A rulebook as HTML: each defined id a link to its own anchor, rulings marked, ids in the text linked
        (`href(game, anchor)` builds a link to another book's clause); with `edition` (one of the book's `editions`),
        the other editions' own texts are hidden."""
        book = self.book(game)
        edition = edition if edition in book.editions else None
        if (game, edition) not in self._html:
            tokens = [_copy(t) for t in book.tokens]
            for i, token in enumerate(tokens):
                if token.type == "inline" and token.children:
                    token.children = self._decorate(token.children, game, href)
                elif edition and token.type == "list_item_open" and token.attrGet("data-edition") not in (None, edition):
                    token.attrs = {**token.attrs, "hidden": "hidden"}  # a copy's attrs are the book's: never edit them
                elif edition and token.type == "heading_open" and not book.shows_section(token.attrGet("id"), edition):
                    token.attrs = {**token.attrs, "hidden": "hidden"}
            self._html[(game, edition)] = _parser().renderer.render(tokens, _parser().options, {})
        return self._html[(game, edition)]

    def _decorate(self, children: list[Token], game: str, href: Callable[[str, str], str]) -> list[Token]:
        out: list[Token] = []
        for n, child in enumerate(children):
            if child.type == "code_inline" and (target := self.locate(child.content)):
                out += [_html(f'<a class="clause" href="{escape(self._href(game, target, href))}">'), child, _html("</a>")]
            elif child.type == "text":
                out += self._decorate_text(child.content, game, href, leading=(n == 0))
            else:
                out.append(child)
        return out

    def _decorate_text(self, text: str, game: str, href, leading: bool) -> list[Token]:
        out: list[Token] = []
        match = LEADING_ID.match(text) if leading else None
        if match and match.group(1) in self.books()[game].clauses:
            code = match.group(1)
            out.append(_html(f'<a class="clause-id" href="#{escape(code)}">{escape(code)}</a>'))
            if code in self.books()[game].rulings:
                out.append(_html(' <span class="ruling-badge" title="a ruling: the project\'s decision where the '
                                 'published texts are silent or unclear">ruling</span>'))
            text = text[match.end():]
        pos = 0
        pattern = re.compile(f"{MENTION.pattern}|{RULING.pattern}")
        for m in pattern.finditer(text):
            if m.start() > pos:
                out.append(_text(text[pos:m.start()]))
            if m.group(1) and (target := self.locate(m.group(1))):
                out.append(_html(f'<a class="clause" href="{escape(self._href(game, target, href))}">{escape(m.group(1))}</a>'))
            elif m.group(1):
                out.append(_text(m.group(1)))
            else:
                out.append(_html('<strong class="ruling-mark" title="ruling">R</strong>'))
            pos = m.end()
        if pos < len(text):
            out.append(_text(text[pos:]))
        return out

    @staticmethod
    def _href(game: str, target: tuple[str, str], href) -> str:
        return f"#{target[1]}" if target[0] == game else href(*target)


def _stat(path) -> tuple[int, int]:
    """(mtime, size) of a file, to see it change; (0, 0) for a resource that is no file on disk (never re-read)."""
    if isinstance(path, Path):
        st = path.stat()
        return st.st_mtime_ns, st.st_size
    return 0, 0


def _copy(token: Token) -> Token:
    """A token and its children copied (rendering decorates copies; the parsed book stays as read)."""
    clone = token.copy()
    if token.children:
        clone.children = [c.copy() for c in token.children]
    return clone


def rules_dir(config: dict) -> Path | None:
    """The directory of `<game>.md` rulebooks that overrides the packaged ones: app config RULES_DIR, else
    $ARBITER_RULES_DIR; None (the default) for each game's own, in its package (`packaged_rulebook`)."""
    directory = config.get("RULES_DIR") or os.environ.get(ENV_DIR)
    return Path(directory) if directory else None
