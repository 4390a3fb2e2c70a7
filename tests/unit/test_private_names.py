"""No module imports another module's private names: a name that starts with `_` is its own module's business, and a
helper two modules share gets a public name (in the module whose concept it is). Every `from ... import` of api/,
service/, projections/, domain/ and bots/ is read with `ast`, those inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "service", "projections", "domain", "bots")


def private_imports(source: str) -> list[str]:
    """`module: name` for each private name a module's source imports from another module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{'.' * node.level}{node.module or ''}: {alias.name}")
    return found


def test_a_private_import_is_found():
    assert private_imports("from .stored_rows import shape_ok, _shape_ok") == [".stored_rows: _shape_ok"]
    assert private_imports("def f():\n    from domain.game import _pack_move\n") == ["domain.game: _pack_move"]
    assert private_imports("from __future__ import annotations\nfrom x import __version__, y") == []


def test_no_module_imports_another_s_private_names():
    found = {str(path.relative_to(ROOT)): names
             for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if (names := private_imports(path.read_text(encoding="utf-8")))}
    assert found == {}, "private names imported from other modules"
