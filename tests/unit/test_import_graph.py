"""The import graph of arbiter's own modules: no circle between modules, and layers only point down.

Every `import` and `from ... import` of api/, service/, projections/, domain/ and bots/ is read with `ast`, those
inside functions included (a function-level import is still a dependency: it only runs later), except those under
`if TYPE_CHECKING:`. `from package import name` counts as an import of the module `package.name` when there is one,
else of `package`. Importing a module also runs its packages' `__init__`, which here hold docstrings only (and
api's lazy `create_app`), so they add no edge worth following.

Layers (docs/architecture.md): api -> service -> projections -> domain; bots/ import nothing of them (a bot sees only
its seat's view); service/ and api/ may use bots.

Inside service/, floors: 0 `errors`, `bounds`, `json_files`, `adapters`; 1 `store` (the event-sourced store and its one unit of
work) and `duty`; 2 the concerns (play, views, access, evidence, ...), each importing only the concerns pinned for
it in CONCERN_IMPORTS; 3 `facade`, the composition root, which only api/ imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "service", "projections", "domain", "bots")
LAYER = {"domain": 0, "projections": 1, "service": 2, "api": 3}
MAY_USE_BOTS = ("api", "service", "bots")


def module_files() -> dict[str, Path]:
    """Every module of the five packages by its dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = module_files()


def _import_nodes(tree: ast.AST):
    """Every import statement, skipping the bodies of `if TYPE_CHECKING:` (they never run)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _import_nodes(ast.Module(body=[child], type_ignores=[])))
        else:
            yield from _import_nodes(node)


def _known(name: str) -> str | None:
    """The arbiter module a dotted name lands in (the nearest known module above it), or None (another library)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imported_names(module: str, path: Path) -> set[str]:
    """The dotted names `module` imports, relative ones made absolute, whether or not a module of that name exists."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        found.update(f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source for alias in node.names)
    return found


def imports_of(module: str, path: Path) -> set[str]:
    """The arbiter modules `module` imports."""
    return {t for t in map(_known, imported_names(module, path)) if t is not None and t != module}


GRAPH = {module: imports_of(module, path) for module, path in MODULES.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, in name order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_graph_sees_the_modules_and_their_imports():
    assert {"api.app", "service.facade", "projections.views", "domain.game", "bots.base"} <= set(GRAPH)
    assert "service.facade" in GRAPH["api.app"]  # a function-level import counts
    assert "domain.game" in GRAPH["service.play.referee"]


def test_circles_are_found_where_there_are_some():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back_through_others():
    assert circles(GRAPH) == [], "import circles between modules"


@pytest.mark.parametrize("package", PACKAGES)
def test_layers_only_point_down(package):
    upward = []
    for module, targets in GRAPH.items():
        top = module.split(".")[0]
        if top != package:
            continue
        for target in targets:
            other = target.split(".")[0]
            if other == "bots":
                wrong = top not in MAY_USE_BOTS
            elif top == "bots":
                wrong = True  # a bot imports nothing of the engine, so it cannot reach a state or a hidden card
            else:
                wrong = LAYER[other] > LAYER[top]
            if wrong:
                upward.append(f"{module} -> {target}")
    assert upward == []


# -- inside service/: floors, and which concern may import which ---------------------------------------------------

SERVICE_FLOORS = {"service.errors": 0, "service.bounds": 0, "service.json_files": 0, "service.adapters": 0,
                  "service.fast_road": 0,
                  "service.store": 1, "service.duty": 1, "service.jobs": 1,
                  "service.facade": 3}  # every other part of service/ is a concern, on floor 2
CONCERN = 2

# what each concern imports today, pinned: a new edge between concerns is a decision to make here, not an accident
CONCERN_IMPORTS = {
    "service.access": set(),
    "service.analysis": {"service.access", "service.views"},
    "service.evidence": {"service.verification", "service.witness"},
    "service.fairplay": set(),  # it runs on the jobs (service.jobs, a floor below), not on analysis
    "service.offline": {"service.evidence", "service.play", "service.tournaments"},
    "service.play": {"service.access", "service.evidence", "service.verification", "service.views"},
    "service.studies": {"service.access"},
    "service.tournaments": {"service.access", "service.play", "service.views"},  # a round's games are played games
    "service.verification": {"service.access", "service.evidence"},
    "service.views": {"service.access", "service.verification"},
    "service.witness": {"service.evidence"},
}
# the one knot between concerns, a debt: a receipt's check reads the chain with verification's checker, whose facade
# reads the evidence; the witness server speaks evidence's formats, and evidence's client speaks the witness protocol
KNOWN_KNOTS = [["service.evidence", "service.verification", "service.witness"]]
GONE = ("service.play.application", "service.play.tokens", "service.play.idempotency")


def part_of(module: str) -> str:
    """The part of service/ a module belongs to: `service.play.referee` -> `service.play`, `service.access` itself."""
    return ".".join(module.split(".")[:2])


def floor_of(module: str) -> int:
    return SERVICE_FLOORS.get(part_of(module), CONCERN)


SERVICE_EDGES = sorted((m, t) for m, targets in GRAPH.items() if m.startswith("service.") for t in targets
                       if t.startswith("service.") and part_of(t) != part_of(m))


def test_every_part_of_service_has_a_floor_and_every_concern_its_imports():
    parts = {part_of(m) for m in GRAPH if m.startswith("service.")}
    assert parts - set(SERVICE_FLOORS) == set(CONCERN_IMPORTS)


def test_inside_service_imports_only_point_down_the_floors():
    upward = [f"{m} -> {t}" for m, t in SERVICE_EDGES if floor_of(t) > floor_of(m)]
    assert upward == []


def test_the_store_imports_no_concern():
    assert [f"{m} -> {t}" for m, t in SERVICE_EDGES if part_of(m) == "service.store" and floor_of(t) >= CONCERN] == []


def test_nothing_but_api_imports_the_front_door():
    importers = sorted(m for m, targets in GRAPH.items() if "service.facade" in targets)
    assert [m for m in importers if not m.startswith("api.")] == []


def test_a_concern_imports_only_the_concerns_pinned_for_it():
    unpinned = [f"{m} -> {t}" for m, t in SERVICE_EDGES if floor_of(m) == CONCERN and floor_of(t) == CONCERN
                and part_of(t) not in CONCERN_IMPORTS[part_of(m)]]
    assert unpinned == []


def test_the_pinned_concern_imports_are_all_still_used():
    used = {(part_of(m), part_of(t)) for m, t in SERVICE_EDGES}
    assert [f"{a} -> {b}" for a, targets in CONCERN_IMPORTS.items() for b in sorted(targets) if (a, b) not in used] == []


def test_concerns_make_no_circle_but_the_known_knot():
    assert circles({a: set(b) for a, b in CONCERN_IMPORTS.items()}) == KNOWN_KNOTS


@pytest.mark.parametrize("gone", GONE)
def test_nothing_imports_the_store_s_old_home_in_play(gone):
    assert gone not in MODULES
    files = {**MODULES, **{".".join(p.relative_to(ROOT).with_suffix("").parts): p
                           for d in ("tests", "bench") for p in (ROOT / d).rglob("*.py")}}
    users = sorted(m for m, path in files.items() if any(n == gone or n.startswith(gone + ".")
                                                         for n in imported_names(m, path)))
    assert users == []
