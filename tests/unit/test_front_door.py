"""One front door (issue 34 part 2): the composition root builds each concern's facade once and delegates nothing;
nothing in api/ reaches the application object behind it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from service.facade import Arbiter

ROOT = Path(__file__).resolve().parents[2]
FACADES = {"play", "views", "lobby", "verification", "evidence", "access", "analysis", "tournaments", "studies",
           "fairplay"}


LIFECYCLE = {"close", "stop_serving"}  # the root's own: a serving process's clean shutdown, and the store closed


def test_the_composition_root_holds_facades_and_its_lifecycle_and_delegates_nothing():
    methods = {name for name, member in vars(Arbiter).items()
               if not name.startswith("_") and inspect.isfunction(member)}
    assert methods == LIFECYCLE, "a use case is called on its concern's facade, never through the root"
    built = {name for name, member in vars(Arbiter).items() if not name.startswith("_") and name not in LIFECYCLE}
    assert built == {"tournaments", "studies", "fairplay"}  # the ones built on first use; __init__ builds the rest
    assigned = set(re.findall(r"self\.(\w+) = ", inspect.getsource(Arbiter.__init__)))
    assert FACADES - built <= assigned


def test_nothing_in_api_reaches_the_application_object():
    reach = re.compile(r"\b(arbiter(\(\))?|facade)\.app\b")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "api").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if reach.search(line)]
    assert found == []
