"""The seam between arbiter and its games: no generic module names a game (issue 24; OpenSpiel's rule, STYLE.md).

Every .py, .html, .js and .css file of api/, service/, projections/, bots/, domain/*.py and domain/tournament/ is
scanned for every registered game's id, module name and title (any case, `-`, `_` or a space between words). A
game's own files are exempt only where its spec declares them (its projection module or package, its narration,
its bot, its page partial), and domain/games.py, the registry, is the one list of games. A failure lists every
file:line that names a game.
"""

from __future__ import annotations

import importlib.util
import re
from importlib import resources
from pathlib import Path

from domain.games import SPECS
from domain.spec import GameSpec

ROOT = Path(__file__).resolve().parents[2]
GENERIC = ("api", "service", "projections", "bots", "domain/tournament")
SUFFIXES = (".py", ".html", ".js", ".css")
REGISTRY = ROOT / "domain" / "games.py"


def names_of(spec: GameSpec) -> set[str]:
    """The ways code or prose names a game: its id, its module name, its title."""
    return {spec.id, spec.decider.__name__.rsplit(".", 1)[-1], spec.title}


def pattern(names: set[str]) -> re.Pattern:
    """One case-insensitive pattern for the names, with any of `-`, `_` or a space between their words."""
    spelled = {"[-_ ]".join(re.escape(word) for word in re.split(r"[-_ ]+", name.lower())) for name in names}
    return re.compile(r"(?<![a-z0-9])(" + "|".join(sorted(spelled, key=len, reverse=True)) + r")(?![a-z0-9])",
                      re.IGNORECASE)


def _module_files(location: str) -> set[Path]:
    """The files of a module named by a spec ("module" or "module:attribute"): a package's whole directory."""
    found = importlib.util.find_spec(location.partition(":")[0])
    origin = Path(found.origin).resolve()
    if origin.name == "__init__.py":
        return {p.resolve() for p in origin.parent.rglob("*") if p.is_file()}
    return {origin}


def declared_files(spec: GameSpec) -> set[Path]:
    """A game's own files outside its package, as its spec declares them."""
    out: set[Path] = set()
    for location in (spec.projection, spec.narration, spec.bot):
        if location:
            out |= _module_files(location)
    if spec.partial:
        package, _, path = spec.partial.partition(":")
        out.add(Path(str(resources.files(package).joinpath(path))).resolve())
    return out


def generic_files(root: Path = ROOT) -> list[Path]:
    """Every file of the generic code: the scanned folders, and domain's own modules."""
    files = [p for folder in GENERIC for p in (root / folder).rglob("*") if p.suffix in SUFFIXES and p.is_file()]
    files += [p for p in (root / "domain").glob("*.py")]
    return sorted(p.resolve() for p in files if "__pycache__" not in p.parts)


def game_names_in_generic_code(specs: list[GameSpec]) -> list[str]:
    """Every `file:line: text` of generic code that names one of the games."""
    find = pattern(set().union(*(names_of(s) for s in specs)))
    own = set().union(*(declared_files(s) for s in specs)) | {REGISTRY.resolve()}
    hits = []
    for path in generic_files():
        if path in own:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if find.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    return hits


def test_no_generic_module_names_a_game():
    hits = game_names_in_generic_code(list(SPECS.values()))
    assert not hits, f"{len(hits)} lines of generic code name a game:\n" + "\n".join(hits)


def test_the_scan_finds_a_game_named_in_any_spelling():
    spec = SPECS[next(iter(SPECS))]
    find = pattern(names_of(spec))
    for text in (spec.id, spec.id.upper(), spec.id.replace("-", "_"), spec.id.replace("-", " "), spec.title,
                 f"({spec.title}'s rule)"):
        assert find.search(text), text
    assert not find.search(spec.id + "x") and not find.search("x" + spec.id.replace("-", "_"))


def test_each_spec_declares_files_that_exist():
    for spec in SPECS.values():
        assert all(path.is_file() for path in declared_files(spec)), spec.id
