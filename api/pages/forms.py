"""What a page's form stands for: a field's text as a value, the table's controls as a move (a PlayMove)."""

from __future__ import annotations

from domain import json_limits

from service.errors import BadInput
from service.play.commands import PlayMove


def scalar(value: str):
    """A form field's text as a value: `true` (a ticked checkbox: an option of kind bool), digits as an integer, else
    the text."""
    value = value.strip()
    if value == "true":
        return True
    return int(value) if value.isdigit() and len(value) < 7 else value


def move_command(game_id: str, form) -> PlayMove:
    """The move a table form stands for (what POST /api/v1/games/{id}/moves would carry as JSON).

    - `move`: a whole move as a JSON object (a button of `legal_move_buttons`), sent as it is;
    - else `type`, `cards` (the ticked card boxes; an empty list too when `type` is one of the
      space-separated `card_moves`), `text` for a `say`, and each non-empty `move.<field>` as
      `<field>` (digits as an integer);
    - `expected_version` with either.
    """
    if form.get("move"):
        try:
            body = json_limits.loads(form["move"])
        except ValueError:  # json_limits.LimitError: not JSON, too deep, a number out of range
            body = None
        if not isinstance(body, dict):
            raise BadInput("move: must be a JSON object with a type", field="move")
    else:
        body = {"type": form.get("type", "")}
        # the game's partial names the move types that carry cards (an empty choice is then an empty list)
        if form.getlist("cards") or body["type"] in form.get("card_moves", "").split():
            body["cards"] = form.getlist("cards")
        if body["type"] == "say":
            body["text"] = form.get("text", "")
        for field, value in form.items():  # the game's own move fields (target, amount, source, ...)
            if field.startswith("move.") and field.endswith("[]"):  # a list, as strings in form order
                body[field[5:-2]] = [v.strip() for v in form.getlist(field)]
            elif field.startswith("move.") and value.strip():
                name, _, sub = field[5:].partition(".")
                if sub:  # move.<field>.<key>: an object field (e.g. a lowering's card and rank)
                    body.setdefault(name, {})[sub] = value.strip()
                else:
                    body[name] = scalar(value)
    version = form.get("expected_version") or None  # the form's text: digits as an integer, else refused by the command
    if version is not None and version.isdigit() and len(version) <= 16:
        version = int(version)
    return PlayMove(game_id, body, expected_version=version)
