"""Each game's page partial, found where its spec says (`GameSpec.partial`, "package:path"), for the generic pages.

The table, replay and audit pages include ``game_partial(game)``: the template ``game:<id>``, which
`GamePartials` reads from the resource the game's spec names (a file of any package: arbiter's own games keep
theirs in api/templates/games/), or ``games/_generic.html`` for a game whose spec names none.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from jinja2 import BaseLoader, TemplateNotFound

from domain.games import SPECS

PREFIX = "game:"
GENERIC = "games/_generic.html"


def game_partial(game) -> str:
    """The template name of a game's partial (``game:<id>``), or the generic partial."""
    spec = SPECS.get(game) if isinstance(game, str) else None
    return PREFIX + game if spec is not None and spec.partial else GENERIC


class GamePartials(BaseLoader):
    """Loads ``game:<id>`` from the partial its spec names; re-read when the file changes (as Flask's own loader)."""

    def get_source(self, environment, template: str):
        spec = SPECS.get(template[len(PREFIX):]) if template.startswith(PREFIX) else None
        if spec is None or not spec.partial:
            raise TemplateNotFound(template)
        package, _, path = spec.partial.partition(":")
        resource = resources.files(package).joinpath(path)
        try:
            source = resource.read_text(encoding="utf-8")
        except OSError:
            raise TemplateNotFound(template) from None
        if not isinstance(resource, Path):
            return source, None, lambda: True
        filename = str(resource)
        mtime = os.path.getmtime(filename)
        return source, filename, lambda: os.path.exists(filename) and os.path.getmtime(filename) == mtime
