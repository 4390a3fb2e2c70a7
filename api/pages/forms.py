"""What a page's form stands for: a field's text as a value; the table's controls, a dispute and a ruling as the JSON
body the API would carry, made a command by the API route's own constructor (`from_body`): one road, one check."""

from __future__ import annotations

from domain import json_limits

from service.play.commands import Asked, FileDispute, GiveRuling, PlayMove


def scalar(value: str):
    """A form field's text as a value: `true` (a ticked checkbox: an option of kind bool), digits as an integer, else
    the text."""
    value = value.strip()
    if value == "true":
        return True
    return int(value) if value.isdigit() and len(value) < 7 else value


def game_options(form, game: str) -> dict:
    """A game's options from the fields named ``<game>.<option>`` (templates/_options.html draws them from the
    game's spec): several values make a list (a name ending in ``[]``), digits an integer, an empty field is left
    out, and another game's fields are ignored."""
    options: dict = {}
    for field in form:
        if not field.startswith(f"{game}."):
            continue
        values = [scalar(v) for v in form.getlist(field) if v.strip()]
        name = field.split(".", 1)[1]
        if name.endswith("[]"):
            options[name[:-2]] = values
        elif values:
            options[name] = values[0]
    return options


def clock_start(form) -> str:
    """The "clocks start" select (templates/_options.html clock_start_choice): `first_move` when the form has none;
    any other text is passed on for the service to refuse, naming time_control.start."""
    return form.get("clock_start", "").strip() or "first_move"


def numeric(value: str):
    """A number field's text as the JSON value it stands for: digits as an integer (at most 16 of them), any other
    text as it is (the command refuses it, naming the field), an empty field as None (not given)."""
    value = value.strip()
    if not value:
        return None
    return int(value) if value.isdigit() and len(value) <= 16 else value


def move_body(form) -> dict | None:
    """The move a table's controls stand for, as the JSON body of a move (None: a `move` field that is no JSON):

    - `move`: a whole move as a JSON object (a button of `legal_move_buttons`), sent as it is;
    - else `type`, `cards` (the ticked card boxes; an empty list too when `type` is one of the
      space-separated `card_moves`), `text` for a `say`, and each non-empty `move.<field>` as
      `<field>` (digits as an integer).

    The table (move_command) and a study's board (api.pages.studies) read the same controls this one way."""
    if form.get("move"):
        try:
            return json_limits.loads(form["move"])
        except ValueError:  # json_limits.LimitError: not JSON, too deep, a number out of range
            return None  # no move at all: the command refuses it, as it refuses any body that is no JSON object
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
    return body


def move_command(game_id: str, form) -> Asked[PlayMove]:
    """The move a table form stands for (move_body), with `expected_version`: the JSON body POST
    /api/v1/games/{id}/moves would carry, made a command by the route's own constructor (PlayMove.from_body), so that
    the page and the API split and check it one way."""
    body = move_body(form)
    version = numeric(form.get("expected_version", ""))
    if version is not None and isinstance(body, dict):
        body["expected_version"] = version
    return PlayMove.from_body(game_id, body)


def dispute_command(game_id: str, form) -> Asked[FileDispute]:
    """The dispute the disputes page's form stands for: `claim`, and `version` or `attempt` (numbers)."""
    numbers = {field: numeric(form.get(field, "")) for field in ("version", "attempt")}
    return FileDispute.from_body(game_id, {"claim": form.get("claim", ""), **numbers})


def ruling_command(game_id: str, number: int, form) -> Asked[GiveRuling]:
    """The referee's ruling a dispute's form stands for: `decision`, `remedy`, `note`."""
    return GiveRuling.from_body(game_id, number, {field: form[field] for field in ("decision", "remedy", "note")
                                                  if field in form})
