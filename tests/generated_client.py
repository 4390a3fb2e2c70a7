"""A client nobody here wrote: `openapi-python-client` (the test extra pins it) generates a Python client from the
document the server serves, into a temporary folder (never committed), and the tests import it from there.

`generate(document, folder)` returns the generated package; `typed_move(client, game, move)` makes a record move
(as the bots answer it) the generated class of that game's move (api/http/game_moves.py names them).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

# the tournament bundle is JSON Lines (application/jsonl): the generator reads known types only, so it is told to read
# it as text; nothing else is configured
CONFIG = "content_type_overrides:\n  application/jsonl: text/plain\n"


def generate(document: dict, folder: Path):
    """The client generated from `document` (an OpenAPI document), imported; raises AssertionError on any warning."""
    name = f"arbiter_client_{uuid.uuid4().hex[:8]}"
    (folder / "openapi.json").write_text(json.dumps(document))
    (folder / "config.yaml").write_text(CONFIG)
    tools = Path(sys.executable).parent
    done = subprocess.run([str(tools / "openapi-python-client"), "generate", "--path", str(folder / "openapi.json"),
                           "--output-path", str(folder / name), "--meta", "none", "--config", str(folder / "config.yaml")],
                          capture_output=True, text=True, env={**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"})
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "Warning" not in said and "WARNING" not in said, said
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


def pascal(text: str) -> str:
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_"))


def typed_move(client, game: str, move: dict, kind: str = "Move"):
    """A record move as the generated class of that game's move type: `Move` (`seat` dropped: the token says it) or
    `StudyMove` (`seat` kept: a study played at every seat names it)."""
    models = importlib.import_module(f"{client.__name__}.models")
    cls = getattr(models, f"{pascal(game)}{pascal(move['type'])}{kind}")
    return cls.from_dict({k: v for k, v in move.items() if k != "seat" or kind == "StudyMove"})


def sse_messages(text: str) -> list[dict]:
    """The messages of a text/event-stream body: {id?, event?, data} each (comments and `retry` left out)."""
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            out.append(fields)
    return out
