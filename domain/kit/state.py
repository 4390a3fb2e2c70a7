"""A game's State and its fold, written once: the parts every decider's State shares.

A State holds immutable values in its fields (tuples, ints, a frozen set-up), so a shallow copy is an independent
state; it changes only by its fold, one small function per event type (``evolve`` never validates, it only applies).
A game composes: `Folded` as its State's base, `folder` for the table of changes, `evolver` for ``evolve``, and
`snapshot`/`restore` for the JSON-safe dump a store keeps (its layout stays each game's: older snapshots must open).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..rules import Outcome


class Folded:
    """A state whose every field holds an immutable value: `clone` is a shallow copy, equality is field by field."""

    def clone(self):
        """A shallow copy: every field is immutable, so the copy is independent."""
        new = object.__new__(type(self))
        new.__dict__ = self.__dict__.copy()
        return new

    def __eq__(self, other) -> bool:
        return isinstance(other, type(self)) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  (states compare by value; they are not dict keys)


def replaced(t: tuple, i: int, value) -> tuple:
    """A tuple with its item `i` replaced (a seat's hand, a seat's chips)."""
    return t[:i] + (value,) + t[i + 1:]


def unchanged(s, e: dict) -> None:
    """The change of an event that changes nothing (table talk)."""


def folder(title: str, changes: Mapping[str, Callable]) -> Callable[[Any, dict], None]:
    """``apply(state, event)``: the change of the event's type applied in place (the body of evolve, and of step's own
    fold); an unknown type raises ValueError naming the game."""

    def apply(s, e: dict) -> None:
        try:
            change = changes[e["type"]]
        except KeyError:
            raise ValueError(f"unknown {title} event type {e['type']!r}") from None
        change(s, e)

    apply.__doc__ = f"Apply one event to a {title} state in place (the body of evolve)."
    return apply


def evolver(apply: Callable, thaw: Callable | None = None, freeze: Callable | None = None) -> Callable:
    """``evolve(state, event)``, the pure fold: the state after one event, the input left unchanged (a clone, or
    `thaw` for a game whose State cannot be assigned, then `freeze`)."""

    def evolve(state, event: dict):
        new = state.clone() if thaw is None else thaw(state)
        apply(new, event)
        return new if freeze is None else freeze(new)

    evolve.__doc__ = "The pure fold: the state after one event (the input state is left unchanged)."
    return evolve


# -- snapshots: the State as JSON-safe data, and back -----------------------------------------------------------

OUTCOME_FIELDS = ("result", "seats", "team", "scores")


def outcome_dump(o: Outcome | None, fields: tuple[str, ...]) -> list | None:
    """An Outcome as the list of its `fields` (a game's snapshot layout: some keep no team, some no scores)."""
    if o is None:
        return None
    return [list(getattr(o, f)) if f in ("seats", "scores") else getattr(o, f) for f in fields]


def outcome_load(data: list | None, fields: tuple[str, ...]) -> Outcome | None:
    """The inverse of outcome_dump."""
    if data is None:
        return None
    kept = dict(zip(fields, data))
    for f in ("seats", "scores"):
        if f in kept:
            kept[f] = tuple(kept[f])
    return Outcome(**kept)


def nested_lists(value: Iterable) -> list:
    """A tuple of tuples (or None) as lists."""
    return [None if x is None else list(x) for x in value]


def nested_tuples(value: Iterable) -> tuple:
    """The inverse of nested_lists."""
    return tuple(None if x is None else tuple(x) for x in value)


def snapshot(s, setup: Callable[[Any], dict], outcome: tuple[str, ...], special: Mapping[str, Callable] = {}) -> dict:
    """A state's fields as JSON-safe data, in field order: the set-up by `setup`, the outcome as its `outcome` fields,
    a field of `special` by its function, any other tuple as a list."""
    out = {}
    for key, value in s.__dict__.items():
        if key == "setup":
            value = setup(value)
        elif key == "outcome":
            value = outcome_dump(value, outcome)
        elif key in special:
            value = special[key](value)
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def restore(cls: type, data: dict, setup: Callable[[dict], Any], outcome: tuple[str, ...],
            special: Mapping[str, Callable] = {}, tuples: Iterable[str] = ()):
    """The inverse of snapshot: a `cls` (not initialised) with the fields of `data`; the set-up by `setup`, `special`
    fields by their function, the fields named in `tuples` as tuples."""
    d = dict(data)
    d["setup"] = setup(d["setup"])
    for key in tuples:
        d[key] = tuple(d[key])
    for key, load in special.items():
        d[key] = load(d[key])
    d["outcome"] = outcome_load(d["outcome"], outcome)
    s = object.__new__(cls)
    s.__dict__ = d
    return s


def setup_dump(setup, lists: bool = True) -> dict:
    """A frozen dataclass set-up as a dict of its fields (tuples as lists unless `lists` is False)."""
    return {f: (list(v) if lists and isinstance(v, tuple) else v)
            for f, v in ((f, getattr(setup, f)) for f in setup.__dataclass_fields__)}


def setup_load(cls: type, data: dict, tuples: Iterable[str] = ("names",)):
    """The inverse of setup_dump: the fields `cls` knows (older snapshots may hold more), `tuples` as tuples."""
    fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
    for key in tuples:
        if fields.get(key) is not None:
            fields[key] = tuple(fields[key])
    return cls(**fields)
