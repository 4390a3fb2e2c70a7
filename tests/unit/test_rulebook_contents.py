"""What the project's rulebooks (domain/<game module>/rulebook.md, shipped in the wheel) must hold.

- They define the same clause ids and the same rulings as the reference rulebooks, ../shared/rules/<game>.md beside
  the checkout (skipped, at run time, where that folder is absent: a user's checkout or wheel has none).
- Every clause id the code can cite exists in its game's rulebook: the ids written in the source (the game packages,
  the generic code, the templates and scripts), and the values of the clause tables the game modules declare
  (``clause_of``'s event table, a decider's move table, ...). "Exists": the book defines it; the one exception,
  ER-3.0 ("not your turn"), is an id the rulebook names in the text of section ER-3 without a clause of its own
  (the reference does the same, so defining it would break the first test): /rules/el-royale links it to ER-3.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

from api.pages.rulebooks import CLAUSE_ID, Rulebook, packaged_rulebook, parse
from domain.games import DECIDERS, SPECS, module_name

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "rules"  # ../shared/rules beside the checkout
GAMES = sorted(DECIDERS)
CITED = re.compile(rf"(?<![\w-])({CLAUSE_ID.pattern})(?![\w-]|\.\d)")
GENERIC = ("domain", "service", "api", "projections", "bots")  # every package the wheel ships
TEXT_SUFFIXES = {".py", ".html", ".js", ".css"}
NAMED_IN_SECTION_TEXT = {"ER-3.0": "ER-3"}  # cited ids a rulebook names in a section's text, defining no clause


def project_book(game: str) -> Rulebook:
    path = packaged_rulebook(game)
    assert path.is_file(), f"the package of {game} ships no rulebook ({path})"
    return parse(game, path, path.read_text(encoding="utf-8"))


def reference_book(game: str) -> Rulebook:
    """The reference rulebook of a game; skips the test (at run time) where ../shared/rules is not there."""
    path = REFERENCE / f"{game}.md"
    if not REFERENCE.is_dir():
        pytest.skip(f"no ../shared/rules beside the checkout ({REFERENCE}): nothing to compare the rulebooks with")
    if not path.is_file():
        pytest.skip(f"../shared/rules has no {path.name}")
    return parse(game, path, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_the_project_rulebook_defines_the_reference_s_clauses_and_rulings(game):
    reference, project = reference_book(game), project_book(game)
    assert len(project.clauses) == len(set(project.clauses)), "the project rulebook defines an id twice"
    assert set(project.clauses) == set(reference.clauses), (
        f"only in the project's: {sorted(set(project.clauses) - set(reference.clauses))}; "
        f"only in ../shared/rules: {sorted(set(reference.clauses) - set(project.clauses))}")
    assert project.rulings == reference.rulings, (
        f"rulings only in the project's: {sorted(project.rulings - reference.rulings)}; "
        f"only in ../shared/rules: {sorted(reference.rulings - project.rulings)}")


def _source_files():
    for top in GENERIC:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts:
                yield path


def _declared(value) -> set[str]:
    """The clause ids among a module global: a string, or the keys and values of a table (dict, list, tuple, set)."""
    if isinstance(value, str):
        return {value} if CLAUSE_ID.fullmatch(value) else set()
    if isinstance(value, dict):
        return set().union(*map(_declared, value.keys()), *map(_declared, value.values()))
    if isinstance(value, (list, tuple, set, frozenset)) and not hasattr(value, "_fields"):
        return set().union(*map(_declared, value))
    return set()


def _cited_by_code() -> dict[str, dict[str, set[str]]]:
    """game -> clause id -> where the code names it (files, and module.TABLE for a declared table's value)."""
    prefixes = {SPECS[game].prefix: game for game in GAMES}
    cited: dict[str, dict[str, set[str]]] = {game: {} for game in GAMES}

    def add(code: str, where: str) -> None:
        game = prefixes.get(code.split("-")[0])
        if game is not None:  # SHA-256, UTF-8 and the like are no clause
            cited[game].setdefault(code, set()).add(where)

    for path in _source_files():
        for code in CITED.findall(path.read_text(encoding="utf-8")):
            add(code, str(path.relative_to(ROOT)))
    for game in GAMES:
        package = importlib.import_module(f"domain.{module_name(game)}")
        modules = [package] + [importlib.import_module(f"{package.__name__}.{m.name}")
                               for m in pkgutil.iter_modules(package.__path__)]
        for module in modules:
            for name, value in vars(module).items():
                for code in _declared(value):
                    add(code, f"{module.__name__}.{name}")
    return cited


def _exists(book: Rulebook, code: str) -> bool:
    """The book defines the id, or it is one of NAMED_IN_SECTION_TEXT and the book names it and defines its section."""
    if code in book.clauses:
        return True
    return code in NAMED_IN_SECTION_TEXT and code in book.mentioned and NAMED_IN_SECTION_TEXT[code] in book.clauses


def test_every_clause_id_the_code_can_cite_exists_in_its_game_s_rulebook():
    cited = _cited_by_code()
    assert all(cited.values()), f"no clause id found in the code of {[g for g, ids in cited.items() if not ids]}"
    missing = {}
    for game in GAMES:
        book = project_book(game)
        missing.update({code: sorted(where) for code, where in cited[game].items() if not _exists(book, code)})
    assert not missing, f"clause ids the code cites that no rulebook defines: {missing}"


def test_the_declared_clause_tables_are_found():
    """The gathering above sees the tables the deciders declare (not only literals in the text)."""
    assert _declared({"dealt": "BA-1.2", "x": ["SB-2.1", ("ER-3.4", 5)], "n": "UTF-8x"}) == {"BA-1.2", "SB-2.1", "ER-3.4"}
    cited = _cited_by_code()
    assert any("domain.el_royale.EVENT_CLAUSES" in where for where in cited["el-royale"].values())
    assert any("domain.el_royale.legality.PLAY_CLAUSE" in where for where in cited["el-royale"].values())
