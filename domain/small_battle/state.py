"""Small Battle state and its fold: ``evolve(state, event)`` never validates, it only applies."""

from __future__ import annotations

from ..rules import Outcome
from .setup import Setup


class State:
    """Everything the referee knows at one moment of a Small Battle game.

    Fields: setup, n; starter; to_act; formations (per seat: a tuple of 8 ranks by position, or None);
    commitments (per seat: 8 hex hashes, or None); removed and revealed (per formation owner: sorted
    tuples of positions); pile (top first) and drawn (the card drawn for the pending strike, or None);
    outcome.
    """

    def clone(self) -> "State":
        """A shallow copy: every field is immutable, so the copy is independent."""
        new = object.__new__(State)
        new.__dict__ = self.__dict__.copy()
        return new

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.__dict__ == other.__dict__

    def __repr__(self) -> str:
        return f"<Small Battle state to_act={self.to_act} drawn={self.drawn} removed={self.removed}>"

    def remaining(self, seat: int) -> list[int]:
        """The positions of a seat's formation still on the battlefield."""
        if self.formations[seat] is None:
            return []
        return [p for p in range(8) if p not in self.removed[seat]]

    @property
    def arranged(self) -> bool:
        """Whether both formations are set (SB-2.1)."""
        return all(f is not None for f in self.formations)


def initial_state(setup: Setup) -> State:
    """The table before the high-card draw."""
    s = State.__new__(State)
    s.setup, s.n = setup, setup.n
    s.starter = s.to_act = None
    s.formations, s.commitments = (None, None), (None, None)
    s.removed, s.revealed = ((), ()), ((), ())
    s.pile, s.drawn, s.outcome = (), None, None
    return s


def evolve(state: State, event: dict) -> State:
    """The pure fold: the state after one event (the input state is left unchanged)."""
    new = state.clone()
    apply(new, event)
    return new


def _with(t: tuple, i: int, value) -> tuple:
    return t[:i] + (value,) + t[i + 1:]


def _started(s: State, e: dict) -> None:
    s.starter, s.to_act, s.pile = e["starter"], e["starter"], tuple(e["pile"])


def _arranged(s: State, e: dict) -> None:
    seat = e["seat"]
    s.formations = _with(s.formations, seat, tuple(e["formation"]))
    s.commitments = _with(s.commitments, seat, tuple(e["commitment"]))


def _drew(s: State, e: dict) -> None:
    s.drawn, s.pile = s.pile[0], s.pile[1:]


def _struck(s: State, e: dict) -> None:
    seat, position, result = e["seat"], e["position"], e["result"]
    owner = 1 - seat
    if result == "removed":
        s.removed = _with(s.removed, owner, tuple(sorted(s.removed[owner] + (position,))))
    elif result == "revealed" and position not in s.revealed[owner]:
        s.revealed = _with(s.revealed, owner, tuple(sorted(s.revealed[owner] + (position,))))
    s.pile, s.drawn = s.pile + (s.drawn,), None  # SB-2.2: the drawn card goes to the bottom
    s.to_act = seat if result == "removed" else owner


def _won(s: State, e: dict) -> None:
    s.outcome = Outcome("win", (e["seat"],), None)
    s.to_act = None


def _said(s: State, e: dict) -> None:
    pass


APPLY = {"started": _started, "arranged": _arranged, "drew": _drew, "struck": _struck, "won": _won, "said": _said}


def apply(s: State, e: dict) -> None:
    """Apply one event to a state in place (the body of evolve)."""
    try:
        change = APPLY[e["type"]]
    except KeyError:
        raise ValueError(f"unknown Small Battle event type {e['type']!r}") from None
    change(s, e)


def dump_state(s: State) -> dict:
    """The state as JSON-safe data (snapshots)."""
    out = dict(s.__dict__)
    out["setup"] = {"names": list(s.setup.names), "dealer": s.setup.dealer, "starter": s.setup.starter}
    for key in ("formations", "commitments", "removed", "revealed"):
        out[key] = [None if x is None else list(x) for x in getattr(s, key)]
    out["pile"] = list(s.pile)
    out["outcome"] = None if s.outcome is None else [s.outcome.result, list(s.outcome.seats)]
    return out


def load_state(data: dict) -> State:
    """The inverse of dump_state."""
    s = object.__new__(State)
    d = dict(data)
    d["setup"] = Setup(tuple(d["setup"]["names"]), d["setup"]["dealer"], d["setup"]["starter"])
    for key in ("formations", "commitments", "removed", "revealed"):
        d[key] = tuple(None if x is None else tuple(x) for x in d[key])
    d["pile"] = tuple(d["pile"])
    if d["outcome"] is not None:
        d["outcome"] = Outcome(d["outcome"][0], tuple(d["outcome"][1]), None)
    s.__dict__ = d
    return s
