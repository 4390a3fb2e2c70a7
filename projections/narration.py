"""Events as a line of plain text, for accounts of a game (CLI narration, pages): the game's own words if it has them.

A game's spec may name its narration (``GameSpec.narration``: ``describe(event, names) -> str | None``, the event
as stored, cards as strings); anything it leaves out gets the generic line "<who> <kind> <cards>". A move (a refused
attempt, a record's illegal move, an analysis' candidate) is told by `move_text`: its kind, its cards, its other fields,
a seat named by its player's name (the game's codec declares which fields name a seat: `Codec.seat_fields`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from domain.games import spec_for
from domain.spec import load


def describe(game: str, event: dict, names: list[str]) -> str:
    """One event (as stored, with its `type`) as a line of text."""
    own = _narration(spec_for(game).narration)
    text = own(event, names) if own else None
    return text if text is not None else generic(event, names)


@lru_cache(maxsize=None)
def _narration(location: str | None) -> Callable[[dict, list[str]], str | None] | None:
    return None if location is None else load(location)


def generic(event: dict, names: list[str]) -> str:
    """"<who> <kind> <cards>", for any event."""
    who = names[event["seat"]] if isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(names) else ""
    text = f"{who} {event['type'].replace('_', ' ')}".strip()
    if event.get("cards"):
        text += " " + " ".join(event["cards"])
    if "text" in event:
        text += f": {event['text']}"
    return text


def move_text(game: str, move: dict, names: list[str]) -> str:
    """A move as a record holds it (cards as strings) in words: "attack 8H 9H target Ann"; no seat number in it."""
    seat_fields = spec_for(game).codec.seat_fields
    words = [str(move.get("type", "move")).replace("_", " ")]
    if "cards" in move:
        words.append(" ".join(map(str, move["cards"])) if move["cards"] else "no card")
    for key, value in move.items():
        if key in ("type", "seat", "cards"):
            continue
        if key in seat_fields and isinstance(value, int) and 0 <= value < len(names):
            value = names[value]
        elif isinstance(value, dict):
            value = " ".join(map(str, value.values()))
        elif isinstance(value, list):
            value = ", ".join(map(str, value))
        words.append(f"{key.replace('_', ' ')} {value}")
    return " ".join(words)


GAME_EVENT_EXCLUDED = frozenset({"created", "move_rejected", "seed_revealed", "dispute_filed", "dispute_ruled", "rewound",
                                 "player_named", "time_expired"})


def narrate_entries(game: str, entries: list[dict], names: list[str]) -> list[dict]:
    """Event-log entries (the referee's audit, or a viewer's redacted log) with each game event's line of text as `text`
    and each refused attempt's move in words as `move_text`."""
    for entry in entries:
        if entry["type"] == "move_rejected" and isinstance((entry.get("data") or {}).get("move"), dict):
            entry["move_text"] = move_text(game, entry["data"]["move"], names)
        elif entry["type"] not in GAME_EVENT_EXCLUDED:
            event = {"type": entry["type"], **entry["data"]}
            try:
                entry["text"] = describe(game, event, names)
            except (KeyError, IndexError, TypeError):  # a redacted entry (a seat's audit page) may lack a field
                entry["text"] = generic(event, names)
    return entries
