"""Every game's moves as OpenAPI schemas, generated from each game's declaration (GameSpec.codec.moves,
domain/kit/moves.py): a client generator makes a typed class per move of each game from them.

- `<Game><Type>Move`: a move's body for POST /games/{id}/moves, its own fields (each with its meaning and clause)
  and the command's `expected_version` and `idempotency_key`;
- `<Game><Type>StudyMove`: the same move in a study (POST /studies/{id}/moves), with its optional `seat`;
- `<Game><Type>LegalMove`: an entry of a seat's `legal_moves` (the view's `table`): the move's fields, none
  required (a summarised entry leaves some open), and its summary keys (never sent back);
- `<Game>Move`, `<Game>StudyMove`, `<Game>LegalMove`: each game's `oneOf` with `type` as discriminator;
- `Move`, `StudyMove`: `anyOf` the games' moves (the body names no game: `say` and `pass` are moves of several).

The schemas describe what the server parses (api.http.schemas.Move's bounds, the codec's fields) and no more: a
request beyond them is judged by the game, as it always was.
"""

from __future__ import annotations

from domain.games import SPECS
from domain.json_limits import MAX_INT
from domain.kit.moves import MAX_CARDS, MAX_TEXT, Field, MoveShape

from service.play.commands import MAX_IDEMPOTENCY_KEY

CARD = {"type": "string", "minLength": 2, "maxLength": 3, "description": "a card: rank and suit, e.g. TD (10D and "
        "lower case accepted; JK a joker where the game has one)", "example": "TD"}
CONTROLS = {
    "expected_version": {"type": "integer", "nullable": True, "minimum": -MAX_INT, "maximum": MAX_INT,
                         "description": "the version the move was decided at: a stale one is a 409 (docs/api.md)"},
    "idempotency_key": {"type": "string", "nullable": True, "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY,
                        "description": "a retried request gets the first answer again (or the Idempotency-Key "
                                       "header; this field wins)"},
}
SEAT = {"type": "integer", "minimum": 0, "maximum": 64, "description": "the seat that moves (default: the study's "
                                                                       "seat to act)"}


def pascal(text: str) -> str:
    """A game id or move type as a class-name part: ``a-game`` -> ``AGame``, ``throw_in`` -> ``ThrowIn``."""
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_"))


def name_of(game: str, move: str, kind: str = "Move") -> str:
    """The component name of one game's move: ``<Game><Type>Move``, ``<Game><Type>StudyMove``, ..."""
    return f"{pascal(game)}{pascal(move)}{kind}"


def field_schema(field: Field) -> dict:
    """The JSON schema of a move field, its meaning and clause in its description (and `x-clause`)."""
    if field.kind == "card":
        out = dict(CARD)
    elif field.kind == "cards":
        out = {"type": "array", "items": dict(CARD), "maxItems": MAX_CARDS}
    elif field.kind == "int":
        out = {"type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT}
    elif field.kind == "text":
        out = {"type": "string", "maxLength": MAX_TEXT}
    elif field.kind == "choice":
        out = {"type": "string", "enum": list(field.choices)}
    elif field.kind == "ranks":
        out = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 8}, "maxItems": 64}
    else:
        out = {"type": "object", "properties": {f.name: field_schema(f) for f in field.fields},
               "required": [f.name for f in field.fields if f.required]}
    out["description"] = f"{field.meaning} ({field.clause})"
    out["x-clause"] = field.clause
    return out


def move_schema(game: str, title: str, shape: MoveShape, kind: str) -> dict:
    """One move's schema: `kind` Move (a body, with the command's fields), StudyMove (with `seat`) or LegalMove."""
    legal = kind == "LegalMove"
    properties = {"type": {"type": "string", "enum": [shape.type], "description": "the move's type"}}
    properties.update({f.name: field_schema(f) for f in shape.fields})
    required = ["type"] + ([] if legal else [f.name for f in shape.fields if f.required])
    if legal:
        properties.update({f.name: {**field_schema(f), "description": f"summary: {f.meaning} ({f.clause}); not a "
                                                                      "field of the move"} for f in shape.summary})
    elif kind == "StudyMove":
        properties["seat"] = dict(SEAT)
    else:
        properties.update(CONTROLS)
    what = "a legal move of the seat" if legal else "a move"
    return {"type": "object", "description": f"{title}, {what}: `{shape.type}`, {shape.meaning} ({shape.clause})",
            "properties": properties, "required": required, "x-clause": shape.clause}


def components() -> dict[str, dict]:
    """Every game's move schemas by component name, and the unions over them (see the module doc)."""
    out: dict[str, dict] = {}
    unions: dict[str, list[str]] = {"Move": [], "StudyMove": []}
    for game in SPECS:
        spec = SPECS[game]
        for kind in ("Move", "StudyMove", "LegalMove"):
            mapping = {}
            for shape in spec.codec.moves:
                name = name_of(game, shape.type, kind)
                out[name] = move_schema(game, spec.title, shape, kind)
                mapping[shape.type] = f"#/components/schemas/{name}"
            union = f"{pascal(game)}{kind}"
            out[union] = {"oneOf": [{"$ref": ref} for ref in mapping.values()],
                          "discriminator": {"propertyName": "type", "mapping": mapping},
                          "description": f"{'a legal move' if kind == 'LegalMove' else 'a move'} of {spec.title}, "
                                         "by its type"}
            unions.setdefault(kind, []).append(union)
    for kind in ("Move", "StudyMove"):
        out[f"Any{kind}"] = {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in unions[kind]],
                             "description": "a move of the game's own kind (the body names no game: its type "
                                            "says which move of that game it is)"}
    return out


def any_legal_move() -> dict:
    """A legal-move entry of any game (the view's `table.legal_moves[]`)."""
    return {"anyOf": [{"$ref": f"#/components/schemas/{pascal(game)}LegalMove"} for game in SPECS]}


def table_schema() -> dict:
    """The view's `table`: the game's own (each projection documents its keys), with a seat's typed `legal_moves`."""
    return {"type": "object", "additionalProperties": True,
            "description": "the game's own table as the caller may see it (each game's projection documents its keys, "
                           "docs/api.md \"Views\"): a seat's own `hand` and, when it is to act, its `legal_moves`",
            "properties": {
                "hand": {"type": "array", "items": dict(CARD), "description": "the seat's own cards (a seat's view)"},
                "legal_moves": {"type": "array", "items": any_legal_move(), "description":
                                "the seat's legal moves now (empty or absent when it is not to act): each a move of "
                                "the game, or one entry standing for many with summary keys (e.g. `from`/`max`: take "
                                "up to `max` of `from`; `min`/`max`: any amount between)"}}}
