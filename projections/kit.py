"""Who sees what, written once: the parts of a game's projection (its `table` and its `redact`) that every game
repeats. A game's projection composes them with what only it shows (OpenSpiel's observer: the redaction seam is the
game's, the plumbing is written once).

- `with_hands`: the referee (and everyone once the end is disclosed) sees every seat's hand and what else is hidden;
  a seat sees its own hand and its legal moves.
- `redactor`: a stored event whole to the referee and for a public kind; a private kind as the game's own function
  shows it to this viewer; nothing of any other kind before the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .viewers import Viewer


def with_hands(out: dict, viewer: Viewer, everything: bool, hand_of: Callable[[int], list],
               moves_of: Callable[[int], list], hidden: Callable[[], dict] | None = None) -> dict:
    """The public table `out` with what this viewer may see besides: with `everything` (the referee, or every viewer
    once the game's end is disclosed) the `hidden` piles and each seat entry's hand; a seat viewer its own hand and
    its legal moves."""
    if everything:
        if hidden is not None:
            out.update(hidden())
        for entry in out["seats"]:
            entry["hand"] = hand_of(entry["seat"])
    if viewer.role == "seat":
        out["hand"] = hand_of(viewer.seat)
        out["legal_moves"] = moves_of(viewer.seat)
    return out


Shown = Callable[[dict, Viewer, int], dict]  # (stored data, viewer, seats) -> what the viewer may see of it


def redactor(public: Iterable[str], private: Mapping[str, Shown]) -> Callable[[str, dict, Viewer, int], dict]:
    """``redact(kind, data, viewer, n)``: a stored event's data as `viewer` may see it before the end of the game."""
    public = frozenset(public)

    def redact(kind: str, data: dict, viewer: Viewer, n: int) -> dict:
        if viewer.is_referee or kind in public:
            return dict(data)
        shown = private.get(kind)
        return {} if shown is None else shown(data, viewer, n)

    redact.__doc__ = "A stored event's data as `viewer` may see it before the end of the game (n: seats)."
    return redact


def without(data: dict, *fields: str) -> dict:
    """The data without some fields (what others may not see)."""
    return {k: v for k, v in data.items() if k not in fields}


def reshuffle_size(data: dict, viewer: Viewer, n: int) -> dict:
    """A reshuffle as any seat sees it: its number and how many cards, never their order."""
    return {"k": data["k"], "count": len(data["order"])}
