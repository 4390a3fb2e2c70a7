"""A game's moves declared once: each record move type, its fields, what each means and the clause it comes from.

The game's codec parses moves (`parse_move`); this is the same vocabulary written down as data, so that generic code
can describe it without asking which game it is: the OpenAPI document types every game's move from it (a class per
move of each game in a generated client, api/http/game_moves.py), and a seat's legal-move entries with their
summary keys (`summary`: the keys a projection adds to one entry standing for many moves, never sent back).
tests/unit/test_move_shapes.py holds each declaration to its codec's `parse_move`.
"""

from __future__ import annotations

from dataclasses import dataclass

FIELD_KINDS = ("card", "cards", "int", "text", "choice", "ranks", "object")
MAX_TEXT = 2000  # a `say`'s text (api.http.schemas.Move bounds it)
MAX_CARDS = 60  # a move's card list (api.http.schemas.Move bounds it)


@dataclass(frozen=True)
class Field:
    """One field of a record move: its JSON kind, its meaning, the clause it comes from.

    kind: ``card`` (one card string), ``cards`` (a list of them), ``int``, ``text`` (a string), ``choice`` (one of
    `choices`), ``ranks`` (a list of rank strings), ``object`` (the nested `fields`).
    """

    name: str
    kind: str
    meaning: str
    clause: str
    required: bool = True
    choices: tuple[str, ...] = ()
    fields: tuple["Field", ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"move field {self.name}: kind {self.kind!r} is not one of {', '.join(FIELD_KINDS)}")


@dataclass(frozen=True)
class MoveShape:
    """One move type of a game: its meaning, its clause, its fields, and the summary keys of its legal-move entries."""

    type: str
    meaning: str
    clause: str
    fields: tuple[Field, ...] = ()
    summary: tuple[Field, ...] = ()


def say(clause: str) -> MoveShape:
    """Table talk (contract §2): a move of every game, any seat, any time before the end, no effect on play."""
    return MoveShape("say", "table talk: said to everybody, any time before the game ends; no effect on play", clause,
                     (Field("text", "text", "what is said", clause),))


def cards(meaning: str, clause: str, required: bool = True) -> Field:
    """A move's `cards` list."""
    return Field("cards", "cards", meaning, clause, required)
